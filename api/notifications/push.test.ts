import { sql } from 'kysely'
import webPush from 'web-push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { startPushEndpoint, type PushEndpoint } from '#tests/push-endpoint.ts'
import { parseEnv } from '../env.ts'
import { startJobQueue, type JobQueue } from '../jobs/queue.ts'
import { createLogger } from '../logger.ts'
import { loadVapidKeys, type VapidKeys } from '../secrets.ts'
import { MAX_DEVICES_PER_MEMBER, PUSH_DELIVERY_JOB, PUSH_FAILURE_LIMIT, PushDeferred, deliverPush, isPushService, pushDeliveryJob, queuePush, registerDevice } from './push.ts'

/**
 * Web push (issue 15 §3 and §7, decision 048) against a local push service that checks the VAPID
 * signature and decrypts each push as a browser would: what arrives, and what happens to a
 * browser whose subscription the push service no longer knows.
 */
let database: TestDatabase
let api: ApiHarness
let queue: JobQueue
let endpoint: PushEndpoint
let vapid: VapidKeys
const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })
const logger = createLogger(env)

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  endpoint = await startPushEndpoint()
  vapid = await loadVapidKeys(database.db, api.env)
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  await queue.start([pushDeliveryJob], { db: database.db, logger, vapid })
})

afterAll(async () => {
  await queue?.stop()
  await endpoint?.close()
  await database?.drop()
})

async function as(user: User) {
  const token = await api.signToken(user.id)
  return (method: string, path: string, body?: unknown) => api.request(method, path, { token, body })
}

const devicesOf = (userId: string) =>
  database.db.selectFrom('devices').select(['token', 'kind', 'keys']).where('user_id', '=', userId).execute()

/** A member with one browser registered at the local push service, through the API. */
async function memberWithBrowser() {
  const user = await createUser(database.db)
  const subscription = endpoint.subscribe()
  const response = await (await as(user))('PUT', 'v1/notifications/register-device', subscription)
  expect(response.status).toBe(200)
  return { user, subscription }
}

const pushJobStates = async (userId: string) => {
  const { rows } = await sql<{ state: string }>`
    SELECT j.state FROM pgboss.job j
    WHERE j.name = ${PUSH_DELIVERY_JOB} AND j.data->'payload'->>'tag' = ${userId}`.execute(database.db)
  return rows.map((row) => row.state)
}

const payloadFor = (userId: string) => ({ title: 'Your seat is confirmed', body: 'Tai chi in the park, Saturday 9:00 ✓', url: '/activities/abc', tag: userId })

describe('PUT and DELETE /api/v1/notifications/register-device', () => {
  it('keeps the browser’s subscription, once per endpoint, and answers the device', async () => {
    const user = await createUser(database.db)
    const call = await as(user)
    const subscription = endpoint.subscribe()
    const first = await call('PUT', 'v1/notifications/register-device', { ...subscription, expirationTime: null })
    expect(first.status).toBe(200)
    expect(first.json.data[0]).toMatchObject({ kind: 'web_push', endpoint: subscription.endpoint })
    const again = await call('PUT', 'v1/notifications/register-device', subscription)
    expect(again.json.data[0].id).toBe(first.json.data[0].id)
    expect(await devicesOf(user.id)).toEqual([{ token: subscription.endpoint, kind: 'web_push', keys: subscription.keys }])
  })

  it('moves an endpoint registered again by another member with its keys to them (the same browser: a shared computer)', async () => {
    const { user: ann, subscription } = await memberWithBrowser()
    const bob = await createUser(database.db)
    expect((await (await as(bob))('PUT', 'v1/notifications/register-device', subscription)).status).toBe(200)
    expect(await devicesOf(ann.id)).toEqual([])
    expect((await devicesOf(bob.id)).map((device) => device.token)).toEqual([subscription.endpoint])
  })

  it('refuses another member’s endpoint sent with other keys (409), and it stays with its owner, who still gets pushes', async () => {
    const { user: ann, subscription } = await memberWithBrowser()
    const mallory = await as(await createUser(database.db))
    // Knowing the address is not holding the browser: the keys are Mallory's own.
    const { keys } = endpoint.subscribe()
    const taken = await mallory('PUT', 'v1/notifications/register-device', { endpoint: subscription.endpoint, keys })
    expect(taken.status).toBe(409)
    expect(taken.json.error.code).toBe('endpoint_taken')
    expect((await mallory('DELETE', 'v1/notifications/register-device', { endpoint: subscription.endpoint })).status).toBe(204)
    expect(await devicesOf(ann.id)).toEqual([{ token: subscription.endpoint, kind: 'web_push', keys: subscription.keys }])
    await database.db.transaction().execute((trx) => queuePush(queue, trx, ann.id, payloadFor(ann.id)))
    await expect.poll(() => endpoint.received.filter((push) => push.endpoint === subscription.endpoint).length, { timeout: 15_000, interval: 200 }).toBe(1)
  })

  it(`keeps at most ${MAX_DEVICES_PER_MEMBER} browsers per member: one more replaces the one seen longest ago`, async () => {
    const user = await createUser(database.db)
    const call = await as(user)
    const browsers = Array.from({ length: MAX_DEVICES_PER_MEMBER + 2 }, () => endpoint.subscribe())
    for (const browser of browsers) expect((await call('PUT', 'v1/notifications/register-device', browser)).status).toBe(200)
    const kept = (await devicesOf(user.id)).map((device) => device.token)
    expect(kept.sort()).toEqual(browsers.slice(2).map((browser) => browser.endpoint).sort())
    // Seen again, the oldest kept browser is now the newest: the next one replaces another.
    expect((await call('PUT', 'v1/notifications/register-device', browsers[2])).status).toBe(200)
    expect((await call('PUT', 'v1/notifications/register-device', endpoint.subscribe())).status).toBe(200)
    const after = (await devicesOf(user.id)).map((device) => device.token)
    expect(after).toHaveLength(MAX_DEVICES_PER_MEMBER)
    expect(after).toContain(browsers[2]!.endpoint)
    expect(after).not.toContain(browsers[3]!.endpoint)
  })

  it('refuses what is not a push subscription, naming the field', async () => {
    const call = await as(await createUser(database.db))
    const { keys } = endpoint.subscribe()
    const invalid = async (body: unknown): Promise<unknown> => (await call('PUT', 'v1/notifications/register-device', body)).json.error.fields
    expect(await invalid({ endpoint: 'http://push.example/abc', keys })).toEqual({ endpoint: ['endpoint_invalid'] })
    expect(await invalid({ endpoint: 'not a url', keys })).toEqual({ endpoint: ['endpoint_invalid'] })
    expect(await invalid({ endpoint: 'https://push.example/abc', keys: { ...keys, p256dh: keys.auth } })).toEqual({ 'keys.p256dh': ['key_invalid'] })
    expect(await invalid({ endpoint: 'https://push.example/abc', keys: { ...keys, auth: 'short' } })).toEqual({ 'keys.auth': ['auth_invalid'] })
  })

  it('takes a push service on this machine (http://127.0.0.1) only outside production', async () => {
    const user = await createUser(database.db)
    const local = endpoint.subscribe()
    await expect(registerDevice(database.db, { isProduction: true }, user, local)).rejects.toMatchObject({ status: 422, fields: { endpoint: ['endpoint_invalid'] } })
    expect((await registerDevice(database.db, { isProduction: false }, user, local)).endpoint).toBe(local.endpoint)
  })

  it('takes only the browsers’ push services in production, never an address inside the network', () => {
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/abc', 'https://updates.push.services.mozilla.com/wpush/v2/abc', 'https://wns2-by3p.notify.windows.com/w/?token=abc', 'https://web.push.apple.com/abc'])
      expect(isPushService(endpoint)).toBe(true)
    for (const endpoint of ['https://localhost/abc', 'https://10.0.0.5/abc', 'https://db.internal/abc', 'https://fcm.googleapis.com.evil.example/abc', 'https://fcm.googleapis.com:8443/abc', 'http://fcm.googleapis.com/abc'])
      expect(isPushService(endpoint)).toBe(false)
  })

  it('unregisters only the caller’s own browser', async () => {
    const { user: ann, subscription } = await memberWithBrowser()
    const bob = await as(await createUser(database.db))
    expect((await bob('DELETE', 'v1/notifications/register-device', { endpoint: subscription.endpoint })).status).toBe(204)
    expect(await devicesOf(ann.id)).toHaveLength(1)
    expect((await (await as(ann))('DELETE', 'v1/notifications/register-device', { endpoint: subscription.endpoint })).status).toBe(204)
    expect(await devicesOf(ann.id)).toEqual([])
  })

  it('tells the browser the key to subscribe with', async () => {
    const response = await (await as(await createUser(database.db)))('GET', 'v1/notifications/push-key')
    expect(response.json).toEqual({ public_key: vapid.publicKey })
  })
})

describe('sending a push', () => {
  it('reaches every browser of the member, signed with our key, decrypted to the exact payload', async () => {
    const { user, subscription } = await memberWithBrowser()
    const second = endpoint.subscribe()
    await (await as(user))('PUT', 'v1/notifications/register-device', second)
    const queued = await database.db.transaction().execute((trx) => queuePush(queue, trx, user.id, payloadFor(user.id)))
    expect(queued).toBe(2)
    await expect.poll(() => endpoint.received.filter((push) => JSON.parse(push.payload).tag === user.id).length, { timeout: 15_000, interval: 200 }).toBe(2)
    const pushes = endpoint.received.filter((push) => JSON.parse(push.payload).tag === user.id)
    expect(pushes.map((push) => push.endpoint).sort()).toEqual([subscription.endpoint, second.endpoint].sort())
    for (const push of pushes) {
      expect(JSON.parse(push.payload)).toEqual(payloadFor(user.id))
      expect(push).toMatchObject({ ttl: '86400', urgency: 'normal', vapidKey: vapid.publicKey })
    }
    expect(endpoint.refused).toEqual([])
  })

  it('queues nothing when the transaction rolls back, or when the member has no browser', async () => {
    const { user } = await memberWithBrowser()
    await expect(
      database.db.transaction().execute(async (trx) => {
        await queuePush(queue, trx, user.id, payloadFor(user.id))
        throw new Error('the notification was not recorded')
      }),
    ).rejects.toThrow('the notification was not recorded')
    expect(await pushJobStates(user.id)).toEqual([])
    const lonely = await createUser(database.db)
    expect(await database.db.transaction().execute((trx) => queuePush(queue, trx, lonely.id, payloadFor(lonely.id)))).toBe(0)
  })

  it('removes a browser whose subscription has expired (410 Gone), and the job completes', async () => {
    const { user } = await memberWithBrowser()
    endpoint.answer(410)
    try {
      await database.db.transaction().execute((trx) => queuePush(queue, trx, user.id, payloadFor(user.id)))
      await expect.poll(() => devicesOf(user.id), { timeout: 15_000, interval: 200 }).toEqual([])
      await expect.poll(() => pushJobStates(user.id), { timeout: 15_000, interval: 200 }).toEqual(['completed'])
    } finally {
      endpoint.answer(201)
    }
  })

  it('removes a browser the push service does not know (404)', async () => {
    const { user } = await memberWithBrowser()
    const [device] = await database.db.selectFrom('devices').select('id').where('user_id', '=', user.id).execute()
    endpoint.answer(404)
    try {
      expect(await deliverPush({ db: database.db, vapid, logger }, { device_id: device!.id, payload: payloadFor(user.id) })).toBe('expired')
    } finally {
      endpoint.answer(201)
    }
    expect(await devicesOf(user.id)).toEqual([])
  })

  it('keeps the browser when the push service fails (500), and the job fails to be retried', async () => {
    const { user } = await memberWithBrowser()
    const [device] = await database.db.selectFrom('devices').select('id').where('user_id', '=', user.id).execute()
    endpoint.answer(500)
    try {
      await expect(deliverPush({ db: database.db, vapid, logger }, { device_id: device!.id, payload: payloadFor(user.id) })).rejects.toThrow('500')
      await database.db.transaction().execute((trx) => queuePush(queue, trx, user.id, payloadFor(user.id)))
      await expect.poll(() => pushJobStates(user.id), { timeout: 15_000, interval: 200 }).toEqual(['retry'])
    } finally {
      endpoint.answer(201)
    }
    expect(await devicesOf(user.id)).toHaveLength(1)
  })

  it('skips a browser unregistered after the push was queued', async () => {
    expect(await deliverPush({ db: database.db, vapid, logger }, { device_id: crypto.randomUUID(), payload: payloadFor('x') })).toBe('unregistered')
  })
})

describe('one member’s browsers never delay another member’s pushes (issue 29 §5)', () => {
  it('delivers a member’s push within seconds while another member’s many browsers never answer', async () => {
    const mallory = await createUser(database.db)
    const call = await as(mallory)
    // Twelve browsers asked for, ten kept; eight of them never answer.
    const browsers = [...Array.from({ length: 8 }, () => endpoint.subscribe({ hang: true })), ...Array.from({ length: 4 }, () => endpoint.subscribe())]
    for (const browser of browsers) expect((await call('PUT', 'v1/notifications/register-device', browser)).status).toBe(200)
    for (let n = 0; n < 3; n++) await database.db.transaction().execute((trx) => queuePush(queue, trx, mallory.id, payloadFor(mallory.id)))

    const { user: ann, subscription } = await memberWithBrowser()
    const queuedAt = Date.now()
    await database.db.transaction().execute((trx) => queuePush(queue, trx, ann.id, payloadFor(ann.id)))
    await expect.poll(() => endpoint.received.some((push) => push.endpoint === subscription.endpoint), { timeout: 10_000, interval: 100 }).toBe(true)
    expect(Date.now() - queuedAt).toBeLessThan(10_000)
    // Each browser that hangs was tried once, gave up on after a few seconds, and now backs off: no
    // worker waits on it again meanwhile.
    const failing = () => database.db.selectFrom('devices').select(['failures', 'retry_after']).where('user_id', '=', mallory.id).where('failures', '>', 0).execute()
    await expect.poll(async () => (await failing()).length, { timeout: 15_000, interval: 200 }).toBe(6)
    for (const device of await failing()) expect(device.retry_after!.getTime()).toBeGreaterThan(Date.now())
    expect(browsers.slice(2, 8).map((browser) => endpoint.hits(browser.endpoint))).toEqual([1, 1, 1, 1, 1, 1])
  })
})

describe('a browser whose push service fails', () => {
  const deps = () => ({ db: database.db, vapid, logger })
  async function deviceOf(userId: string) {
    return database.db.selectFrom('devices').select(['id', 'token', 'failures', 'retry_after']).where('user_id', '=', userId).executeTakeFirstOrThrow()
  }

  it('backs off: no push is tried there until its backoff ends, then the next one goes and the count starts over', async () => {
    const { user, subscription } = await memberWithBrowser()
    const device = await deviceOf(user.id)
    endpoint.answer(500)
    try {
      await expect(deliverPush(deps(), { device_id: device.id, payload: payloadFor(user.id) })).rejects.toThrow('500')
    } finally {
      endpoint.answer(201)
    }
    expect(endpoint.hits(subscription.endpoint)).toBe(1)
    const failed = await deviceOf(user.id)
    expect(failed.failures).toBe(1)
    expect(failed.retry_after!.getTime()).toBeGreaterThan(Date.now() + 20_000)
    // Within the backoff: not sent (the job is retried later), the push service is not called.
    await expect(deliverPush(deps(), { device_id: device.id, payload: payloadFor(user.id) })).rejects.toBeInstanceOf(PushDeferred)
    expect(endpoint.hits(subscription.endpoint)).toBe(1)
    // The backoff over, the push goes.
    await database.db.updateTable('devices').set({ retry_after: new Date(Date.now() - 1_000) }).where('id', '=', device.id).execute()
    expect(await deliverPush(deps(), { device_id: device.id, payload: payloadFor(user.id) })).toBe('sent')
    expect(await deviceOf(user.id)).toMatchObject({ failures: 0, retry_after: null })
  })

  it(`forgets the browser after ${PUSH_FAILURE_LIMIT} failures in a row`, async () => {
    const { user } = await memberWithBrowser()
    const device = await deviceOf(user.id)
    await database.db.updateTable('devices').set({ failures: PUSH_FAILURE_LIMIT - 1 }).where('id', '=', device.id).execute()
    endpoint.answer(500)
    try {
      expect(await deliverPush(deps(), { device_id: device.id, payload: payloadFor(user.id) })).toBe('dropped')
    } finally {
      endpoint.answer(201)
    }
    expect(await devicesOf(user.id)).toEqual([])
  })

  it('in production, never calls a stored endpoint that is not a browser push service, and forgets it', async () => {
    const user = await createUser(database.db)
    // Stored before the allowlist existed (or by a copy of the database): registration would refuse it now.
    const local = endpoint.subscribe()
    await database.db.insertInto('devices').values({ user_id: user.id, kind: 'web_push', token: local.endpoint, keys: JSON.stringify(local.keys) }).execute()
    const device = await deviceOf(user.id)
    expect(await deliverPush({ ...deps(), production: true }, { device_id: device.id, payload: payloadFor(user.id) })).toBe('refused')
    expect(endpoint.hits(local.endpoint)).toBe(0)
    expect(await devicesOf(user.id)).toEqual([])
  })
})

describe('VAPID keys', () => {
  it('are generated once and kept, so a second start signs with the same key', async () => {
    const again = await loadVapidKeys(database.db, api.env)
    expect(again).toEqual(vapid)
    expect(Buffer.from(vapid.publicKey, 'base64url')).toHaveLength(65)
    expect(vapid.subject).toBe(`mailto:${api.env.SUPPORT_EMAIL}`)
  })

  it('come from the environment when set, with its subject', async () => {
    const configured = webPush.generateVAPIDKeys()
    const keys = await loadVapidKeys(
      database.db,
      parseEnv({ NODE_ENV: 'test', VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey, PUBLIC_URL: 'https://circle55.example' }),
    )
    expect(keys).toEqual({ ...configured, subject: 'https://circle55.example' })
  })
})
