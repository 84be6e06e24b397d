import type { TFunction, TOptions } from 'i18next'
import { languages, type Language } from '#contract/enums.ts'
import { fallbackLanguage, isLanguage, languageCookieName, languageFromAcceptHeader } from '#contract/languages.ts'

/** Languages of spec §9 and how a visitor's is chosen (contract/languages.ts): en is the default and the fallback. */
export { fallbackLanguage, isLanguage, languageCookieName, languageFromAcceptHeader, languages, type Language }
export const defaultNamespace = 'common'

/** Where the browser loads every namespace of a language in one answer (decision 059), by the translations' version. */
export function translationsPath(language: string) {
  return `/resources/translations/${language}?v=${__LOCALES_VERSION__}`
}

export const languageNames: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  nl: 'Nederlands',
}

/**
 * A list kept in the translations (`returnObjects`). Empty, never a crash, when the list is
 * missing: a namespace that failed to load gives back the key, a string.
 */
export function translatedList(t: TFunction, key: string, options: TOptions = {}): string[] {
  const value: unknown = t(key, { ...options, returnObjects: true })
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}
