import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { helpArticlePath } from '#app/utils/help-articles.ts'
import { helpChatPath } from '#app/utils/help-chat.ts'
import type { HelpArticle, SnippetPart } from '#app/utils/help-search.ts'
import { ConfiguredLink } from './outside-link.tsx'
import { BreakableText } from './ui/breakable-text.tsx'

/**
 * The help center's parts (decision 088). The articles' words come in the loaders' data, already
 * in the page's language; only the help center's own labels are translated here.
 */

export function HelpArticleList({ articles }: { articles: { slug: string; title: string; description: string }[] }) {
  return (
    <ul className="card-list help-articles">
      {articles.map((article) => (
        <li key={article.slug} className="card-item">
          <h3>
            <Link to={helpArticlePath(article.slug)}>{article.title}</Link>
          </h3>
          <p>{article.description}</p>
        </li>
      ))}
    </ul>
  )
}

/** A search result's words, the ones asked for marked. */
export function HelpSnippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <>
      {parts.map((part, index) => (part.mark ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  )
}

/** The help center from the help chat (its page and the header's panel), unless HELP_CENTER_URL is set empty. */
export function HelpCenterLink() {
  const { t } = useTranslation('help-center')
  return <ConfiguredLink name="helpCenter">{t('browse')}</ConfiguredLink>
}

/** "Still need help? Write to us": the help chat, from every help page. */
export function StillNeedHelp() {
  const { t } = useTranslation('help-center')
  return (
    <section aria-labelledby="still-need-help" className="notice help-still">
      <h2 id="still-need-help">{t('stillNeedHelp.heading')}</h2>
      <p>{t('stillNeedHelp.body')}</p>
      <p>
        <Link to={helpChatPath}>{t('stillNeedHelp.link')}</Link>
      </p>
    </section>
  )
}

/** One article: its opening, what is on the page, its sections (each with its anchor), where to go, related articles. */
export function HelpArticleView({ article, related }: { article: HelpArticle; related: { slug: string; title: string; description: string }[] }) {
  const { t } = useTranslation('help-center')
  return (
    <article className="prose help-article">
      <p>
        <Link to="/help">{t('article.back')}</Link>
      </p>
      <h1>{article.title}</h1>
      <p className="lead">
        <BreakableText text={article.intro} />
      </p>
      <nav aria-labelledby="help-contents" className="help-contents">
        <h2 id="help-contents">{t('article.contents')}</h2>
        <ul>
          {article.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ul>
      </nav>
      {article.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`}>{section.heading}</h2>
          {section.body.map((paragraph) => (
            <p key={paragraph}>
              <BreakableText text={paragraph} />
            </p>
          ))}
          {section.steps.length > 0 ? (
            <ol>
              {section.steps.map((step) => (
                <li key={step}>
                  <BreakableText text={step} />
                </li>
              ))}
            </ol>
          ) : null}
        </section>
      ))}
      {article.places.length > 0 ? (
        <section aria-labelledby="help-places">
          <h2 id="help-places">{t('article.places')}</h2>
          <ul className="detail-links">
            {article.places.map((place) => (
              <li key={place.to}>
                <Link to={place.to}>{place.label}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="help-related">
        <h2 id="help-related">{t('article.related')}</h2>
        <HelpArticleList articles={related} />
      </section>
      <StillNeedHelp />
    </article>
  )
}
