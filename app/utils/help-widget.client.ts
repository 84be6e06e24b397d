import type { HelpChatWidget } from '#contract/help-chat.ts'

/**
 * The help chat's vendor widget in the browser (decision 083): nothing is downloaded until the
 * member presses Help (a facade: research §7, Lighthouse's third-party facades), and then only
 * what the server signed for them (`GET v1/support/help-chat`: no widget for a visitor, or while
 * the team views Circle 55 as the member). The launcher stays ours (an accessible button with
 * its name); the vendor's own bubble is hidden. Answers whether the widget opened; when it did
 * not (blocked, offline, too slow), the built-in help chat is shown instead.
 */

type Queue = ((...args: unknown[]) => void) & { q?: unknown[][]; c?: (args: unknown[]) => void }

declare global {
  interface Window {
    chatwootSettings?: Record<string, unknown>
    chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void }
    $chatwoot?: {
      setUser(identifier: string, user: Record<string, unknown>): void
      setCustomAttributes(attributes: Record<string, unknown>): void
      setLocale(locale: string): void
      toggle(state?: 'open' | 'close'): void
    }
    intercomSettings?: Record<string, unknown>
    Intercom?: Queue
  }
}

/** How long the vendor may take to load before the built-in help chat is shown instead. */
export const widgetTimeoutMs = 10_000

let opened: Promise<boolean> | null = null
let openedFor: string | null = null

export function openHelpWidget(widget: HelpChatWidget, language: string): Promise<boolean> {
  const key = widget.provider === 'chatwoot' ? `chatwoot:${widget.identifier}` : `intercom:${widget.app_id}:${widget.name}`
  if (opened && openedFor === key) {
    return opened.then((ready) => {
      if (ready) show(widget)
      return ready
    })
  }
  openedFor = key
  opened = (widget.provider === 'chatwoot' ? startChatwoot(widget, language) : startIntercom(widget, language)).then(
    () => {
      show(widget)
      return true
    },
    () => {
      opened = null
      return false
    },
  )
  return opened
}

function show(widget: HelpChatWidget) {
  if (widget.provider === 'chatwoot') window.$chatwoot?.toggle('open')
  else window.Intercom?.('show')
}

function loadScript(src: string) {
  return new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.addEventListener('load', () => resolve())
    script.addEventListener('error', () => reject(new Error('The help chat could not be loaded')))
    document.head.append(script)
  })
}

function withinTime<T>(work: Promise<T>) {
  return Promise.race([work, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('The help chat took too long')), widgetTimeoutMs))])
}

/** Chatwoot's SDK (https://www.chatwoot.com/docs/product/channels/live-chat/sdk/setup), then the signed user. */
async function startChatwoot(widget: Extract<HelpChatWidget, { provider: 'chatwoot' }>, language: string) {
  window.chatwootSettings = { hideMessageBubble: true, locale: language, position: 'right', type: 'standard' }
  const ready = new Promise<void>((resolve) => window.addEventListener('chatwoot:ready', () => resolve(), { once: true }))
  await withinTime(loadScript(`${widget.base_url}/packs/js/sdk.js`))
  window.chatwootSDK?.run({ websiteToken: widget.website_token, baseUrl: widget.base_url })
  await withinTime(ready)
  window.$chatwoot?.setUser(widget.identifier, {
    name: widget.name,
    email: widget.email,
    ...(widget.avatar_url ? { avatar_url: widget.avatar_url } : {}),
    identifier_hash: widget.identifier_hash,
  })
  window.$chatwoot?.setCustomAttributes({ signed_up_at: widget.created_at })
}

/** Intercom's Messenger (https://developers.intercom.com/installing-intercom/web/installation), booted with the signed JWT. */
async function startIntercom(widget: Extract<HelpChatWidget, { provider: 'intercom' }>, language: string) {
  const settings = {
    app_id: widget.app_id,
    intercom_user_jwt: widget.user_jwt,
    name: widget.name,
    created_at: widget.created_at,
    ...(widget.avatar_url ? { avatar: { type: 'avatar', image_url: widget.avatar_url } } : {}),
    hide_default_launcher: true,
    language_override: language,
  }
  window.intercomSettings = settings
  // Intercom's documented stub: calls made before the script arrives wait in its queue.
  const queue: Queue = (...args: unknown[]) => queue.c?.(args)
  queue.q = []
  queue.c = (args) => queue.q?.push(args)
  window.Intercom = queue
  await withinTime(loadScript(`https://widget.intercom.io/widget/${encodeURIComponent(widget.app_id)}`))
  window.Intercom('boot', settings)
}

/** Tests: forget the widget started. */
export function resetHelpWidget() {
  opened = null
  openedFor = null
}
