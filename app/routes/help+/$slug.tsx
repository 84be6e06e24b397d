import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { HelpArticleView } from '#app/components/help-center.tsx'
import { helpArticles, isHelpArticleSlug } from '#app/utils/help-articles.ts'
import { loadHelpArticles } from '#app/utils/help-center.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/help/<slug>`, one help article (issue 33 §4, decision 088) in the page's language, with the
 * articles it leads on to and the help chat. Slugs are English in every language; any other is a
 * page that does not exist (`/help/chat`, a page of its own, wins over this one).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const slug = params.slug
  if (!isHelpArticleSlug(slug)) throw data(null, { status: 404 })
  const { articles } = await loadHelpArticles(request, context)
  const article = articles.find((candidate) => candidate.slug === slug)
  if (!article) throw data(null, { status: 404 })
  const relatedSlugs: readonly string[] = helpArticles.find((candidate) => candidate.slug === slug)?.related ?? []
  const related = relatedSlugs.flatMap((wanted) => articles.filter((candidate) => candidate.slug === wanted)).map((item) => ({ slug: item.slug, title: item.title, description: item.description }))
  return { article, related }
}

export default function HelpArticlePage() {
  const { article, related } = useLoaderData<typeof loader>()
  return <HelpArticleView article={article} related={related} />
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.article.title, loaded?.article.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
