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
const namespaces = ['email', 'profile', 'onboarding', 'chat', 'notifications', 'sms', 'payments', 'medicare'] as const

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

/** Payments' words (the no-show fee's agreement, recorded as shown: decision 075) in `language` (en otherwise). */
export function paymentsT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'payments')
}

/** The words a member agrees to before a Medicare agency may call them (decision 086), recorded as shown, in `language` (en otherwise). */
export function medicareT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'medicare')
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

/** Text a list draws many times: a key and the names of its values, with string values only. */
export type TemplateT = (key: string, values?: Record<string, string>) => string

const templateTs = new Map<string, TemplateT>()

/**
 * `notificationsT` for a whole list (decision 053): i18next resolves each key once per language
 * (fallbacks, nesting), with a marker in place of each value; afterwards the text is the pieces
 * joined with the values. Only for keys whose choice of text does not depend on a value (no
 * `count`, no `context`). The locale files do not change while the process runs.
 */
export function notificationsTemplateT(language: string | null | undefined): TemplateT {
  const lng = supported(language)
  const made = templateTs.get(lng)
  if (made) return made
  const t = notificationsT(lng)
  const templates = new Map<string, { pieces: string[]; names: string[] }>()
  const marker = '\u0000'
  const templateT: TemplateT = (key, values = {}) => {
    const names = Object.keys(values)
    const cacheKey = `${key}\u0000${names.join('\u0000')}`
    let template = templates.get(cacheKey)
    if (!template) {
      const marked = t(key, Object.fromEntries(names.map((name, index) => [name, `${marker}${index}${marker}`])))
      const pieces: string[] = []
      const order: string[] = []
      marked.split(marker).forEach((part, index) => (index % 2 === 0 ? pieces.push(part) : order.push(names[Number(part)]!)))
      template = { pieces, names: order }
      templates.set(cacheKey, template)
    }
    let text = template.pieces[0]!
    for (let index = 0; index < template.names.length; index++) text += values[template.names[index]!]! + template.pieces[index + 1]!
    return text
  }
  templateTs.set(lng, templateT)
  return templateT
}

/** Text messages' copy (`sms:*`, decision 049) in `language` (en otherwise). */
export function smsT(language: string | null | undefined): TFunction {
  return instance.getFixedT(supported(language), 'sms')
}
