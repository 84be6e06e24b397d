import { RemixBrowser } from '@remix-run/react'
import i18next, { type BackendModule, type ReadCallback } from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { watchBuildVersion } from './utils/build-version.ts'
import { registerErrorPageTranslator } from './utils/error-page.ts'
import { defaultNamespace, fallbackLanguage, languages, translationsPath } from './utils/i18n.ts'
import { registerServiceWorker } from './utils/service-worker.client.ts'

/** Every namespace of a language, fetched once in one request (decision 059), kept by the browser. */
const loadedLanguages = new Map<string, Promise<Record<string, Record<string, unknown>>>>()
function everyNamespace(language: string) {
  let loading = loadedLanguages.get(language)
  if (!loading) {
    loading = fetch(translationsPath(language)).then((response) =>
      response.ok ? (response.json() as Promise<Record<string, Record<string, unknown>>>) : Promise.reject(new Error(String(response.status))),
    )
    // A failed load is tried again the next time a namespace is asked for.
    loading.catch(() => loadedLanguages.delete(language))
    loadedLanguages.set(language, loading)
  }
  return loading
}

const translationsBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    everyNamespace(language)
      .then((all) => callback(null, all[namespace] ?? {}))
      .catch((error: unknown) => callback(error as Error, false))
  },
}

/**
 * Remix decodes the page's data (single fetch) during its first render, suspending the whole
 * document until it has; a click or a key in that moment makes React 18 throw #345 "Root did not
 * complete" (remix-run/react-router#12763), and the page breaks. Rendering Remix's root once
 * outside React starts that decoding, and it throws the promise to wait for, before any hook:
 * awaited here, hydration never suspends.
 */
async function pageDataDecoded() {
  try {
    RemixBrowser({})
  } catch (thrown) {
    // Anything else is the hook that follows the decoding, which only runs inside React.
    if (thrown instanceof Promise) await thrown
  }
}

async function hydrate() {
  const decoding = pageDataDecoded()
  await i18next
    .use(initReactI18next)
    .use(translationsBackend)
    .init({
      lng: document.documentElement.lang,
      fallbackLng: fallbackLanguage,
      defaultNS: defaultNamespace,
      // Every namespace before the first page hydrates: nothing the page or the next one draws waits.
      ns: __LOCALE_NAMESPACES__,
      interpolation: { escapeValue: false },
      // Should a namespace still be on its way (a language just chosen), a component waits for
      // it instead of rendering keys (decision 059).
      react: { useSuspense: true },
    })
  await decoding
  // An error page's <title> comes from meta, which cannot use hooks (error-page.ts).
  for (const language of languages) {
    registerErrorPageTranslator(language, (key) => (i18next.exists(key, { lng: language }) ? i18next.t(key, { lng: language }) : null))
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

// Decision 045: notice a newer server build (the update-required page), and install the app.
watchBuildVersion()
registerServiceWorker()
void hydrate()
