/**
 * Which error page (spec §8 "Error page" and the `errorPage.*` texts) answers a status. Shared by
 * the error boundaries, which draw it, and the page title (`pageTitle`), which names it.
 */
export const errorPageKinds = ['notFound', 'forbidden', 'unavailable', 'tooLarge', 'generic'] as const
export type ErrorPageKind = (typeof errorPageKinds)[number]

export function errorPageKind(status: number | null): ErrorPageKind {
  switch (status) {
    case 404:
      return 'notFound'
    case 403:
      return 'forbidden'
    case 503:
      return 'unavailable'
    case 413:
      return 'tooLarge'
    default:
      return 'generic'
  }
}


type Translate = (key: string) => string | null
const translators = new Map<string, Translate>()

/**
 * Meta functions cannot use hooks, yet an error page's <title> must be translated (it belongs in
 * <head>, which meta writes). Each side registers, per language, the translator it renders with:
 * entry.server its i18next instance, entry.client the browser's. Nothing ships extra data.
 */
export function registerErrorPageTranslator(language: string, translate: Translate) {
  translators.set(language, translate)
}

/** "Page not found" in `language`, or null when that language's texts are not loaded here. */
export function errorPageTitle(language: unknown, status: number): string | null {
  const translate = typeof language === 'string' ? translators.get(language) : undefined
  return translate?.(`errorPage.${errorPageKind(status)}.title`) ?? null
}
