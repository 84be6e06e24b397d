import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { routePages } from '#tests/route-pages.ts'
import * as resource from './push-subscription.ts'

/** /resources/push-subscription (decision 048): what the browser's push code talks to, over the real API. */
const pages = routePages([{ id: 'routes/resources+/push-subscription', path: 'resources/push-subscription', module: resource as never }])

const subscription = (n: number) => ({
  endpoint: `https://push.example/web-${n}-${crypto.randomUUID()}`,
  keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, n).toString('base64url') },
  expirationTime: null,
})

async function member() {
  const user = await createUser(pages.database.db)
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

const post = (cookie: string, body: unknown) =>
  pages.page('/resources/push-subscription', cookie, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

const endpointsOf = async (userId: string) =>
  (await pages.database.db.selectFrom('devices').select('token').where('user_id', '=', userId).execute()).map((row) => row.token)

describe('/resources/push-subscription', () => {
  it('gives the signed-in member’s browser the key to subscribe with', async () => {
    const { cookie } = await member()
    const response = await pages.page('/resources/push-subscription', cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(((await response.json()) as { public_key: string }).public_key).toMatch(/^[A-Za-z0-9_-]{87}$/)
  })

  it('keeps the browser’s subscription for the member, and forgets it when asked', async () => {
    const { user, cookie } = await member()
    const browser = subscription(1)
    expect((await post(cookie, { subscription: browser })).status).toBe(200)
    expect(await endpointsOf(user.id)).toEqual([browser.endpoint])
    expect((await post(cookie, { unregister: browser.endpoint })).status).toBe(200)
    expect(await endpointsOf(user.id)).toEqual([])
  })

  it('refuses something that is not a subscription, keeping nothing', async () => {
    const { user, cookie } = await member()
    expect((await post(cookie, { subscription: { endpoint: 'ftp://push.example/x', keys: {} } })).status).toBe(422)
    expect((await post(cookie, 'not json')).status).toBe(422)
    expect(await endpointsOf(user.id)).toEqual([])
  })

  it('sends a visitor who is not signed in to sign in', async () => {
    const response = await post('', { subscription: subscription(2) })
    expect(response.status).toBeGreaterThanOrEqual(300)
    expect(response.status).toBeLessThan(400)
  })
})
