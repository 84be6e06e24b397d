import { RemixBrowser } from '@remix-run/react'
import i18next, { type BackendModule, type ReadCallback } from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { getInitialNamespaces } from 'remix-i18next/client'
import { watchBuildVersion } from './utils/build-version.ts'
import { registerErrorPageTranslator } from './utils/error-page.ts'
import { defaultNamespace, fallbackLanguage, languages } from './utils/i18n.ts'
import { registerServiceWorker } from './utils/service-worker.client.ts'

/** Loads one namespace of one language from /locales (cached by the browser). */
const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    fetch(`/locales/${language}/${namespace}.json?v=${__LOCALES_VERSION__}`)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((data: Record<string, unknown>) => callback(null, data))
      .catch((error: unknown) => callback(error as Error, false))
  },
}

declare const __LOCALES_VERSION__: string
declare const __LOCALE_NAMESPACES__: string[]

/**
 * Every namespace of the member's language, fetched once the page is idle (decision 059): a
 * page reached by a click then renders at once, whatever its components ask for.
 */
function preloadEveryNamespace() {
  const load = () => void i18next.loadNamespaces(__LOCALE_NAMESPACES__)
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 3_000 })
  else setTimeout(load, 1_000)
}

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(fetchBackend)
    .init({
      lng: document.documentElement.lang,
      fallbackLng: fallbackLanguage,
      defaultNS: defaultNamespace,
      ns: getInitialNamespaces(),
      interpolation: { escapeValue: false },
      // A component whose namespace is not loaded yet waits for it instead of rendering keys
      // (decision 059): after a click, inside Remix's transition, the page that was there stays
      // until the next one can render whole.
      react: { useSuspense: true },
    })
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
  preloadEveryNamespace()
}

// Decision 045: notice a newer server build (the update-required page), and install the app.
watchBuildVersion()
registerServiceWorker()
void hydrate()
