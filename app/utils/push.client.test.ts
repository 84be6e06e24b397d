import { afterEach, describe, expect, it, vi } from 'vitest'
import { unsubscribeFromPush } from './push.client.ts'

/**
 * Turning push off in this browser on sign-out (a shared computer), against a stand-in for the
 * browser: the server is told to forget the subscription, and the browser drops it.
 */
function browser(subscription: { endpoint: string; unsubscribe: () => Promise<boolean> } | null, ready = true) {
  const registration = { pushManager: { getSubscription: async () => subscription } }
  vi.stubGlobal('navigator', { serviceWorker: { ready: ready ? Promise.resolve(registration) : new Promise(() => {}) } })
  const fetch = vi.fn(async () => new Response(null, { status: 200 }))
  vi.stubGlobal('fetch', fetch)
  return fetch
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('unsubscribeFromPush', () => {
  it('tells the server to forget this browser, then unsubscribes it', async () => {
    const unsubscribe = vi.fn(async () => true)
    const fetch = browser({ endpoint: 'https://push.example/abc', unsubscribe })
    await unsubscribeFromPush()
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/resources/push-subscription')
    expect(init).toMatchObject({ method: 'POST', keepalive: true })
    expect(JSON.parse(init.body as string)).toEqual({ unregister: 'https://push.example/abc' })
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })

  it('does nothing without a subscription, and still unsubscribes when the server cannot be reached', async () => {
    const fetch = browser(null)
    await unsubscribeFromPush()
    expect(fetch).not.toHaveBeenCalled()

    const unsubscribe = vi.fn(async () => true)
    browser({ endpoint: 'https://push.example/abc', unsubscribe }).mockRejectedValue(new TypeError('offline'))
    await expect(unsubscribeFromPush()).resolves.toBeUndefined()
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })

  it('gives up quietly when no service worker becomes ready', async () => {
    vi.useFakeTimers()
    const fetch = browser({ endpoint: 'https://push.example/abc', unsubscribe: async () => true }, false)
    const done = unsubscribeFromPush()
    await vi.advanceTimersByTimeAsync(2_000)
    await expect(done).resolves.toBeUndefined()
    expect(fetch).not.toHaveBeenCalled()
  })
})
