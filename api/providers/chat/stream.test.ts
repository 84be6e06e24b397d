import { jwtVerify } from 'jose'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CHAT_MIRROR_JOB, chatMirrorJob } from '#api/chat/mirror.ts'
import type { NewUser, User } from '#api/db/schema.ts'
import { ConfigError, parseEnv } from '#api/env.ts'
import { liftEndedSuspensions } from '#api/moderation/service.ts'
import { createChatProvider } from '#api/providers.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { STREAM_TEST_BASE_URL, streamHandlers } from '#tests/msw/stream.ts'
import type { ChatChange } from './provider.ts'
import { streamBrowserOrigins } from './stream.ts'

/**
 * Stream as the chat service (issue 14 §3, decision 036), against msw handlers written from
 * Stream's REST API: what Stream receives when members join, write, leave, cancel and block, the
 * member's token, and that a Stream outage loses no message (the mirror is queued and retried).
 */
const apiKey = 'stream_test_key'
const apiSecret = 'stream_test_secret_that_is_long_enough'
const streamEnv = { STREAM_API_KEY: apiKey, STREAM_API_SECRET: apiSecret, STREAM_BASE_URL: STREAM_TEST_BASE_URL }
const stream = streamHandlers({ apiKey, apiSecret })
const server = setupServer(...stream.handlers)

let database: TestDatabase
let api: ApiHarness
let builtin: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, streamEnv)
  builtin = await createApiHarness(database.db)
})
beforeEach(() => stream.reset())
afterEach(() => server.resetHandlers())
afterAll(async () => {
  server.close()
  await database?.drop()
})

const DAY = 86_400_000

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown, harness = api) {
  return harness.request(method, path, { token: await harness.signToken(user.id), body })
}

async function seat(experienceId: string, user: User) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: user.id }).execute()
}

/** An activity with its host and one attendee, both in its chat. */
async function activityChat() {
  const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  const guest = await member({ first_name: 'Margaret', last_name: 'Hughes' })
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * DAY), max_attendees: 10 })
  await seat(experience.id, guest)
  const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
  expect(joined.status).toBe(200)
  expect((await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
  return { host, guest, experience, channelId: joined.json.data[0].id as string }
}

const requestsTo = (method: string, path: string) => stream.requests.filter((request) => request.method === method && request.path === path)
const membersOf = (channelId: string) => [...(stream.channels.get(`messaging:${channelId}`)?.members ?? [])].sort()

describe('choosing the chat service', () => {
  it('is the built-in service unless both Stream variables are set, which must come together', () => {
    expect(createChatProvider(parseEnv({ NODE_ENV: 'test' }), database.db).name).toBe('builtin')
    expect(createChatProvider(parseEnv({ NODE_ENV: 'test', ...streamEnv }), database.db)).toMatchObject({ name: 'stream', publicKey: apiKey })
    expect(() => parseEnv({ NODE_ENV: 'test', STREAM_API_KEY: apiKey })).toThrow(ConfigError)
    expect(() => parseEnv({ NODE_ENV: 'test', STREAM_API_SECRET: apiSecret })).toThrow(/STREAM_API_KEY and STREAM_API_SECRET must be set together/)
    expect(parseEnv({ NODE_ENV: 'test' }).STREAM_BASE_URL).toBe('https://chat.stream-io-api.com')
  })

  it('lets the browser reach Stream over HTTPS and its WebSocket (the CSP’s connect-src)', () => {
    expect(streamBrowserOrigins('https://chat.stream-io-api.com')).toEqual(['https://chat.stream-io-api.com', 'wss://chat.stream-io-api.com'])
  })
})

describe('v1/users/me', () => {
  it('has no stream_token with the built-in service', async () => {
    const user = await member()
    const me = await as(user, 'GET', 'v1/users/me', undefined, builtin)
    expect(me.json.data[0].stream_token).toBeNull()
  })

  it('has a stream_token signed with the secret for the member’s stream_id, valid for a day', async () => {
    const user = await member()
    const me = await as(user, 'GET', 'v1/users/me')
    expect(me.status).toBe(200)
    const token = me.json.data[0].stream_token as string
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(apiSecret))
    expect(protectedHeader.alg).toBe('HS256')
    expect(payload.user_id).toBe(user.stream_id)
    expect(payload.user_id).not.toBe(user.id)
    expect(payload.exp! - payload.iat!).toBe(86_400)
    await expect(jwtVerify(token, new TextEncoder().encode('another secret'))).rejects.toThrow()
    // Nothing is asked of Stream to make a token.
    expect(stream.requests).toEqual([])
  })
})

describe('mirroring to Stream', () => {
  it('creates the activity’s channel with its members as Stream users, with server authentication', async () => {
    const { host, guest, channelId } = await activityChat()
    const upsert = requestsTo('POST', '/users').at(-1)!
    expect(Object.keys(upsert.body.users).sort()).toEqual(['circle55', guest.stream_id, host.stream_id].sort())
    expect(upsert.body.users[guest.stream_id]).toMatchObject({ id: guest.stream_id, name: 'Margaret H.' })
    const create = requestsTo('POST', `/channels/messaging/${channelId}/query`)[0]!
    expect(create.body.data).toMatchObject({ created_by_id: 'circle55', members: [host.stream_id], name: 'Riverside walk' })
    expect(membersOf(channelId)).toEqual([guest.stream_id, host.stream_id].sort())
    // Every request: the key as a query parameter, a server JWT signed with the secret.
    for (const request of stream.requests) {
      expect(request.query.get('api_key')).toBe(apiKey)
      expect(request.headers.get('stream-auth-type')).toBe('jwt')
      const { payload } = await jwtVerify(request.headers.get('authorization')!, new TextEncoder().encode(apiSecret))
      expect(payload).toMatchObject({ server: true })
    }
  })

  it('creates a new activity’s group with its host in it, before anyone presses "Group chat" (issue 29 §3)', async () => {
    const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
    const startDate = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10)
    const created = await as(host, 'POST', 'v1/experiences', { title: 'Book club', start_date: startDate, start_time: '10:00', venue_type: 'online', url: 'https://meet.example.com/books' })
    expect(created.status).toBe(201)
    const experienceId = created.json.data[0].id as string
    const group = await database.db.selectFrom('message_channels').select('id').where('experience_id', '=', experienceId).executeTakeFirstOrThrow()
    expect(membersOf(group.id)).toEqual([host.stream_id])
    // An attendee who opens the group joins the host there.
    const guest = await member()
    expect((await as(guest, 'POST', `v1/experiences/${experienceId}/attendees`, { user_id: guest.id })).status).toBe(200)
    expect((await as(guest, 'PUT', `experiences/${experienceId}/message-channels/join`)).status).toBe(200)
    expect(membersOf(group.id)).toEqual([guest.stream_id, host.stream_id].sort())
  })

  it('sends a message through the server with our id and the sender’s stream_id, without Stream’s push', async () => {
    const { guest, channelId } = await activityChat()
    const sent = await as(guest, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'See you at the bridge at ten.' })
    expect(sent.status).toBe(201)
    const id = sent.json.data[0].id as string
    const request = requestsTo('POST', `/channels/messaging/${channelId}/message`).at(-1)!
    expect(request.body).toMatchObject({ message: { id, text: 'See you at the bridge at ten.', user_id: guest.stream_id }, skip_push: true })
    expect(stream.messages.get(id)).toMatchObject({ cid: `messaging:${channelId}`, user_id: guest.stream_id })
  })

  it('sends the product’s messages too: a host’s cancellation says so in the activity’s chat at Stream, from Circle 55 (decision 072)', async () => {
    const { host, channelId, experience } = await activityChat()
    expect((await as(host, 'DELETE', `v1/experiences/${experience.id}`)).status).toBe(204)
    const said = [...stream.messages.values()].filter((message) => message.cid === `messaging:${channelId}`)
    expect(said).toEqual([expect.objectContaining({ user_id: 'circle55', text: 'The host canceled this activity.' })])
  })

  it('sends nothing to Stream when the chat refuses a message (the rules stay the server’s)', async () => {
    const sender = await member()
    const recipient = await member()
    const opened = await as(sender, 'POST', 'users/message-channels', { user_id: recipient.id })
    const channelId = opened.json.data[0].id as string
    // The recipient is in Stream's channel from the request on (the Stream page shows it as a request too).
    expect(membersOf(channelId)).toEqual([recipient.stream_id, sender.stream_id].sort())
    for (const text of ['Hello!', 'Are you there?']) expect((await as(sender, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })).status).toBe(201)
    const before = stream.requests.length
    const third = await as(sender, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Hello again?' })
    expect(third.status).toBe(409)
    expect(stream.requests.length).toBe(before)
  })

  it('removes a member who leaves, and an attendee who cancels their seat', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    expect((await as(host, 'DELETE', `users/message-channels/${channelId}/leave`)).status).toBe(204)
    expect(requestsTo('POST', `/channels/messaging/${channelId}`).some((request) => request.body.remove_members?.includes(host.stream_id))).toBe(true)
    expect(membersOf(channelId)).toEqual([guest.stream_id])
    expect((await as(guest, 'DELETE', `v1/experiences/${experience.id}/attendees/${guest.id}`)).status).toBe(200)
    expect(membersOf(channelId)).toEqual([])
  })

  it('mirrors a block to Stream and closes the pair’s direct channel; unblocking opens it again', async () => {
    const ann = await member()
    const bob = await member()
    const opened = await as(ann, 'POST', 'users/message-channels', { user_id: bob.id })
    const channelId = opened.json.data[0].id as string
    expect((await as(bob, 'PUT', `v1/block/${ann.id}`)).status).toBe(200)
    expect(requestsTo('POST', '/users/block').at(-1)!.body).toEqual({ blocked_user_id: ann.stream_id, user_id: bob.stream_id })
    expect(membersOf(channelId)).toEqual([])
    expect((await as(bob, 'DELETE', `v1/block/${ann.id}`)).status).toBe(204)
    expect(requestsTo('POST', '/users/unblock').at(-1)!.body).toEqual({ blocked_user_id: ann.stream_id, user_id: bob.stream_id })
    expect(membersOf(channelId)).toEqual([ann.stream_id, bob.stream_id].sort())
  })
})

describe('moderation mirrored to Stream (decision 042)', () => {
  /** An activity chat where the guest wrote something the host reported; an admin to act on it. */
  async function reportedGuest() {
    const chat = await activityChat()
    const admin = await member({ staff_role: 'admin' })
    const sent = await as(chat.guest, 'POST', `v1/chat/message-channels/${chat.channelId}/messages`, { text: 'Send me a gift card.' })
    const reported = await as(chat.host, 'POST', 'v1/reported-contents', { reason: 'fake_or_scam', message_id: sent.json.data[0].id })
    expect(reported.status).toBe(201)
    const act = (body: Record<string, unknown>) => as(admin, 'POST', `v1/admin/reports/${reported.json.data[0].id}/actions`, { reason: 'Asked for money.', ...body })
    return { ...chat, act, messageId: sent.json.data[0].id as string }
  }

  it('deletes a message that moderation removed', async () => {
    const { act, messageId } = await reportedGuest()
    expect(stream.messages.has(messageId)).toBe(true)
    expect((await act({ action: 'remove_message' })).status).toBe(200)
    const request = requestsTo('DELETE', `/messages/${messageId}`).at(-1)!
    expect(request.query.get('hard')).toBe('true')
    expect(stream.messages.has(messageId)).toBe(false)
    // Already gone: a retried job succeeds without asking again for what is done.
    await (await mirrorWorker())({ type: 'message.removed', message_id: messageId })
    expect(stream.messages.has(messageId)).toBe(false)
  })

  it('bans a suspended member in Stream until the suspension ends and takes them out of their channels; lifting it unbans them and puts them back', async () => {
    const { guest, host, channelId, act } = await reportedGuest()
    const until = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10)
    const before = Date.now()
    expect((await act({ action: 'suspend', suspended_until: until })).status).toBe(200)
    const ban = requestsTo('POST', '/moderation/ban').at(-1)!
    const minutesLeft = (new Date(`${until}T00:00:00Z`).getTime() - before) / 60_000
    expect(ban.body).toMatchObject({ target_user_id: guest.stream_id, banned_by_id: 'circle55', reason: 'suspended' })
    expect(ban.body.timeout).toBeGreaterThanOrEqual(Math.floor(minutesLeft))
    expect(ban.body.timeout).toBeLessThanOrEqual(Math.ceil(minutesLeft))
    expect(stream.bans.get(guest.stream_id)).toMatchObject({ banned_by_id: 'circle55', timeout: ban.body.timeout })
    expect(membersOf(channelId)).toEqual([host.stream_id])
    // Stream shows them under the generic label meanwhile, like the built-in lists.
    expect(stream.users.get(guest.stream_id)).toMatchObject({ name: 'Member' })

    // The end date passes; the job lifts it.
    await database.db.updateTable('users').set({ suspended_until: new Date(Date.now() - 1000) }).where('id', '=', guest.id).execute()
    expect(await liftEndedSuspensions(database.db, api.chatMirror)).toContain(guest.id)
    await api.workJobs()
    const unban = requestsTo('DELETE', '/moderation/ban').at(-1)!
    expect(unban.query.get('target_user_id')).toBe(guest.stream_id)
    expect(stream.bans.has(guest.stream_id)).toBe(false)
    expect(membersOf(channelId)).toEqual([guest.stream_id, host.stream_id].sort())
    expect(stream.users.get(guest.stream_id)).toMatchObject({ name: 'Margaret H.' })
  })

  it('bans a banned member in Stream for good, out of their channels', async () => {
    const { guest, host, channelId, act } = await reportedGuest()
    expect((await act({ action: 'ban' })).status).toBe(200)
    const ban = requestsTo('POST', '/moderation/ban').at(-1)!
    expect(ban.body).toEqual({ target_user_id: guest.stream_id, banned_by_id: 'circle55', reason: 'banned' })
    expect(stream.bans.get(guest.stream_id)).toEqual({ banned_by_id: 'circle55', timeout: null, reason: 'banned' })
    expect(membersOf(channelId)).toEqual([host.stream_id])
    // Nothing lifts a ban.
    await liftEndedSuspensions(database.db, api.chatMirror)
    await api.workJobs()
    expect(stream.bans.has(guest.stream_id)).toBe(true)
  })

  it('queues the change for retry when Stream is down, and the retry bans them', async () => {
    const { guest, act } = await reportedGuest()
    stream.failWith = 503
    const from = api.queuedJobs.length
    expect((await act({ action: 'ban' })).status).toBe(200)
    // (Besides the reporter's notification, and the product's message telling them, which is mirrored too.)
    expect(api.queuedJobs.slice(from).filter((job) => job.name === CHAT_MIRROR_JOB)).toEqual([
      { name: CHAT_MIRROR_JOB, data: { type: 'member', user_id: guest.id } },
      { name: CHAT_MIRROR_JOB, data: { type: 'message', message_id: expect.any(String) } },
    ])
    stream.failWith = null
    await (await mirrorWorker())({ type: 'member', user_id: guest.id })
    expect(stream.bans.get(guest.stream_id)).toMatchObject({ timeout: null })
  })

  it('unbans a member whose suspension ended when they come back before the job runs', async () => {
    const someone = await member({ is_suspended: true, suspended_until: new Date(Date.now() - 1000) })
    expect((await as(someone, 'GET', 'v1/users/me')).status).toBe(200)
    expect(requestsTo('DELETE', '/moderation/ban').at(-1)!.query.get('target_user_id')).toBe(someone.stream_id)
  })
})

describe('when Stream fails', () => {
  it('keeps the member’s message, queues the mirror and sends it once Stream is back, once', async () => {
    const { guest, channelId } = await activityChat()
    stream.failWith = 503
    const from = api.queuedJobs.length
    const sent = await as(guest, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Running ten minutes late.' })
    expect(sent.status).toBe(201)
    const id = sent.json.data[0].id as string
    // Kept, and readable through the server as ever.
    const read = await as(guest, 'GET', `message-channels/${channelId}`)
    expect(read.json.data[0].messages.map((message: { id: string }) => message.id)).toContain(id)
    expect(stream.messages.has(id)).toBe(false)
    // (Besides the host's `message.new` notification.)
    const queued = api.queuedJobs.slice(from).filter((job) => job.name === CHAT_MIRROR_JOB)
    expect(queued).toEqual([{ name: CHAT_MIRROR_JOB, data: { type: 'message', message_id: id } }])

    // The retry job, as the runtime works it.
    const worker = await mirrorWorker()
    await expect(worker(queued[0]!.data as ChatChange)).rejects.toBeTruthy()
    stream.failWith = null
    await worker(queued[0]!.data as ChatChange)
    expect(stream.messages.get(id)).toMatchObject({ text: 'Running ten minutes late.', user_id: guest.stream_id })
    // A job retried after it had in fact succeeded changes nothing.
    await worker(queued[0]!.data as ChatChange)
    expect([...stream.messages.values()].filter((message) => message.id === id)).toHaveLength(1)
  })

  it('queues a channel change too, and the retry creates the channel a later message needs', async () => {
    const host = await member()
    const experience = await createExperience(database.db, host.id)
    stream.failWith = 500
    const from = api.queuedJobs.length
    const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
    expect(joined.status).toBe(200)
    const channelId = joined.json.data[0].id as string
    expect(api.queuedJobs.slice(from)).toEqual([{ name: CHAT_MIRROR_JOB, data: { type: 'channel', channel_id: channelId } }])
    stream.failWith = null
    // A message sent before the retry ran: Stream does not know the channel; the mirror makes it first.
    const sent = await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Welcome, everyone!' })
    expect(stream.messages.get(sent.json.data[0].id)).toMatchObject({ cid: `messaging:${channelId}`, user_id: host.stream_id })
    expect(membersOf(channelId)).toEqual([host.stream_id])
  })
})

function services() {
  return { chat: createChatProvider(parseEnv({ NODE_ENV: 'test', ...streamEnv }), database.db) }
}

/** The chat mirror's job as a worker runs it where Stream is the chat service: the payload parsed by the job's schema, then its handler. */
async function mirrorWorker() {
  const { chat } = services()
  expect(chatMirrorJob.runsWhen?.({ chat })).toBe(true)
  return (change: ChatChange) => chatMirrorJob.handler(chatMirrorJob.payload.parse(change), { chat })
}
