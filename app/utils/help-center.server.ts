import type { AppLoadContext } from '@remix-run/node'
import type { TFunction } from 'i18next'
import { helpArticles, type HelpArticleSlug } from './help-articles.ts'
import type { HelpArticle, HelpSection } from './help-search.ts'
import { detectLanguage, getT } from './i18next.server.ts'

/**
 * The help center's articles in the request's language (decision 088), read from the
 * `help-articles` locale files with the support address filled in. The loaders send what the
 * page draws, so the browser's translations (decision 059) leave these long texts out.
 */
export async function loadHelpArticles(request: Request, context: AppLoadContext) {
  const [t, language] = await Promise.all([getT(request, context, 'help-articles'), detectLanguage(request, context)])
  const supportEmail = context.services.config.supportEmail
  return { language, articles: helpArticles.map((article) => articleIn(t, article.slug, supportEmail)) }
}

interface StoredSection {
  heading: string
  body?: string[]
  steps?: string[]
}

function articleIn(t: TFunction, slug: HelpArticleSlug, supportEmail: string): HelpArticle {
  const stored = t(`articles.${slug}`, { returnObjects: true, supportEmail }) as unknown as {
    title: string
    description: string
    intro: string
    sections: Record<string, StoredSection>
  }
  const guide = helpArticles.find((article) => article.slug === slug)
  const sections: HelpSection[] = Object.entries(stored.sections).map(([id, section]) => ({
    id,
    heading: section.heading,
    body: section.body ?? [],
    steps: section.steps ?? [],
  }))
  return {
    slug,
    title: stored.title,
    description: stored.description,
    intro: stored.intro,
    sections,
    places: (guide?.places ?? []).map(([to, label]) => ({ to, label: t(`places.${label}`) })),
  }
}
