import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createLogger } from '#api/logger.ts'
import { createRealtimeHub, type RealtimeHub } from '#api/realtime/hub.ts'
import type { Channel, ChannelWithMessages, ChatMessageEvent } from '#contract/chat.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { dataOf, readSse, type SseEvent, type SseReader } from '#tests/sse.ts'
import { chatEventsFor } from './queries.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'

/** `GET v1/chat/events` (issue 14 §2, decision 032): live messages, unread totals, exact resume. */

let database: TestDatabase
let hub: RealtimeHub
let api: ApiHarness
const open = new Set<SseReader>()

beforeAll(async () => {
  database = await createTestDatabase()
  hub = await createRealtimeHub({
    connectionString: database.url,
    logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
    // As the runtime does: the message read once and handed to up-to-date streams.
    prepare: (events, memberIds) => chatEventsFor(database.db, createLocalStorage(tmpdir()), events, memberIds),
  })
  api = await createApiHarness(database.db, {}, { realtime: hub })
})

afterAll(async () => {
  await Promise.all([...open].map((reader) => reader.close()))
  await hub?.close()
  await database?.drop()
})

const DAY = 86_400_000

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

async function activityChat() {
  const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  const guest = await member({ first_name: 'Margaret', last_name: 'Hughes' })
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * DAY), max_attendees: 10 })
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
  const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
  const channelId = (joined.json.data[0] as Channel).id
  expect((await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
  return { host, guest, experience, channelId }
}

async function send(user: User, channelId: string, text: string) {
  const response = await as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
  expect(response.status).toBe(201)
  return response.json.data[0] as { id: string }
}

async function connect(user: User, options: { lastEventId?: string; query?: string } = {}) {
  const headers = new Headers({ authorization: `Bearer ${await api.signToken(user.id)}` })
  if (options.lastEventId !== undefined) headers.set('last-event-id', options.lastEventId)
  const response = await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/v1/chat/events${options.query ?? ''}`, { headers }))
  expect(response.status).toBe(200)
  const reader = readSse(response.body!)
  open.add(reader)
  const ready = await reader.next((event) => event.event === 'ready')
  return { response, reader, ready }
}

async function close(reader: SseReader) {
  await reader.close()
  open.delete(reader)
}

/** The first `unread` event after `event`. */
function unreadAfter(reader: SseReader, event: SseEvent) {
  return reader.next((entry) => entry.event === 'unread' && reader.events.indexOf(entry) > reader.events.indexOf(event))
}

const messageIds = (reader: SseReader) => dataOf<ChatMessageEvent>(reader, 'message').map((event) => event.message_id)

describe('GET v1/chat/events', () => {
  it('streams with the SSE headers, a retry delay and a first event that sets the last event id', async () => {
    const someone = await member()
    const { response, reader, ready } = await connect(someone)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform')
    expect(response.headers.get('x-accel-buffering')).toBe('no')
    expect(ready.id).toMatch(/^\d+$/)
    expect(JSON.parse(ready.data)).toEqual({ seq: Number(ready.id) })
    expect(hub.subscriptions(someone.id)).toBe(1)
    await close(reader)
    // The client went away: its subscription ends with it.
    expect(hub.subscriptions(someone.id)).toBe(0)
  })

  it('is refused without a token; once=true answers what is pending and ends', async () => {
    expect((await api.request('GET', 'v1/chat/events')).status).toBe(401)
    expect((await api.request('GET', 'v1/chat/events?once=maybe', { token: await api.signToken((await member()).id) })).status).toBe(422)
    const { reader } = await connect(await member(), { query: '?once=true' })
    await reader.ended
    open.delete(reader)
  })

  it('delivers a message posted through the API to those who read the channel, as the channel shows it, with the unread total', async () => {
    const { host, guest, channelId } = await activityChat()
    const stranger = await member()
    const hostStream = await connect(host)
    const guestStream = await connect(guest)
    const strangerStream = await connect(stranger)

    const sent = await send(guest, channelId, 'See you at the bridge!')
    const event = await hostStream.reader.next((entry) => entry.event === 'message')
    const data = JSON.parse(event.data) as ChatMessageEvent
    expect(data).toMatchObject({ channel_id: channelId, message_id: sent.id })
    expect(event.id).toBe(String(data.seq))
    // The same message, sender and privacy shape as GET message-channels/{id}.
    const channel = (await as(host, 'GET', `message-channels/${channelId}`)).json.data[0] as ChannelWithMessages
    expect(data.message).toEqual(channel.messages.at(-1))
    // Each stream says the unread total when it opens, then after each batch of messages.
    const unread = await unreadAfter(hostStream.reader, event)
    expect(JSON.parse(unread.data)).toEqual({ total_unread: 1 })

    // The sender's other tabs get it too, with nothing unread.
    const echo = await guestStream.reader.next((entry) => entry.event === 'message')
    expect(JSON.parse((await unreadAfter(guestStream.reader, echo)).data)).toEqual({ total_unread: 0 })

    // A member who is not in the channel is told nothing (a later message of their own proves the stream is live).
    const other = await member()
    const direct = await as(stranger, 'POST', 'users/message-channels', { user_id: other.id })
    const own = await send(stranger, direct.json.data[0].id, 'Hello')
    await strangerStream.reader.next((entry) => entry.event === 'message')
    expect(messageIds(strangerStream.reader)).toEqual([own.id])

    for (const stream of [hostStream, guestStream, strangerStream]) await close(stream.reader)
  })

  it('tells the member’s streams their unread notifications’ total when a notification is recorded, and nobody else’s (decision 047)', async () => {
    const { host, guest, channelId } = await activityChat()
    const hostStream = await connect(host)
    const guestStream = await connect(guest)
    // The guest's message records `message.new` for the host: the Notifications badge goes live.
    await send(guest, channelId, 'Is there parking?')
    const told = await hostStream.reader.next((entry) => entry.event === 'notifications')
    expect(JSON.parse(told.data)).toEqual({ total_unread: 1 })
    expect(told.id).toBeUndefined()
    await guestStream.reader.next((entry) => entry.event === 'message')
    expect(guestStream.reader.events.some((entry) => entry.event === 'notifications')).toBe(false)
    for (const stream of [hostStream, guestStream]) await close(stream.reader)
  })

  it('resumes from Last-Event-ID with exactly what was missed, in order, then live, without duplicates', async () => {
    const { host, guest, channelId } = await activityChat()
    const first = await connect(host)
    const one = await send(guest, channelId, 'One')
    const seen = await first.reader.next((entry) => entry.event === 'message')
    await close(first.reader)

    // Missed while away: two messages here, one in a chat the host is not in.
    const two = await send(guest, channelId, 'Two')
    const elsewhere = await activityChat()
    await send(elsewhere.guest, elsewhere.channelId, 'Not for Walter')
    const three = await send(guest, channelId, 'Three')

    const again = await connect(host, { lastEventId: seen.id! })
    expect(again.ready.id).toBe(seen.id)
    await again.reader.next((entry) => entry.event === 'message' && JSON.parse(entry.data).message_id === three.id)
    const four = await send(guest, channelId, 'Four')
    await again.reader.next((entry) => entry.event === 'message' && JSON.parse(entry.data).message_id === four.id)
    // A message arriving live during the replay would be sent once: wait for anything extra.
    await new Promise((resolve) => setTimeout(resolve, 200))

    expect(messageIds(again.reader)).toEqual([two.id, three.id, four.id])
    expect(messageIds(again.reader)).not.toContain(one.id)
    const ids = again.reader.events.filter((entry) => entry.event === 'message').map((entry) => Number(entry.id))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
    await close(again.reader)
  })

  it('hands over live messages sent at once in several chats: each stream gets exactly its own, once, in order', async () => {
    const here = await activityChat()
    const there = await activityChat()
    const hostStream = await connect(here.host)
    const sends = Array.from({ length: 12 }, (_, n) =>
      n % 3 === 0 ? send(there.guest, there.channelId, `Elsewhere ${n}`) : send(here.guest, here.channelId, `Here ${n}`),
    )
    const sent = await Promise.all(sends)
    const mine = sent.filter((_, n) => n % 3 !== 0).map((message) => message.id)
    await hostStream.reader.next((entry) => entry.event === 'message' && messageIds(hostStream.reader).length === mine.length)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(new Set(messageIds(hostStream.reader))).toEqual(new Set(mine))
    expect(messageIds(hostStream.reader)).toHaveLength(mine.length)
    const ids = hostStream.reader.events.filter((entry) => entry.event === 'message').map((entry) => Number(entry.id))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    // The unread total follows: 8 messages from the guest.
    const last = hostStream.reader.events.filter((entry) => entry.event === 'unread').at(-1)
    expect(JSON.parse(last?.data ?? '{}')).toEqual({ total_unread: 8 })
    await close(hostStream.reader)
  })

  it('replays by the read rules: no messages of banned members, nothing after a former attendee left', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    const troll = await member()
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: troll.id }).execute()
    expect((await as(troll, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
    const start = await connect(guest)
    await close(start.reader)

    const kept = await send(host, channelId, 'Welcome')
    await send(troll, channelId, 'Buy my gift cards')
    await database.db.updateTable('users').set({ banned: true }).where('id', '=', troll.id).execute()
    const replay = await connect(guest, { lastEventId: start.ready.id! })
    await replay.reader.next((entry) => entry.event === 'unread')
    expect(messageIds(replay.reader)).toEqual([kept.id])
    await close(replay.reader)

    // The guest gives up their seat: they keep what was posted until now, nothing after.
    await database.db.deleteFrom('experience_attendees').where('experience_id', '=', experience.id).where('user_id', '=', guest.id).execute()
    await database.db.updateTable('channel_memberships').set({ left_at: new Date() }).where('channel_id', '=', channelId).where('user_id', '=', guest.id).execute()
    await send(host, channelId, 'After you left')
    const after = await connect(guest, { lastEventId: start.ready.id!, query: '?once=true' })
    await after.reader.ended
    open.delete(after.reader)
    expect(messageIds(after.reader)).toEqual([kept.id])
  })

  it('ignores a Last-Event-ID it did not set, and limits the streams one member holds open', async () => {
    const someone = await member()
    const fresh = await connect(someone, { lastEventId: 'abc' })
    expect(fresh.ready.id).toMatch(/^\d+$/)
    const more: SseReader[] = [fresh.reader]
    for (let index = 1; index < 10; index++) more.push((await connect(someone)).reader)
    const refused = await api.request('GET', 'v1/chat/events', { token: await api.signToken(someone.id) })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('too_many_streams')
    for (const reader of more) await close(reader)
  })

  it('ends its streams when the hub closes', async () => {
    const someone = await member()
    const local = await createRealtimeHub({
      connectionString: database.url,
      logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
      prepare: async (events) => events.map(() => ({ readers: [], loaded: null })),
    })
    const localApi = await createApiHarness(database.db, {}, { realtime: local })
    const response = await localApi.app.fetch(
      new Request(`${localApi.env.PUBLIC_URL}/api/v1/chat/events`, { headers: { authorization: `Bearer ${await localApi.signToken(someone.id)}` } }),
    )
    const reader = readSse(response.body!)
    await reader.next((entry) => entry.event === 'ready')
    await local.close()
    await reader.ended
  })
})
