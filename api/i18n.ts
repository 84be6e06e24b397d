import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import i18next, { type TFunction } from 'i18next'
import { languages, type Language } from '#contract/enums.ts'

/** Translations for server-rendered text outside Remix (emails), from the same locale files. */
const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/locales')
export type ServerLanguage = Language

const instance = i18next.createInstance()
const resources = Object.fromEntries(
  languages
    .filter((lng) => existsSync(path.join(localesDir, lng, 'email.json')))
    .map((lng) => [lng, { email: JSON.parse(readFileSync(path.join(localesDir, lng, 'email.json'), 'utf8')) as object }]),
)
void instance.init({
  resources,
  fallbackLng: 'en',
  defaultNS: 'email',
  ns: ['email'],
  interpolation: { escapeValue: false },
  initImmediate: false,
})

export function emailT(language: string): TFunction {
  return instance.getFixedT((languages as readonly string[]).includes(language) ? language : 'en', 'email')
}

/** An email's opening: by the first name ("Hello Walter,"), or "Hello," when there is none. */
export function emailGreeting(t: TFunction, firstName: string | null | undefined) {
  const name = firstName?.trim()
  return name ? t('greeting', { name }) : t('greetingNoName')
}
