import { languages, type Language } from '#contract/enums.ts'

/** Languages of spec §9 (contract/enums.ts): en is the default and the fallback. */
export { languages, type Language }
export const fallbackLanguage: Language = 'en'
export const defaultNamespace = 'common'
export const languageCookieName = 'lng'

export const languageNames: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  nl: 'Nederlands',
}

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
