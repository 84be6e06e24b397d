import { readFileSync } from 'node:fs'
import vm from 'node:vm'
import type { AppLoadContext } from '@remix-run/node'
import { describe, expect, it } from 'vitest'
import { offlineLanguage, requestKind, serviceWorkerScript } from '#app/utils/service-worker.server.ts'
import { shouldRegister } from '#app/utils/service-worker.client.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import * as manifestRoute from './manifest[.webmanifest].ts'
import * as offlineRoute from './offline.$lang.ts'
import * as serviceWorkerRoute from './sw[.js].ts'

/** The installable app (issue 15 §5, decision 045): the manifest, the service worker and the offline page. */
const context = () => ({}) as AppLoadContext
const get = (path: string, headers: Record<string, string> = {}) => new Request(`${TEST_PUBLIC_URL}${path}`, { headers })

describe('/manifest.webmanifest', () => {
  it('describes an app that installs: name, standalone, start page, colours and icons 192, 512 and maskable', async () => {
    const response = await manifestRoute.loader({ request: get('/manifest.webmanifest'), context: context(), params: {} })
    expect(response.headers.get('Content-Type')).toBe('application/manifest+json; charset=utf-8')
    const manifest = (await response.json()) as Record<string, unknown>
    expect(manifest).toMatchObject({ name: 'Circle 55', short_name: 'Circle 55', start_url: '/', scope: '/', display: 'standalone', theme_color: '#0b5563', lang: 'en' })
    expect(manifest.icons).toEqual([
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ])
  })

  it('its icons exist as PNG files of the sizes it says', () => {
    for (const [file, size] of [['icon-192.png', 192], ['icon-512.png', 512], ['icon-maskable-512.png', 512], ['apple-touch-icon.png', 180]] as const) {
      const png = readFileSync(new URL(`../../public/icons/${file}`, import.meta.url))
      expect(png.subarray(1, 4).toString(), file).toBe('PNG')
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], file).toEqual([size, size])
    }
  })

  it('describes the app in the member’s language', async () => {
    const response = await manifestRoute.loader({ request: get('/manifest.webmanifest', { 'accept-language': 'nl' }), context: context(), params: {} })
    expect(await response.json()).toMatchObject({ lang: 'nl', description: 'Activiteiten in kleine groepen en nieuwe vrienden bij u in de buurt, voor 55-plussers.' })
  })
})

describe('/offline/:lang', () => {
  it('says plainly that there is no connection, in each language, with no script', async () => {
    for (const [lang, title] of [['en', 'No internet connection'], ['fr', 'Pas de connexion internet'], ['nl', 'Geen internetverbinding']] as const) {
      const response = await offlineRoute.loader({ request: get(`/offline/${lang}`), context: context(), params: { lang } })
      const html = await response.text()
      expect(html).toContain(`<html lang="${lang}">`)
      expect(html).toContain(`<h1>${title}</h1>`)
      expect(html).not.toContain('<script')
      expect(await htmlProblems(html)).toEqual([])
    }
  })

  it('answers 404 for a language the product does not speak', async () => {
    await expect(offlineRoute.loader({ request: get('/offline/de'), context: context(), params: { lang: 'de' } })).rejects.toMatchObject({ status: 404 })
  })
})

describe('the service worker', () => {
  const origin = TEST_PUBLIC_URL

  it('keeps only hashed build files; pages go to the network; data, the API and other sites are left alone', () => {
    expect(requestKind({ url: `${origin}/assets/root-BX12ab.js`, method: 'GET', mode: 'no-cors' }, origin)).toBe('asset')
    expect(requestKind({ url: `${origin}/activities/1`, method: 'GET', mode: 'navigate' }, origin)).toBe('page')
    expect(requestKind({ url: `${origin}/activities/1.data`, method: 'GET', mode: 'cors' }, origin)).toBe('network')
    expect(requestKind({ url: `${origin}/api/v1/users/me`, method: 'GET', mode: 'cors' }, origin)).toBe('network')
    expect(requestKind({ url: `${origin}/locales/en/common.json`, method: 'GET', mode: 'cors' }, origin)).toBe('network')
    expect(requestKind({ url: `${origin}/activities/1`, method: 'POST', mode: 'navigate' }, origin)).toBe('network')
    expect(requestKind({ url: 'https://cdn.example.com/assets/x.js', method: 'GET', mode: 'no-cors' }, origin)).toBe('network')
  })

  it('shows the offline page in the browser’s language, else English', () => {
    expect(offlineLanguage(['fr-BE', 'en'], ['en', 'fr', 'nl'])).toBe('fr')
    expect(offlineLanguage(['de-DE', 'nl'], ['en', 'fr', 'nl'])).toBe('nl')
    expect(offlineLanguage(['de-DE'], ['en', 'fr', 'nl'])).toBe('en')
  })

  it('is served from the root as JavaScript that parses, never cached for long, named after the build', async () => {
    const response = serviceWorkerRoute.loader()
    expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
    const script = await response.text()
    expect(() => new vm.Script(script)).not.toThrow()
    expect(script).toContain(`const VERSION = "${__BUILD_VERSION__}";`)
  })

  it('a page visit uses the network, and shows the kept offline page only when the network fails', async () => {
    const worker = runWorker({ online: true })
    const online = await worker.visit(`${origin}/activities/1`)
    expect(await online.text()).toBe(`network: ${origin}/activities/1`)
    worker.goOffline()
    const offline = await worker.visit(`${origin}/activities/1`)
    expect(await offline.text()).toBe('kept: /offline/fr')
    expect(worker.kept).toEqual(['/offline/en', '/offline/fr', '/offline/nl', '/refusal.css'])
  })

  it('registers in production builds, or when a developer turns it on, and only where browsers support it', () => {
    expect(shouldRegister({ production: true, supported: true, enabled: null })).toBe(true)
    expect(shouldRegister({ production: false, supported: true, enabled: null })).toBe(false)
    expect(shouldRegister({ production: false, supported: true, enabled: 'on' })).toBe(true)
    expect(shouldRegister({ production: true, supported: false, enabled: null })).toBe(false)
  })
})

/** Runs the worker's script against a stand-in for the browser: its network, its caches, a French browser. */
function runWorker({ online }: { online: boolean }) {
  const listeners: Record<string, (event: unknown) => void> = {}
  const kept: string[] = []
  let connected = online
  const cache = {
    addAll: async (files: string[]) => void kept.push(...files),
    match: async () => undefined,
    put: async () => undefined,
  }
  const sandbox = {
    self: {
      addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
      location: { origin: TEST_PUBLIC_URL },
      navigator: { languages: ['fr-FR', 'en'], language: 'fr-FR' },
      skipWaiting: async () => undefined,
    },
    caches: {
      open: async () => cache,
      match: async (file: string) => (kept.includes(file) ? new Response(`kept: ${file}`) : undefined),
    },
    fetch: async (request: Request) => {
      if (!connected) throw new TypeError('Failed to fetch')
      return new Response(`network: ${request.url}`)
    },
    URL,
    Promise,
  }
  vm.runInNewContext(serviceWorkerScript('test-build'), sandbox)
  let installed: Promise<unknown> = Promise.resolve()
  listeners.install!({ waitUntil: (promise: Promise<unknown>) => (installed = promise) })
  return {
    kept,
    goOffline: () => (connected = false),
    async visit(url: string) {
      await installed
      let answer: Promise<Response> | undefined
      const request = { url, method: 'GET', mode: 'navigate' } as unknown as Request
      listeners.fetch!({ request, respondWith: (response: Promise<Response>) => (answer = response) })
      return answer!
    },
  }
}
