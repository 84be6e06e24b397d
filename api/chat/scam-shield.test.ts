import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import type { Channel } from '#contract/chat.ts'
import { newAccountDays, newConversationsPerDay } from '#contract/limits.ts'
import { createApiHarness, createMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/** The scam shield's limits on senders (issue 14 §6, decision 038), as an API client meets them. */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

/** A member whose account is `ageDays` old (new by default), verified or not. */
function member({ ageDays = 1, verified = false, ...overrides }: Partial<NewUser> & { ageDays?: number; verified?: boolean } = {}) {
  return createMember(database.db, { ageDays, verified, ...overrides })
}

/** Old enough and verified: none of the limits apply. */
const trusted = () => member({ ageDays: 400, verified: true })

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

async function open(from: User, to: User) {
  const response = await as(from, 'POST', 'users/message-channels', { user_id: to.id })
  return { status: response.status, json: response.json, headers: response.headers, id: (response.json?.data?.[0] as Channel | undefined)?.id ?? '' }
}

async function send(user: User, channelId: string, text: string, extra: Record<string, unknown> = {}) {
  return as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text, ...extra })
}

/** `sender` opens a channel with another member and writes in it: the status of the message, or of the opening when refused. */
async function startConversation(sender: User, text = 'Hello, nice to meet you at the walk!') {
  const channel = await open(sender, await trusted())
  if (channel.status !== 201) return { channelId: channel.id, status: channel.status }
  return { channelId: channel.id, status: (await send(sender, channel.id, text)).status }
}

describe('new conversations a day', () => {
  it(`lets a new member open ${newConversationsPerDay} direct channels in 24 hours, then refuses the next`, async () => {
    const sender = await member()
    for (let n = 1; n <= newConversationsPerDay; n++) expect((await startConversation(sender)).status).toBe(201)
    const refused = await open(sender, await trusted())
    expect(refused.status).toBe(429)
    expect(refused.json.error).toMatchObject({ code: 'new_conversations_limit', message: expect.stringContaining('5 new conversations a day') })
    // The first of them leaves the 24 hours in a little under a day.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 60 * 60)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(24 * 60 * 60)
  })

  it('counts a channel once, when the member opens it: its messages, opening it again and answering others cost nothing', async () => {
    const sender = await member()
    const recipient = await trusted()
    const first = await open(sender, recipient)
    for (let n = 0; n < 2; n++) expect((await send(sender, first.id, `Hello ${n}`)).status).toBe(201)
    expect((await open(sender, recipient)).status).toBe(200)
    expect((await send(recipient, first.id, 'Hello to you!')).status).toBe(201)
    for (let n = 0; n < 6; n++) expect((await send(sender, first.id, `More ${n}`)).status).toBe(201)

    // Others open channels with the member: answering them, or opening them again, is not starting a conversation.
    for (let n = 0; n < 6; n++) {
      const writer = await trusted()
      const channel = await open(writer, sender)
      expect((await send(sender, channel.id, 'Hello, I saw you at the book club')).status).toBe(201)
      expect((await open(sender, writer)).status).toBe(200)
    }
    for (let n = 2; n <= newConversationsPerDay; n++) expect((await startConversation(sender)).status).toBe(201)
    expect((await startConversation(sender)).status).toBe(429)
  })

  it('is a rolling 24 hours: a channel opened yesterday no longer counts', async () => {
    const sender = await member()
    const started = []
    for (let n = 1; n <= newConversationsPerDay; n++) started.push((await startConversation(sender)).channelId)
    expect((await startConversation(sender)).status).toBe(429)
    await sql`UPDATE message_channels SET created_at = now() - interval '24 hours 1 minute' WHERE id = ${started[0]}`.execute(database.db)
    expect((await startConversation(sender)).status).toBe(201)
    expect((await startConversation(sender)).status).toBe(429)
  })

  it('applies to a new member even when verified, and to an older member who is not verified; never to a verified older one', async () => {
    for (const sender of [await member({ ageDays: 2, verified: true }), await member({ ageDays: 400 })]) {
      for (let n = 1; n <= newConversationsPerDay; n++) expect((await startConversation(sender)).status).toBe(201)
      expect((await startConversation(sender)).status).toBe(429)
    }
    const older = await member({ ageDays: newAccountDays + 1, verified: true })
    for (let n = 1; n <= newConversationsPerDay + 2; n++) expect((await startConversation(older)).status).toBe(201)
  })

  it('reads the latest verification: a rejected check after an approved one limits again', async () => {
    const sender = await member({ ageDays: 400, verified: true })
    await database.db
      .insertInto('verifications')
      .values({ user_id: sender.id, status: 'not_verified', decided_at: new Date(), created_at: new Date(Date.now() + 1000) })
      .execute()
    for (let n = 1; n <= newConversationsPerDay; n++) expect((await startConversation(sender)).status).toBe(201)
    expect((await startConversation(sender)).status).toBe(429)
  })

  it('cannot be passed by opening channels at once', async () => {
    const sender = await member()
    const recipients = await Promise.all(Array.from({ length: newConversationsPerDay + 3 }, () => trusted()))
    const answers = await Promise.all(recipients.map((recipient) => open(sender, recipient)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(newConversationsPerDay)
    expect(statuses.filter((status) => status === 429)).toHaveLength(3)
  })
})

describe('links in a first message', () => {
  it('are refused from a new member until the other member accepts or replies, on the text field', async () => {
    const sender = await member()
    const recipient = await trusted()
    const channel = await open(sender, recipient)
    const refused = await send(sender, channel.id, 'Look at this: https://example.org/river')
    expect(refused.status).toBe(422)
    expect(refused.json.error).toMatchObject({
      code: 'invalid_input',
      fields: { text: ['links_not_allowed_yet'] },
      message: 'Links can be shared once Ann B. has accepted your message request.',
    })
    // Refused messages are not stored and do not count towards the 2 before acceptance.
    expect((await send(sender, channel.id, 'Or www.example.org')).status).toBe(422)
    expect((await send(sender, channel.id, 'Hello! See you by the river.')).status).toBe(201)
    expect((await send(sender, channel.id, 'The map: bit.ly/river')).status).toBe(422)
    expect((await send(recipient, channel.id, 'Hello! Which bridge?')).status).toBe(201)
    expect((await send(sender, channel.id, 'This one: https://example.org/river')).status).toBe(201)

    const other = await trusted()
    const accepted = await open(sender, other)
    expect((await as(other, 'POST', `v1/chat/message-channels/${accepted.id}/accept`)).status).toBe(200)
    expect((await send(sender, accepted.id, 'Our club: https://example.org/club')).status).toBe(201)
  })

  it('are allowed from a verified older member, in a reply, and to a member who opened the channel', async () => {
    const newcomer = await member()
    const writer = await trusted()
    const channel = await open(writer, newcomer)
    expect((await send(writer, channel.id, 'Our club’s page: https://example.org/club')).status).toBe(201)
    expect((await send(newcomer, channel.id, 'Thanks, mine is https://example.org/me')).status).toBe(201)
    const opener = await trusted()
    const opened = await open(opener, newcomer)
    expect((await send(newcomer, opened.id, 'Hello! https://example.org/me')).status).toBe(201)
  })

  it('are refused however the address is written: glued to a word, full-width, in look-alike letters (issue 29 §5)', async () => {
    const sender = await member()
    const channel = await open(sender, await trusted())
    for (const text of [
      'Voilàhttps://evil.dev/login',
      'éhttps://evil.dev/login',
      'ﬁhttps://evil.dev/login',
      'ｈｔｔｐｓ：／／ｅｖｉｌ．ｄｅｖ/login',
      'һttps://evil.dev/login',
      'Voilàwww.evil.dev',
      'Log in at evil。com',
    ]) {
      const refused = await send(sender, channel.id, text)
      expect(refused.status, text).toBe(422)
      expect(refused.json.error.fields, text).toEqual({ text: ['links_not_allowed_yet'] })
    }
    expect(await database.db.selectFrom('messages').select('id').where('channel_id', '=', channel.id).execute()).toEqual([])
  })

  it('are refused from an older member who is not verified', async () => {
    const sender = await member({ ageDays: 400 })
    const channel = await open(sender, await trusted())
    expect((await send(sender, channel.id, 'https://example.org')).status).toBe(422)
  })
})

describe('the contact reminder', () => {
  it('stops a first message with a phone number once; acknowledged, it is sent and never asked again', async () => {
    const sender = await trusted()
    const channel = await open(sender, await trusted())
    const reminded = await send(sender, channel.id, 'Call me on 503 555 0142 when you like')
    expect(reminded.status).toBe(409)
    expect(reminded.json.error).toMatchObject({ code: 'contact_reminder', message: expect.stringContaining('Only share it with people you have met and trust.') })
    expect((await as(sender, 'GET', `message-channels/${channel.id}`)).json.data[0].messages).toEqual([])

    const sent = await send(sender, channel.id, 'Call me on 503 555 0142 when you like', { acknowledge_contact_reminder: true })
    expect(sent.status).toBe(201)
    expect(sent.json.data[0].body).toBe('Call me on 503 555 0142 when you like')

    const another = await open(sender, await trusted())
    expect((await send(sender, another.id, 'My email is ann.baker@example.com')).status).toBe(201)
  })

  it('is not asked for an ordinary first message or in a reply; an acknowledgement without contact details records nothing', async () => {
    const sender = await trusted()
    const writer = await trusted()
    const channel = await open(writer, sender)
    expect((await send(sender, channel.id, 'Hello, nice to meet you')).status).toBe(201)
    // The sender replied, which accepts: the other member's messages are no longer opening ones.
    expect((await send(writer, channel.id, 'You can reach me at walter@example.com')).status).toBe(201)
    // An acknowledgement without contact details records nothing.
    const other = await open(sender, await trusted())
    expect((await send(sender, other.id, 'Hello!', { acknowledge_contact_reminder: true })).status).toBe(201)
    const third = await open(sender, await trusted())
    expect((await send(sender, third.id, 'Text me: 503-555-0142')).status).toBe(409)
  })

  it('comes after the link rule, and refuses a body that is not a boolean', async () => {
    const sender = await member()
    const channel = await open(sender, await trusted())
    expect((await send(sender, channel.id, 'Mail me at ann@example.com or see example.org')).status).toBe(422)
    const invalid = await send(sender, channel.id, 'Mail me at ann@example.com', { acknowledge_contact_reminder: 'yes' })
    expect(invalid.status).toBe(422)
    expect(invalid.json.error.fields).toEqual({ acknowledge_contact_reminder: ['acknowledge_contact_reminder_invalid'] })
  })
})

describe('the warning patterns', () => {
  it('never stop or limit the sender', async () => {
    const sender = await trusted()
    const channel = await open(sender, await trusted())
    const sent = await send(sender, channel.id, 'Could you send me $500 in gift cards? I’ll pay you back')
    expect(sent.status).toBe(201)
    expect(Object.keys(sent.json.data[0]).sort()).toEqual(['body', 'channel_id', 'created_at', 'id', 'is_system', 'sender'])
  })
})
