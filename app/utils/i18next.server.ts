import { createCookie, type AppLoadContext } from '@remix-run/node'
import { createInstance, type i18n as I18n, type Resource } from 'i18next'
import { initReactI18next } from 'react-i18next'
import {
  defaultNamespace,
  fallbackLanguage,
  isLanguage,
  languageCookieName,
  languageFromAcceptHeader,
  type Language,
} from './i18n.ts'

// Every locale file is bundled into the server build; the browser fetches only what it needs.
const files = import.meta.glob<Record<string, unknown>>('../../public/locales/*/*.json', {
  eager: true,
  import: 'default',
})
export const resources: Resource = {}
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file)
  if (!match) continue
  const [, lng, ns] = match as unknown as [string, string, string]
  resources[lng] = { ...resources[lng], [ns]: content }
}

/**
 * Page content rather than the interface's words: the help articles (decision 088), which the
 * loaders send already translated. The browser's translations (decision 059) leave them out.
 */
export const serverOnlyNamespaces: readonly string[] = ['help-articles']

export const languageCookie = createCookie(languageCookieName, {
  path: '/',
  sameSite: 'lax',
  httpOnly: false,
  maxAge: 365 * 24 * 60 * 60,
})

/**
 * The language of this request: the member's saved choice, then the language cookie, then
 * Accept-Language, then English (spec §1). Memoised per request.
 */
export async function detectLanguage(request: Request, context: AppLoadContext, saved?: string | null): Promise<Language> {
  if (context.language && !saved) return context.language
  let language: Language = fallbackLanguage
  const fromCookie: unknown = await languageCookie.parse(request.headers.get('Cookie'))
  if (isLanguage(saved)) language = saved
  else if (isLanguage(fromCookie)) language = fromCookie
  else language = languageFromAcceptHeader(request.headers.get('Accept-Language')) ?? fallbackLanguage
  context.language = language
  return language
}

export async function getT(request: Request, context: AppLoadContext, ns: string | string[] = defaultNamespace) {
  const language = await detectLanguage(request, context)
  return (await createI18nInstance(language)).getFixedT(language, ns)
}

/**
 * The i18next instance for a language. Every namespace is bundled and nothing changes the
 * language of an instance, so one per language serves every request (creating and initialising
 * an instance per request cost more than rendering the page).
 */
const instances = new Map<Language, Promise<I18n>>()
export function createI18nInstance(language: Language): Promise<I18n> {
  let instance = instances.get(language)
  if (!instance) {
    const created = createInstance()
    instance = created
      .use(initReactI18next)
      .init({
        resources,
        lng: language,
        fallbackLng: fallbackLanguage,
        defaultNS: defaultNamespace,
        ns: Object.keys(resources[fallbackLanguage] ?? {}),
        interpolation: { escapeValue: false },
        react: { useSuspense: false },
      })
      .then(() => created)
    instances.set(language, instance)
  }
  return instance
}
