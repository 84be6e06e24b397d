import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { messagesPerChannelPerMinute, messagesPerHour, messagesPerMinute } from '#contract/limits.ts'
import { createApiHarness, createMember, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * How many messages one member may send (issue 29 §5, decision 066), as an API client meets it:
 * the attacker sent 300 messages at once to 300 members, and all were accepted.
 */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

/** A year old and verified: none of the scam shield's limits apply, only these. */
function trusted() {
  return createMember(database.db, { ageDays: 400, verified: true })
}

/** `count` accepted direct channels between `sender` and as many other members, made in the database. */
async function directChannels(sender: User, count: number) {
  const others = await Promise.all(Array.from({ length: count }, () => createUser(database.db)))
  const channels = await database.db
    .insertInto('message_channels')
    .values(others.map((other) => ({ kind: 'direct' as const, direct_key: [sender.id, other.id].sort().join(':'), created_by: sender.id })))
    .returning('id')
    .execute()
  await database.db
    .insertInto('channel_memberships')
    .values(channels.flatMap((channel, index) => [sender.id, others[index]!.id].map((user_id) => ({ channel_id: channel.id, user_id, is_accepted: true }))))
    .execute()
  return channels.map((channel) => channel.id)
}

async function send(token: string, channelId: string, text: string) {
  return api.request('POST', `v1/chat/message-channels/${channelId}/messages`, { token, body: { text } })
}

const stored = async (sender: User) =>
  (await database.db.selectFrom('messages').select(sql<number>`count(*)::int`.as('count')).where('user_id', '=', sender.id).executeTakeFirstOrThrow()).count

describe('messages a member may send', () => {
  it(`accepts ${messagesPerMinute} of 300 messages sent at once to 300 members, and refuses the rest with 429 too_many_messages`, async () => {
    const sender = await trusted()
    const token = await api.signToken(sender.id)
    const channels = await directChannels(sender, 300)
    const answers = await Promise.all(channels.map((channel, index) => send(token, channel, `Hello! A great offer for you, number ${index}.`)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(messagesPerMinute)
    expect(statuses.filter((status) => status === 429)).toHaveLength(300 - messagesPerMinute)
    const refused = answers.find((answer) => answer.status === 429)!
    expect(refused.json.error).toEqual({
      code: 'too_many_messages',
      message: 'You are sending messages faster than Circle 55 allows. Please wait a minute and send it again.',
    })
    // When the minute's window ends, in seconds.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    expect(await stored(sender)).toBe(messagesPerMinute)
    // Another member is not held up by it.
    const other = await trusted()
    const [theirs] = await directChannels(other, 1)
    expect((await send(await api.signToken(other.id), theirs!, 'Are you coming on Sunday?')).status).toBe(201)
  })

  it(`accepts ${messagesPerChannelPerMinute} a minute in one chat, sent at once, while other chats stay open`, async () => {
    const sender = await trusted()
    const token = await api.signToken(sender.id)
    const [busy, quiet] = await directChannels(sender, 2)
    const answers = await Promise.all(Array.from({ length: messagesPerChannelPerMinute + 5 }, (_, n) => send(token, busy!, `Message ${n}`)))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(messagesPerChannelPerMinute)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => String(answer.json.error.code))).toEqual(Array(5).fill('too_many_messages'))
    expect((await send(token, quiet!, 'And hello to you too')).status).toBe(201)
  })

  it(`refuses a message after the hour's ${messagesPerHour}, and sends again once the minute or the hour has passed`, async () => {
    const sender = await trusted()
    const token = await api.signToken(sender.id)
    const [channel] = await directChannels(sender, 1)
    // This member already sent the hour's messages (counted as the API counts them).
    await database.db
      .insertInto('rate_limits')
      .values({ key: `messages-member-hour:${sender.id}`, window_start: new Date(Date.now() - 30 * 60_000), count: messagesPerHour })
      .execute()
    const refused = await send(token, channel!, 'One more')
    expect(refused.json.error.code).toBe('too_many_messages')
    // The hour's window, opened 30 minutes ago, lets it through in about 30 minutes.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(29 * 60)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30 * 60)
    await database.db.updateTable('rate_limits').set({ window_start: new Date(Date.now() - 61 * 60_000) }).where('key', '=', `messages-member-hour:${sender.id}`).execute()
    expect((await send(token, channel!, 'One more')).status).toBe(201)

    await database.db.updateTable('rate_limits').set({ count: messagesPerMinute }).where('key', '=', `messages-member:${sender.id}`).execute()
    expect((await send(token, channel!, 'And another')).status).toBe(429)
    await database.db.updateTable('rate_limits').set({ window_start: new Date(Date.now() - 61_000) }).where('key', '=', `messages-member:${sender.id}`).execute()
    expect((await send(token, channel!, 'And another')).status).toBe(201)
  })
})
