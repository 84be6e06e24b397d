import { tmpdir } from 'node:os'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { chatEventsFor } from '#api/chat/queries.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createLogger } from '#api/logger.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createRealtimeHub, type HubSignal, type RealtimeHub } from './hub.ts'

/** The realtime hub (decision 032): one LISTEN connection, fanned out to the members who read the message. */

let database: TestDatabase
let api: ApiHarness
let hub: RealtimeHub
/** The batches `prepare` was asked for (their sizes), and a gate that holds it back while set. */
const batches: number[] = []
let gate: Promise<void> | null = null

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  hub = await createRealtimeHub({
    connectionString: database.url,
    logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
    prepare: async (events, memberIds) => {
      batches.push(events.length)
      await gate
      return chatEventsFor(database.db, createLocalStorage(tmpdir()), events, memberIds)
    },
    backoff: { initialMs: 20, maxMs: 200 },
  })
})

afterAll(async () => {
  await hub?.close()
  await database?.drop()
})

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

/** A direct channel between two new members; the third is in none. */
async function pair() {
  const [ann, bob, eve] = await Promise.all([createUser(database.db), createUser(database.db), createUser(database.db)])
  const channel = await as(ann, 'POST', 'users/message-channels', { user_id: bob.id })
  return { ann, bob, eve, channelId: channel.json.data[0].id as string }
}

function record(memberId: string) {
  const signals: HubSignal[] = []
  // Chat signals only: a message also records a notification, whose signal has its own test (api/chat/events.test.ts).
  const unsubscribe = hub.subscribe(memberId, (signal) => signal.type !== 'notifications' && signals.push(signal))
  return { signals, unsubscribe }
}

async function send(user: User, channelId: string, text: string) {
  const response = await as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
  expect(response.status).toBe(201)
  return response.json.data[0].id as string
}

describe('the realtime hub', () => {
  it('tells the members who read the channel, in one query, and nobody else', async () => {
    const { ann, bob, eve, channelId } = await pair()
    const [toAnn, toBob, toEve] = [record(ann.id), record(bob.id), record(eve.id)]
    const before = batches.length
    const messageId = await send(ann, channelId, 'Hello Bob')
    await expect.poll(() => toBob.signals.length).toBe(1)
    expect(toBob.signals[0]).toMatchObject({ type: 'message', event: { channel_id: channelId, message_id: messageId, seq: expect.any(Number) } })
    await expect.poll(() => toAnn.signals.length).toBe(1)
    expect(batches.length - before).toBe(1)
    expect(toBob.signals[0]).toMatchObject({ loaded: { row: { id: messageId, body: 'Hello Bob' } } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(toEve.signals).toEqual([])
    for (const subscription of [toAnn, toBob, toEve]) subscription.unsubscribe()
    expect(hub.subscriptions(ann.id)).toBe(0)
  })

  it('asks nothing when no member is connected', async () => {
    const { ann, channelId } = await pair()
    const before = batches.length
    await send(ann, channelId, 'Anyone there?')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(batches.length).toBe(before)
  })

  it('prepares what came while it was busy in fewer, larger queries, and tells it in order', async () => {
    const { ann, bob, channelId } = await pair()
    expect((await as(bob, 'POST', `v1/chat/message-channels/${channelId}/accept`)).status).toBe(200)
    const toBob = record(bob.id)
    let open!: () => void
    gate = new Promise((resolve) => (open = resolve))
    const before = batches.length
    const sent: string[] = []
    for (const text of ['One', 'Two', 'Three', 'Four']) sent.push(await send(ann, channelId, text))
    // The first is being prepared (held at the gate); the others come meanwhile.
    await expect.poll(() => batches.length - before).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 200))
    gate = null
    open()
    await expect.poll(() => toBob.signals.length).toBe(4)
    const sizes = batches.slice(before)
    expect(sizes[0]).toBe(1)
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(4)
    expect(sizes.length).toBeLessThan(4)
    expect(toBob.signals.map((signal) => signal.type === 'message' && signal.event.message_id)).toEqual(sent)
    const seqs = toBob.signals.map((signal) => (signal.type === 'message' ? signal.event.seq : 0))
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    toBob.unsubscribe()
  })

  it('reconnects when its connection drops, then tells every subscriber to resync, and listens again', async () => {
    const { ann, bob, channelId } = await pair()
    const toBob = record(bob.id)
    expect(hub.listening).toBe(true)
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'circle55-realtime'`.execute(database.db)
    await expect.poll(() => toBob.signals.some((signal) => signal.type === 'resync'), { timeout: 5_000 }).toBe(true)
    expect(hub.listening).toBe(true)
    await send(ann, channelId, 'Still there?')
    await expect.poll(() => toBob.signals.some((signal) => signal.type === 'message'), { timeout: 5_000 }).toBe(true)
    toBob.unsubscribe()
  })

  it('makes every subscriber resync on a payload it cannot read', async () => {
    const someone = await createUser(database.db)
    const subscription = record(someone.id)
    await sql`SELECT pg_notify('chat', 'not json')`.execute(database.db)
    await expect.poll(() => subscription.signals).toEqual([{ type: 'resync' }])
    subscription.unsubscribe()
  })
})
