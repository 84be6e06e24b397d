import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { serviceWorkerScript } from './service-worker.server.ts'

/**
 * The service worker's push handling (issue 15 §3, decision 048), run against a stand-in for the
 * browser: what notification a push shows, and where a click on it takes the member.
 */
const origin = 'https://circle55.example'

function runWorker(openTabs: string[] = []) {
  const listeners: Record<string, (event: unknown) => void> = {}
  const shown: Array<{ title: string; options: Record<string, unknown> }> = []
  const actions: string[] = []
  const tabs = openTabs.map((url) => ({
    url,
    focus: async function () {
      actions.push(`focus ${url}`)
      return this
    },
    navigate: async (to: string) => void actions.push(`navigate ${url} → ${to}`),
  }))
  const sandbox = {
    self: {
      addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
      location: { origin },
      navigator: { languages: ['en'], language: 'en' },
      registration: { showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }) },
      clients: {
        matchAll: async () => tabs,
        openWindow: async (url: string) => void actions.push(`open ${url}`),
      },
    },
    caches: {},
    URL,
    Promise,
  }
  vm.runInNewContext(serviceWorkerScript('test-build'), sandbox)
  return {
    shown,
    actions,
    async push(data: unknown) {
      let done: Promise<unknown> = Promise.resolve()
      const text = typeof data === 'string' ? data : JSON.stringify(data)
      listeners.push!({ data: { json: () => JSON.parse(text) as unknown, text: () => text }, waitUntil: (promise: Promise<unknown>) => (done = promise) })
      await done
    },
    async click(url: string) {
      let done: Promise<unknown> = Promise.resolve()
      listeners.notificationclick!({ notification: { data: { url }, close: () => undefined }, waitUntil: (promise: Promise<unknown>) => (done = promise) })
      await done
    },
  }
}

describe('the service worker and a push', () => {
  it('shows the payload’s title and body with the app’s icon, its tag and its page', async () => {
    const worker = runWorker()
    await worker.push({ title: 'Your seat is confirmed', body: 'Tai chi, Saturday 9:00', url: '/activities/tai-chi', tag: 'seat' })
    expect(worker.shown).toEqual([
      {
        title: 'Your seat is confirmed',
        options: expect.objectContaining({ body: 'Tai chi, Saturday 9:00', icon: '/icons/icon-192.png', tag: 'seat', data: { url: '/activities/tai-chi' } }),
      },
    ])
  })

  it('still shows something for a payload that is not JSON', async () => {
    const worker = runWorker()
    await worker.push('Hello')
    expect(worker.shown).toEqual([{ title: 'Circle 55', options: expect.objectContaining({ body: 'Hello', data: { url: '/' } }) }])
  })

  it('on a click, takes an open tab of the app to the page, or opens it', async () => {
    const withTab = runWorker([`${origin}/messenger`])
    await withTab.click('/activities/tai-chi')
    expect(withTab.actions).toEqual([`focus ${origin}/messenger`, `navigate ${origin}/messenger → ${origin}/activities/tai-chi`])
    const without = runWorker()
    await without.click('/activities/tai-chi')
    expect(without.actions).toEqual([`open ${origin}/activities/tai-chi`])
  })

  it('never opens another site', async () => {
    const worker = runWorker()
    await worker.click('https://evil.example/phish')
    expect(worker.actions).toEqual([`open ${origin}/`])
  })
})
