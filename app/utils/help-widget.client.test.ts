// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import type { HelpChatWidget } from '#contract/help-chat.ts'
import { openHelpWidget, resetHelpWidget } from './help-widget.client.ts'

/**
 * The vendor widget in the browser (decision 083): nothing is loaded until Help is pressed; then
 * the vendor's script, the member's signed identity handed to it, and the chat opened. A script
 * that cannot load answers false, so the built-in help chat shows instead.
 */

/** Answers each script the page adds: `vendor` plays the vendor's script, or it fails to load. */
function serveScripts(vendor: ((src: string) => void) | null) {
  const added: string[] = []
  const observer = new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (!(node instanceof HTMLScriptElement)) continue
        added.push(node.src)
        queueMicrotask(() => {
          if (vendor) {
            vendor(node.src)
            node.dispatchEvent(new Event('load'))
          } else node.dispatchEvent(new Event('error'))
        })
      }
    }
  })
  observer.observe(document.head, { childList: true })
  return { added, stop: () => observer.disconnect() }
}

afterEach(() => {
  resetHelpWidget()
  document.head.innerHTML = ''
  delete window.$chatwoot
  delete window.chatwootSDK
  delete window.Intercom
  delete window.intercomSettings
})

const chatwoot: HelpChatWidget = {
  provider: 'chatwoot',
  base_url: 'https://chat.circle55.example',
  website_token: 'website-token',
  identifier: 'member-1',
  identifier_hash: 'abc123',
  name: 'Margaret K.',
  email: 'margaret@example.com',
  avatar_url: null,
  created_at: '2024-01-02T03:04:05.000Z',
}

describe('Chatwoot', () => {
  it('loads the SDK when asked, sets the signed user once it is ready, and opens the chat', async () => {
    const calls: unknown[][] = []
    const scripts = serveScripts(() => {
      window.chatwootSDK = {
        run: (options) => {
          calls.push(['run', options])
          window.$chatwoot = {
            setUser: (...args) => void calls.push(['setUser', ...args]),
            setCustomAttributes: (...args) => void calls.push(['setCustomAttributes', ...args]),
            setLocale: () => {},
            toggle: (...args) => void calls.push(['toggle', ...args]),
          }
          setTimeout(() => window.dispatchEvent(new Event('chatwoot:ready')), 0)
        },
      }
    })
    expect(scripts.added).toEqual([])
    expect(await openHelpWidget(chatwoot, 'fr')).toBe(true)
    expect(scripts.added).toEqual(['https://chat.circle55.example/packs/js/sdk.js'])
    expect(window.chatwootSettings).toMatchObject({ hideMessageBubble: true, locale: 'fr' })
    expect(calls).toEqual([
      ['run', { websiteToken: 'website-token', baseUrl: 'https://chat.circle55.example' }],
      ['setUser', 'member-1', { name: 'Margaret K.', email: 'margaret@example.com', identifier_hash: 'abc123' }],
      ['setCustomAttributes', { signed_up_at: '2024-01-02T03:04:05.000Z' }],
      ['toggle', 'open'],
    ])
    // Pressed again: opened again, nothing loaded twice.
    expect(await openHelpWidget(chatwoot, 'fr')).toBe(true)
    expect(scripts.added).toHaveLength(1)
    expect(calls.at(-1)).toEqual(['toggle', 'open'])
    scripts.stop()
  })

  it('answers false when the script cannot load', async () => {
    const scripts = serveScripts(null)
    expect(await openHelpWidget(chatwoot, 'en')).toBe(false)
    scripts.stop()
  })
})

describe('Intercom', () => {
  it('boots the Messenger with the signed JWT and the member’s details, then shows it', async () => {
    const calls: unknown[][] = []
    const scripts = serveScripts(() => {
      window.Intercom = Object.assign((...args: unknown[]) => void calls.push(args), {})
    })
    const widget: HelpChatWidget = { provider: 'intercom', app_id: 'abc12345', user_jwt: 'header.payload.signature', name: 'Ruth O.', avatar_url: 'https://circle55.example/media/r.jpg', created_at: 1701388800 }
    expect(await openHelpWidget(widget, 'nl')).toBe(true)
    expect(scripts.added).toEqual(['https://widget.intercom.io/widget/abc12345'])
    const settings = {
      app_id: 'abc12345',
      intercom_user_jwt: 'header.payload.signature',
      name: 'Ruth O.',
      created_at: 1701388800,
      avatar: { type: 'avatar', image_url: 'https://circle55.example/media/r.jpg' },
      hide_default_launcher: true,
      language_override: 'nl',
    }
    expect(calls).toEqual([['boot', settings], ['show']])
    expect(JSON.stringify(window.intercomSettings)).not.toContain('@')
    scripts.stop()
  })
})
