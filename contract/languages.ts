import { languages, type Language } from './enums.ts'

/**
 * Which of the languages of spec §9 a visitor gets: the web app decides it, and the host's
 * refusal pages (api/http/refusal-page.ts) decide it the same way before the web app runs.
 */

/** Spec §9: en is the default and the fallback. */
export const fallbackLanguage: Language = 'en'
/** The cookie that holds the visitor's chosen language. */
export const languageCookieName = 'lng'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}

/** Picks the best supported language from an Accept-Language header. */
export function languageFromAcceptHeader(header: string | null): Language | null {
  if (!header) return null
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const { tag } of ranked) {
    const base = tag.split('-')[0]
    if (isLanguage(base)) return base
  }
  return null
}
