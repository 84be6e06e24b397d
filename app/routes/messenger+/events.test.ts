import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatEventsFor } from '#api/chat/queries.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createLogger } from '#api/logger.ts'
import { createRealtimeHub, type RealtimeHub } from '#api/realtime/hub.ts'
import type { ChatMessageEvent } from '#contract/chat.ts'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { readSse, type SseReader } from '#tests/sse.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import { loader } from './events.ts'

/** `/messenger/events` (issue 14 §2, decision 032): the API's live stream passed on by the web tier. */

let database: TestDatabase
let hub: RealtimeHub
let api: ApiHarness
let services: WebServices
const readers = new Set<SseReader>()

beforeAll(async () => {
  database = await createTestDatabase()
  hub = await createRealtimeHub({
    connectionString: database.url,
    logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
    prepare: (events, memberIds) => chatEventsFor(database.db, createLocalStorage(tmpdir()), events, memberIds),
  })
  api = await createApiHarness(database.db, {}, { realtime: hub })
  services = testWebServices(api, database.db)
})

afterAll(async () => {
  await Promise.all([...readers].map((reader) => reader.close()))
  await hub?.close()
  await database?.drop()
})

async function open(cookie: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const request = new Request(`${TEST_PUBLIC_URL}/messenger/events`, { headers: { cookie, ...headers }, signal })
  return loader({ request, context: testContext(services), params: {} })
}

describe('/messenger/events', () => {
  it('sends a signed-out browser to sign in', async () => {
    const answer = await open('').catch((thrown: unknown) => thrown)
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(302)
    expect((answer as Response).headers.get('location')).toBe('/login?returnTo=%2Fmessenger%2Fevents')
  })

  it('passes the member’s live stream on, with Last-Event-ID, and ends the API’s stream when the browser goes away', async () => {
    const [ann, bob] = await Promise.all([createUser(database.db), createUser(database.db)])
    const cookie = await sessionCookie(api, services, bob.id)
    const browser = new AbortController()
    const response = await open(cookie, {}, browser.signal)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('private, no-store, no-transform')
    const reader = readSse(response.body!)
    readers.add(reader)
    const ready = await reader.next((event) => event.event === 'ready')
    expect(hub.subscriptions(bob.id)).toBe(1)

    const token = await api.signToken(ann.id)
    const channel = await api.request('POST', 'users/message-channels', { token, body: { user_id: bob.id } })
    const sent = await api.request('POST', `v1/chat/message-channels/${channel.json.data[0].id}/messages`, { token, body: { text: 'Hello Bob' } })
    const event = await reader.next((entry) => entry.event === 'message')
    expect((JSON.parse(event.data) as ChatMessageEvent).message_id).toBe(sent.json.data[0].id)

    browser.abort()
    await reader.ended
    readers.delete(reader)
    await expect.poll(() => hub.subscriptions(bob.id)).toBe(0)

    // Back, with the id the browser last had: what was missed, and nothing twice.
    const missed = await api.request('POST', `v1/chat/message-channels/${channel.json.data[0].id}/messages`, { token, body: { text: 'Still there?' } })
    const again = readSse((await open(cookie, { 'last-event-id': event.id! })).body!)
    readers.add(again)
    await again.next((entry) => entry.event === 'unread')
    const replayed = again.events.filter((entry) => entry.event === 'message').map((entry) => (JSON.parse(entry.data) as ChatMessageEvent).message_id)
    expect(replayed).toEqual([missed.json.data[0].id])
    expect(Number(ready.id)).toBeLessThan(Number(event.id))
  })

  it('asks the browser to come back later when the API cannot stream now', async () => {
    // An API without a hub answers 503: the browser gets an empty stream that sets a long retry.
    const alone = await createApiHarness(database.db)
    const servicesAlone = testWebServices(alone, database.db)
    const member = await createUser(database.db)
    const request = new Request(`${TEST_PUBLIC_URL}/messenger/events`, { headers: { cookie: await sessionCookie(alone, servicesAlone, member.id) } })
    const response = await loader({ request, context: testContext(servicesAlone), params: {} })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('retry: 15000\n\n')
  })
})
