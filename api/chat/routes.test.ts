import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createChatMirror } from '#api/chat/mirror.ts'
import { postProductMessage, productChannelId } from '#api/chat/product-messages.ts'
import type { Channel, ChannelWithMessages, Message } from '#contract/chat.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { privateKeysIn } from '#tests/private-keys.ts'

/** Activity chats and direct messages (issue 14 §1, decision 029), as an API client sees them. */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const DAY = 86_400_000

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

async function seat(experienceId: string, user: User) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: user.id }).execute()
  await database.db.updateTable('experiences').set({ attendees_count: (eb) => eb('attendees_count', '+', 1) }).where('id', '=', experienceId).execute()
}

/** An activity (upcoming unless `startsInDays` says otherwise) with its host and one attendee, both in its chat. */
async function activityChat(startsInDays = 5) {
  const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  const guest = await member({ first_name: 'Margaret', last_name: 'Hughes' })
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + startsInDays * DAY), max_attendees: 10 })
  await seat(experience.id, guest)
  const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
  expect(joined.status).toBe(200)
  const channel = joined.json.data[0] as Channel
  expect((await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
  return { host, guest, experience, channelId: channel.id }
}

async function send(user: User, channelId: string, text: string) {
  return as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
}

async function read(user: User, channelId: string, query = '') {
  const response = await as(user, 'GET', `message-channels/${channelId}${query}`)
  expect(response.status).toBe(200)
  return response.json.data[0] as ChannelWithMessages
}

async function list(user: User) {
  const response = await as(user, 'GET', 'v1/chat/message-channels')
  expect(response.status).toBe(200)
  return response.json as { data: Channel[]; metadata: { total_unread: number; total_count: number } }
}

async function direct(from: User, to: User) {
  return as(from, 'POST', 'users/message-channels', { user_id: to.id })
}

const bodies = (messages: Message[]) => messages.map((message) => message.body)

describe('activity chat', () => {
  it('is joined by the host without attending and by attendees, once per activity; nobody else', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    const again = await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)
    expect(again.json.data[0].id).toBe(channelId)
    expect(again.json.data[0]).toMatchObject({ kind: 'experience', experience: { id: experience.id, title: 'Riverside walk' }, can_write: true, is_accepted: true })

    const stranger = await member()
    expect((await as(stranger, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(403)
    expect((await as(stranger, 'GET', `experiences/${experience.id}/message-channels`)).status).toBe(403)
    expect((await as(stranger, 'GET', `message-channels/${channelId}`)).status).toBe(403)
    expect((await send(stranger, channelId, 'Hello')).status).toBe(403)
    expect((await api.request('GET', `experiences/${experience.id}/message-channels`)).status).toBe(401)

    const listed = await as(host, 'GET', `experiences/${experience.id}/message-channels`)
    expect(listed.json.data.map((channel: Channel) => channel.id)).toEqual([channelId])
    const users = await as(host, 'GET', `message-channels/${channelId}/users`)
    expect(users.json.data.map((user: { id: string; is_host: boolean }) => [user.id, user.is_host])).toEqual([
      [host.id, true],
      [guest.id, false],
    ])
    const one = await as(host, 'GET', `message-channels/${channelId}/users?user_id=${guest.id}`)
    expect(one.json.data).toHaveLength(1)
  })

  it('answers an empty list before anyone joins, and 403 to who may not read it', async () => {
    const host = await member()
    const experience = await createExperience(database.db, host.id)
    expect((await as(host, 'GET', `experiences/${experience.id}/message-channels`)).json).toEqual({ data: [] })
    expect((await as(await member(), 'GET', `experiences/${experience.id}/message-channels`)).status).toBe(403)
  })

  it('delivers messages with unread counts until read', async () => {
    const { host, guest, channelId } = await activityChat()
    const sent = await send(guest, channelId, '  See you at the bridge!  ')
    expect(sent.status).toBe(201)
    expect(sent.json.data[0]).toMatchObject({ channel_id: channelId, body: 'See you at the bridge!', is_system: false, sender: { id: guest.id, display_name: 'Margaret H.' } })

    const hostList = await list(host)
    const entry = hostList.data.find((channel) => channel.id === channelId)
    expect(entry?.unread_count).toBe(1)
    expect(hostList.metadata.total_unread).toBe(1)
    expect(bodies(entry?.last_messages ?? [])).toEqual(['See you at the bridge!'])
    // One's own message is not unread.
    expect((await list(guest)).data.find((channel) => channel.id === channelId)?.unread_count).toBe(0)

    expect((await as(host, 'POST', `v1/chat/message-channels/${channelId}/read`)).status).toBe(204)
    expect((await list(host)).metadata.total_unread).toBe(0)
  })

  it('shows the last 5 messages per channel in the list, oldest first, newest channel first', async () => {
    const { host, guest, channelId } = await activityChat()
    for (let n = 1; n <= 7; n++) expect((await send(n % 2 ? guest : host, channelId, `Message ${n}`)).status).toBe(201)
    const { data } = await list(host)
    expect(data[0]?.id).toBe(channelId)
    expect(bodies(data[0]?.last_messages ?? [])).toEqual(['Message 3', 'Message 4', 'Message 5', 'Message 6', 'Message 7'])
    expect(data[0]?.unread_count).toBe(1)
  })

  it('takes write access from a member who cancels, and shows them nothing posted after', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    await send(host, channelId, 'Before')
    const cancelled = await as(guest, 'DELETE', `v1/experiences/${experience.id}/attendees/${guest.id}`)
    expect(cancelled.status).toBe(200)
    await send(host, channelId, 'After')

    const seen = await read(guest, channelId)
    expect(bodies(seen.messages)).toEqual(['Before'])
    expect(seen).toMatchObject({ can_write: false, cannot_write_reason: 'not_participant' })
    expect((await send(guest, channelId, 'Still here?')).status).toBe(403)
    expect((await list(guest)).data.map((channel) => channel.id)).not.toContain(channelId)
    expect((await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(403)
  })

  it('closes for writing 7 days after the activity ends, and stays readable', async () => {
    const closed = await activityChat(-9)
    // Backdated: the channel was joined before it closed; a message from then.
    await database.db.insertInto('messages').values({ channel_id: closed.channelId, user_id: closed.guest.id, body: 'Lovely walk' }).execute()
    const refused = await send(closed.host, closed.channelId, 'Thanks all')
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('chat_closed')
    const seen = await read(closed.guest, closed.channelId)
    expect(bodies(seen.messages)).toEqual(['Lovely walk'])
    expect(seen).toMatchObject({ can_write: false, cannot_write_reason: 'chat_closed' })

    const open = await activityChat(-6)
    expect((await send(open.host, open.channelId, 'Thanks all')).status).toBe(201)
  })
})

describe('direct messages', () => {
  it('opens one channel per pair, as a request the recipient accepts', async () => {
    const ann = await member({ first_name: 'Ann', last_name: 'Lee' })
    const bob = await member({ first_name: 'Bob', last_name: 'Stone' })
    const created = await direct(ann, bob)
    expect(created.status).toBe(201)
    const channel = created.json.data[0] as Channel
    expect(channel).toMatchObject({ kind: 'direct', other_member: { id: bob.id, display_name: 'Bob S.' }, is_accepted: true, is_awaiting_acceptance: true, can_write: true })
    const again = await direct(ann, bob)
    expect(again.status).toBe(200)
    expect(again.json.data[0].id).toBe(channel.id)

    expect((await send(ann, channel.id, 'Hello Bob')).status).toBe(201)
    expect((await send(ann, channel.id, 'Are you coming Sunday?')).status).toBe(201)
    const third = await send(ann, channel.id, 'Bob?')
    expect(third.status).toBe(409)
    expect(third.json.error).toEqual({ code: 'awaiting_acceptance', message: 'Waiting for Bob S. to accept your message request.' })
    expect(await read(ann, channel.id)).toMatchObject({ can_write: false, cannot_write_reason: 'awaiting_acceptance' })

    const request = (await list(bob)).data.find((entry) => entry.id === channel.id)
    expect(request).toMatchObject({ is_accepted: false, unread_count: 2, other_member: { id: ann.id } })
    const accepted = await as(bob, 'POST', `v1/chat/message-channels/${channel.id}/accept`)
    expect(accepted.status).toBe(200)
    expect(accepted.json.data[0].is_accepted).toBe(true)
    expect((await send(ann, channel.id, 'Bob?')).status).toBe(201)
    expect((await read(ann, channel.id)).is_awaiting_acceptance).toBe(false)

    // The recipient opening the conversation finds the same channel.
    expect((await direct(bob, ann)).json.data[0].id).toBe(channel.id)
  })

  it('never lets sends at the same moment pass the 2-message limit of a request', async () => {
    const [ann, bob] = [await member(), await member()]
    const channelId = (await direct(ann, bob)).json.data[0].id as string
    const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => send(ann, channelId, `Hello ${n}`)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409, 409])
    expect((await read(bob, channelId)).messages).toHaveLength(2)
  })

  it('counts a reply as accepting the request', async () => {
    const [ann, bob] = [await member(), await member()]
    const channelId = (await direct(ann, bob)).json.data[0].id as string
    await send(ann, channelId, 'Hi')
    expect((await send(bob, channelId, 'Hi Ann')).status).toBe(201)
    await send(ann, channelId, 'One')
    expect((await send(ann, channelId, 'Two')).status).toBe(201)
  })

  it('is private to its two members', async () => {
    const [ann, bob, eve] = [await member(), await member(), await member()]
    const admin = await member({ staff_role: 'admin' })
    const channelId = (await direct(ann, bob)).json.data[0].id as string
    for (const outsider of [eve, admin]) {
      expect((await as(outsider, 'GET', `message-channels/${channelId}`)).status).toBe(404)
      expect((await send(outsider, channelId, 'Hi')).status).toBe(404)
      expect((await as(outsider, 'POST', `v1/chat/message-channels/${channelId}/accept`)).status).toBe(404)
    }
    expect((await as(eve, 'GET', `message-channels/${crypto.randomUUID()}`)).status).toBe(404)
    expect((await as(eve, 'GET', 'message-channels/not-an-id')).status).toBe(404)
  })

  it('refuses oneself, suspended, banned, deleted and blocked members with clear codes', async () => {
    const ann = await member()
    const cases: Array<[User, number, string]> = [
      [ann, 409, 'cannot_message_self'],
      [await member({ is_suspended: true }), 403, 'recipient_suspended'],
      [await member({ state: 'suspended' }), 403, 'recipient_suspended'],
      [await member({ banned: true }), 403, 'recipient_suspended'],
      [await member({ state: 'deleted' }), 404, 'not_found'],
    ]
    const blockedByAnn = await member()
    await database.db.insertInto('blocks').values({ blocker_id: ann.id, blocked_id: blockedByAnn.id }).execute()
    cases.push([blockedByAnn, 403, 'blocked'])
    const blocksAnn = await member()
    await database.db.insertInto('blocks').values({ blocker_id: blocksAnn.id, blocked_id: ann.id }).execute()
    // Who blocked the caller stays hidden from them, as their profile does.
    cases.push([blocksAnn, 404, 'not_found'])
    for (const [recipient, status, code] of cases) {
      const response = await direct(ann, recipient)
      expect([response.status, response.json.error.code]).toEqual([status, code])
    }
    const invalid = await as(ann, 'POST', 'users/message-channels', { user_id: 'bob' })
    expect(invalid.status).toBe(422)
    expect(invalid.json.error.fields).toEqual({ user_id: ['user_id_invalid'] })
    expect((await direct(ann, { id: crypto.randomUUID() } as User)).status).toBe(404)
  })

  it('closes an existing channel when one blocks the other or the recipient is suspended (§8)', async () => {
    const [ann, bob, cy] = [await member(), await member(), await member()]
    const withBob = (await direct(ann, bob)).json.data[0].id as string
    const withCy = (await direct(ann, cy)).json.data[0].id as string
    await database.db.insertInto('blocks').values({ blocker_id: bob.id, blocked_id: ann.id }).execute()
    // The blocker is told why; the blocked member reads what a suspended member's conversation says (decision 034).
    for (const [from, code, reason] of [
      [ann, 'recipient_suspended', 'recipient_unavailable'],
      [bob, 'blocked', 'blocked'],
    ] as const) {
      const refused = await send(from, withBob, 'Hello')
      expect([refused.status, refused.json.error.code]).toEqual([403, code])
      expect(await read(from, withBob)).toMatchObject({ can_write: false, cannot_write_reason: reason })
    }
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', cy.id).execute()
    const refused = await send(ann, withCy, 'Hello')
    expect([refused.status, refused.json.error.code]).toEqual([403, 'recipient_suspended'])
    expect(await read(ann, withCy)).toMatchObject({ can_write: false, cannot_write_reason: 'recipient_unavailable', other_member: { display_name: null } })
  })

  it('leaves the list on leave, and comes back with a new message', async () => {
    const [ann, bob] = [await member(), await member()]
    const channelId = (await direct(ann, bob)).json.data[0].id as string
    await send(ann, channelId, 'Hi')
    expect((await as(bob, 'DELETE', `users/message-channels/${channelId}/leave`)).status).toBe(204)
    expect((await list(bob)).data.map((channel) => channel.id)).not.toContain(channelId)
    expect((await as(await member(), 'DELETE', `users/message-channels/${channelId}/leave`)).status).toBe(404)
    await send(ann, channelId, 'Still there?')
    expect((await list(bob)).data.map((channel) => channel.id)).toContain(channelId)
  })
})

describe('messages', () => {
  it('filters banned and suspended members’ messages from every list and count', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    const spammer = await member()
    await seat(experience.id, spammer)
    await send(spammer, channelId, 'Send me gift cards')
    await send(guest, channelId, 'Hello all')
    await database.db.updateTable('users').set({ banned: true }).where('id', '=', spammer.id).execute()

    expect(bodies((await read(host, channelId)).messages)).toEqual(['Hello all'])
    const entry = (await list(host)).data.find((channel) => channel.id === channelId)
    expect(bodies(entry?.last_messages ?? [])).toEqual(['Hello all'])
    expect(entry?.unread_count).toBe(1)
  })

  it('pages from the newest, with a cursor to load older messages', async () => {
    const { host, guest, channelId } = await activityChat()
    const at = Date.now() - 3_600_000
    await database.db
      .insertInto('messages')
      .values(Array.from({ length: 35 }, (_, n) => ({ channel_id: channelId, user_id: guest.id, body: `m${n + 1}`, created_at: new Date(at + n * 1000) })))
      .execute()
    const newest = await read(host, channelId)
    expect(newest.messages).toHaveLength(30)
    expect(newest.messages[0]?.body).toBe('m6')
    expect(newest.messages.at(-1)?.body).toBe('m35')
    expect(newest.older_cursor).toBe(newest.messages[0]?.id)
    const older = await read(host, channelId, `?before=${newest.older_cursor}`)
    expect(bodies(older.messages)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5'])
    expect(older.older_cursor).toBeNull()
    const small = await read(host, channelId, '?limit=2')
    expect(bodies(small.messages)).toEqual(['m34', 'm35'])
    expect((await as(host, 'GET', `message-channels/${channelId}?before=x`)).status).toBe(422)
  })

  it('takes 1 to 2,000 characters of plain text', async () => {
    const { guest, channelId } = await activityChat()
    const cases: Array<[unknown, number, string]> = [
      [{ text: '   ' }, 422, 'text_required'],
      [{ text: '\u200b' }, 422, 'text_required'],
      [{}, 422, 'text_required'],
      [{ text: 'x'.repeat(2001) }, 422, 'text_too_long'],
      // Refused for every field of every route before the route (decision 066).
      [{ text: 'bad\u0000byte' }, 400, 'invalid_characters'],
      [{ text: 'evil\u202eright' }, 422, 'direction_characters'],
    ]
    for (const [body, status, code] of cases) {
      const response = await as(guest, 'POST', `v1/chat/message-channels/${channelId}/messages`, body)
      expect(response.status).toBe(status)
      expect(response.json.error.fields.text).toEqual([code])
    }
    expect((await send(guest, channelId, 'x'.repeat(2000))).status).toBe(201)
    const multiline = await send(guest, channelId, 'Line one\nLine two')
    expect(multiline.json.data[0].body).toBe('Line one\nLine two')
    // Extra fields are ignored: a member cannot post as someone else or as the product.
    const forged = await as(guest, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Hi', user_id: null, is_system: true })
    expect(forged.json.data[0]).toMatchObject({ is_system: false, sender: { id: guest.id } })
  })

  it('shows product messages without a sender, and they cannot be replied to', async () => {
    const ann = await member()
    const channelId = await database.db.transaction().execute(async (trx) => {
      const id = await productChannelId(trx, ann.id)
      await postProductMessage(trx, createChatMirror({}), id, { key: 'hostCancelled' })
      return id
    })
    const seen = await read(ann, channelId)
    expect(seen.messages).toEqual([expect.objectContaining({ is_system: true, sender: null, body: 'The host canceled this activity.' })])
    expect(seen).toMatchObject({ can_write: false, cannot_write_reason: 'product_messages', other_member: null })
    const refused = await send(ann, channelId, 'Why?')
    expect(refused.status).toBe(409)
    expect(refused.json.error).toEqual({ code: 'product_messages', message: 'Messages from Circle 55 cannot be replied to.' })
    expect((await list(ann)).data[0]?.unread_count).toBe(1)
  })

  it('says "The host cancelled this activity." in its chat, in each reader’s language', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    await database.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', guest.id).execute()
    expect((await as(host, 'DELETE', `v1/experiences/${experience.id}`)).status).toBe(204)
    const { messages } = await read(host, channelId)
    expect(messages.at(-1)).toMatchObject({ is_system: true, sender: null, body: 'The host canceled this activity.' })
    const inFrench = await read(guest, channelId)
    expect(inFrench.messages.at(-1)).toMatchObject({ is_system: true, body: "L'organisateur a annulé cette activité." })
  })

  it('notifies the chat channel in the sending transaction', async () => {
    const { guest, channelId } = await activityChat()
    const listener = new pg.Client({ connectionString: database.url })
    await listener.connect()
    try {
      const received = new Promise<string | undefined>((resolve) => listener.on('notification', (message) => resolve(message.payload)))
      await listener.query('LISTEN chat')
      const sent = await send(guest, channelId, 'Live!')
      expect(JSON.parse((await received) ?? '')).toMatchObject({ channel_id: channelId, message_id: sent.json.data[0].id, seq: expect.any(Number) })
    } finally {
      await listener.end()
    }
  })

  it('stores every message of many sent at once in several channels, product messages among them, notified in seq order', async () => {
    const chats = await Promise.all([activityChat(), activityChat(), activityChat()])
    const reader = await member()
    const productChannel = await database.db.transaction().execute((trx) => productChannelId(trx, reader.id))
    const listener = new pg.Client({ connectionString: database.url })
    await listener.connect()
    try {
      const notified: number[] = []
      listener.on('notification', (message) => notified.push(JSON.parse(message.payload ?? '{}').seq))
      await listener.query('LISTEN chat')
      const sends = chats.flatMap(({ host, guest, channelId }, index) =>
        Array.from({ length: 8 }, (_, n) => send(n % 2 ? host : guest, channelId, `Message ${index}.${n}`)),
      )
      const products = Array.from({ length: 4 }, () =>
        database.db.transaction().execute((trx) => postProductMessage(trx, createChatMirror({}), productChannel, { key: 'hostCancelled' })),
      )
      const [answers] = await Promise.all([Promise.all(sends), Promise.all(products)])
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201))
      await expect.poll(() => notified.length).toBe(28)
      // Committed in the order of their numbers: a stream resuming after n misses nothing below it.
      expect(notified).toEqual([...notified].sort((a, b) => a - b))
      for (const { host, channelId } of chats) expect((await read(host, channelId)).messages).toHaveLength(8)
    } finally {
      await listener.end()
    }
  })
})

describe('privacy of chat answers', () => {
  it('never shows contact details, birth dates or coordinates', async () => {
    const { host, guest, experience, channelId } = await activityChat()
    await database.db.updateTable('users').set({ phone: '+15035550199', lat: 45.5, long: -122.6 }).where('id', 'in', [host.id, guest.id]).execute()
    await send(guest, channelId, 'Hello')
    const dm = await direct(host, guest)
    const answers = {
      join: await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`),
      activity: await as(host, 'GET', `experiences/${experience.id}/message-channels`),
      direct: dm,
      channel: await as(host, 'GET', `message-channels/${channelId}`),
      users: await as(host, 'GET', `message-channels/${channelId}/users`),
      list: await as(host, 'GET', 'v1/chat/message-channels'),
      send: await send(host, dm.json.data[0].id, 'Hi'),
      accept: await as(guest, 'POST', `v1/chat/message-channels/${dm.json.data[0].id}/accept`),
    }
    for (const [name, response] of Object.entries(answers)) {
      expect(response.status, name).toBeLessThan(300)
      expect(privateKeysIn(response.json), name).toEqual([])
      expect(JSON.stringify(response.json), name).not.toContain('5550199')
      expect(JSON.stringify(response.json), name).not.toContain(guest.email!)
    }
  })
})
