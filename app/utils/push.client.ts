/**
 * Turns web push on in this browser (decision 048): asks the push service for a subscription
 * with our VAPID key and hands it to the server through /resources/push-subscription. Called
 * after the member pressed a button or ticked a box; never blocks anything. `failed`: the
 * browser could not reach its push service (offline, a browser without one, headless tests).
 */
export type PushOutcome = 'subscribed' | 'unsupported' | 'denied' | 'failed'

const resource = '/resources/push-subscription'

export async function subscribeToPush(): Promise<PushOutcome> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined') return 'unsupported'
  try {
    if (Notification.permission === 'default' && (await Notification.requestPermission()) !== 'granted') return 'denied'
    if (Notification.permission === 'denied') return 'denied'
    const registration = await serviceWorkerRegistration()
    if (!registration) return 'failed'
    let subscription = await registration.pushManager.getSubscription()
    if (!subscription) {
      const answer = await fetch(resource, { headers: { Accept: 'application/json' } })
      if (!answer.ok) return 'failed'
      const { public_key: key } = (await answer.json()) as { public_key: string }
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(key) })
    }
    const kept = await fetch(resource, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ subscription: subscription.toJSON() }),
    })
    return kept.ok ? 'subscribed' : 'failed'
  } catch {
    return 'failed'
  }
}

/**
 * Turns web push off in this browser (a shared computer: the next person must not get the
 * member's notifications): tells the server to forget this browser's subscription, then drops it
 * at the push service. Called when the member signs out or unticks push, without waiting for it;
 * `keepalive` lets the request finish while the page moves on. Never throws.
 */
export async function unsubscribeFromPush(): Promise<void> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
    const registration = await serviceWorkerRegistration(2_000)
    const subscription = await registration?.pushManager.getSubscription()
    if (!subscription) return
    // Sent first (it needs the session, which signing out is about to end), not waited for.
    const forgotten = fetch(resource, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ unregister: subscription.endpoint }),
      keepalive: true,
    }).catch(() => undefined)
    await subscription.unsubscribe()
    await forgotten
  } catch {
    // Nothing to undo: a subscription the server still holds is dropped at its next push (404/410).
  }
}

/**
 * The service worker's registration once it is active: it registers after the page's load event,
 * so wait a little for it. Not `getRegistration()`, whose worker may still be installing on a
 * first visit (`pushManager.subscribe` then throws); `ready` waits for an active one.
 */
async function serviceWorkerRegistration(timeoutMs = 10_000): Promise<ServiceWorkerRegistration | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
    ])
  } finally {
    clearTimeout(timer)
  }
}

function fromBase64url(value: string) {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=')
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
}
