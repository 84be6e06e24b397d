import { webcrypto } from 'node:crypto'
import type { FeatureDefinitions } from '@growthbook/growthbook'
import { delay, http, HttpResponse } from 'msw'

/**
 * GrowthBook's SDK Connection endpoint as its documentation describes it
 * (https://docs.growthbook.io/app/api, "SDK Connection Endpoints"): `GET {apiHost}/api/features/{clientKey}`,
 * public (no authentication), answering `{ status: 200, features: { key: { defaultValue, rules? } },
 * dateUpdated }`; with "encrypt payload" on, `encryptedFeatures` instead of `features`: AES-CBC
 * with the connection's 128-bit key (base64), written `base64(iv).base64(ciphertext)`
 * (https://docs.growthbook.io/lib/build-your-own). A client key it does not know: 400
 * `{ status: 400, error: 'Invalid API key' }` (growthbook/growthbook#612).
 */
export interface GrowthBookMock {
  handlers: ReturnType<typeof http.get>[]
  /** The features the SDK connection serves; change them to publish a change. */
  features: { value: FeatureDefinitions }
  /** Each request GrowthBook received: its URL, method and body. */
  requests: { url: URL; method: string; body: string }[]
  /** `network`: the connection fails; a number: GrowthBook answers that status; false: it works. */
  down: { value: false | 'network' | number }
  /** How long GrowthBook takes to answer, in milliseconds. */
  latency: { value: number }
}

export function growthbookHandlers(options: { apiHost: string; clientKey: string; features: FeatureDefinitions; decryptionKey?: string }): GrowthBookMock {
  const features = { value: options.features }
  const requests: GrowthBookMock['requests'] = []
  const down: GrowthBookMock['down'] = { value: false }
  const latency = { value: 0 }
  const handlers = [
    http.get(`${options.apiHost}/api/features/:clientKey`, async ({ request, params }) => {
      requests.push({ url: new URL(request.url), method: request.method, body: await request.text() })
      if (latency.value) await delay(latency.value)
      if (down.value === 'network') return HttpResponse.error()
      if (down.value) return HttpResponse.json({ status: down.value, error: 'Unavailable' }, { status: down.value })
      if (params.clientKey !== options.clientKey) return HttpResponse.json({ status: 400, error: 'Invalid API key' }, { status: 400 })
      const dateUpdated = new Date().toISOString()
      if (options.decryptionKey) {
        return HttpResponse.json({ status: 200, encryptedFeatures: await encrypt(JSON.stringify(features.value), options.decryptionKey), dateUpdated })
      }
      return HttpResponse.json({ status: 200, features: features.value, dateUpdated })
    }),
  ]
  return { handlers, features, requests, down, latency }
}

/** What GrowthBook does with "encrypt payload" on: AES-CBC, a random IV, `base64(iv).base64(ciphertext)`. */
async function encrypt(text: string, keyBase64: string) {
  const key = await webcrypto.subtle.importKey('raw', Buffer.from(keyBase64, 'base64'), { name: 'AES-CBC', length: 128 }, false, ['encrypt'])
  const iv = webcrypto.getRandomValues(new Uint8Array(16))
  const cipher = await webcrypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, new TextEncoder().encode(text))
  return `${Buffer.from(iv).toString('base64')}.${Buffer.from(cipher).toString('base64')}`
}
