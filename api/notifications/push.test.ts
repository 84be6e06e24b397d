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
import { PUSH_DELIVERY_JOB, deliverPush, isPushService, queuePush, registerDevice, startPushDelivery } from './push.ts'

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
  await startPushDelivery({ db: database.db, queue, logger, vapid })
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

  it('moves an endpoint registered again by another member to them (a shared computer)', async () => {
    const { user: ann, subscription } = await memberWithBrowser()
    const bob = await createUser(database.db)
    expect((await (await as(bob))('PUT', 'v1/notifications/register-device', subscription)).status).toBe(200)
    expect(await devicesOf(ann.id)).toEqual([])
    expect((await devicesOf(bob.id)).map((device) => device.token)).toEqual([subscription.endpoint])
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
