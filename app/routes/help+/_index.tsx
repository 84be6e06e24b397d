import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { HelpArticleList, HelpSnippet, StillNeedHelp } from '#app/components/help-center.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { helpArticlePath, helpCenterPath } from '#app/utils/help-articles.ts'
import { loadHelpArticles } from '#app/utils/help-center.server.ts'
import { maxQueryLength, searchHelp } from '#app/utils/help-search.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/help`, the help center (issue 33 §4, decision 088): every article, and a search that works
 * without JavaScript (a GET form, `?q=`, matched on the server over the titles and the words of
 * the articles in the page's language, accents and case aside). The help chat is `/help/chat`.
 * Nothing here is personal, but the site header is: the pages keep the default private headers.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, maxQueryLength)
  const [{ language, articles }, t] = await Promise.all([loadHelpArticles(request, context), getT(request, context, 'help-center')])
  return {
    title: query ? t('search.pageTitle', { query }) : t('title'),
    description: t('description'),
    query,
    results: query ? searchHelp(articles, query, language) : null,
    articles: articles.map(({ slug, title, description }) => ({ slug, title, description })),
  }
}

export default function HelpCenter() {
  const { query, results, articles } = useLoaderData<typeof loader>()
  const { t } = useTranslation('help-center')
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      <p className="lead">{t('intro')}</p>
      <Form method="get" action={helpCenterPath} className="filters" role="search">
        <TextField id="help-q" name="q" type="search" label={t('search.label')} hint={t('search.hint')} defaultValue={query} maxLength={maxQueryLength} autoComplete="off" />
        <div className="button-row">
          <SubmitButton pending="searching" className="button">
            {t('search.submit')}
          </SubmitButton>
          {query ? (
            <Link to={helpCenterPath} className="button button--secondary">
              {t('search.showAll')}
            </Link>
          ) : null}
        </div>
      </Form>
      {results ? <SearchResults query={query} results={results} /> : null}
      <section aria-labelledby="help-all">
        <h2 id="help-all">{t('all')}</h2>
        <HelpArticleList articles={articles} />
      </section>
      <StillNeedHelp />
    </div>
  )
}

function SearchResults({ query, results }: { query: string; results: ReturnType<typeof searchHelp> }) {
  const { t } = useTranslation('help-center')
  if (results.length === 0) {
    return (
      <section aria-labelledby="help-results" className="notice" data-testid="help-no-match">
        <h2 id="help-results">{t('search.noMatch', { query })}</h2>
        <p>
          {t('search.noMatchHint')} <Link to="/help/chat">{t('stillNeedHelp.link')}</Link>
        </p>
      </section>
    )
  }
  return (
    <section aria-labelledby="help-results">
      <h2 id="help-results">{t('search.results', { count: results.length, query })}</h2>
      <ul className="card-list help-results">
        {results.map((result) => (
          <li key={result.slug} className="card-item">
            <h3>
              <Link to={`${helpArticlePath(result.slug)}${result.section ? `#${result.section}` : ''}`}>{result.title}</Link>
            </h3>
            <p>
              <HelpSnippet parts={result.snippet} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title, loaded?.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
