import { languages, type Language } from '#contract/enums.ts'
import { fallbackLanguage, isLanguage, languageCookieName, languageFromAcceptHeader } from '#contract/languages.ts'

/** Languages of spec §9 and how a visitor's is chosen (contract/languages.ts): en is the default and the fallback. */
export { fallbackLanguage, isLanguage, languageCookieName, languageFromAcceptHeader, languages, type Language }
export const defaultNamespace = 'common'

export const languageNames: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  nl: 'Nederlands',
}
