import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import i18next, { type TFunction } from 'i18next'
import { languages, type Language } from '#contract/enums.ts'

/**
 * Translations for text the API writes itself (emails; the names of profile choices), from the
 * same locale files as the web app.
 */
const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/locales')
export type ServerLanguage = Language

/** `onboarding` names the genders and reasons for joining that the profile catalogue lists too; `chat` holds product messages. */
const namespaces = ['email', 'profile', 'onboarding', 'chat', 'notifications', 'sms'] as const

const instance = i18next.createInstance()
const resources = Object.fromEntries(
  languages.map((lng) => [
    lng,
    Object.fromEntries(
      namespaces
        .map((ns) => [ns, path.join(localesDir, lng, `${ns}.json`)] as const)
        .filter(([, file]) => existsSync(file))
        .map(([ns, file]) => [ns, JSON.parse(readFileSync(file, 'utf8')) as object]),
    ),
  ]),
)
void instance.init({
  resources,
  fallbackLng: 'en',
  defaultNS: 'email',
  ns: [...namespaces],
  interpolation: { escapeValue: false },
  initImmediate: false,
})

function supported(language: string | null | undefined): Language {
  return language && (languages as readonly string[]).includes(language) ? (language as Language) : 'en'
}

export function emailT(language: string): TFunction {
  return instance.getFixedT(supported(language), 'email')
}

/** The words of profile choices (interests, prompts, employment…) in `language` (en otherwise). */
export function profileT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'profile')
}

/** Genders and reasons for joining, named as the onboarding form names them. */
export function onboardingT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'onboarding')
}

/** Product messages in chat (`chat:product.*`) in `language` (en otherwise). */
export function chatT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'chat')
}

/** An email's opening: by the first name ("Hello Walter,"), or "Hello," when there is none. */
export function emailGreeting(t: TFunction, firstName: string | null | undefined) {
  const name = firstName?.trim()
  return name ? t('greeting', { name }) : t('greetingNoName')
}

/** In-app notifications' titles and bodies (`notifications:types.*`, decision 043) in `language` (en otherwise). */
export function notificationsT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'notifications')
}

/** Text messages' copy (`sms:*`, decision 049) in `language` (en otherwise). */
export function smsT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'sms')
}
