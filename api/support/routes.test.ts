import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createChatMirror } from '#api/chat/mirror.ts'
import { postProductMessage, productChannelId } from '#api/chat/product-messages.ts'
import { readersOf } from '#api/chat/queries.ts'
import type { Channel, ChannelWithMessages } from '#contract/chat.ts'
import type { SupportConversation, SupportConversationWithMessages } from '#contract/support.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/** "Contact the product" and the admins' support inbox (issue 14 §1, decision 039), as API clients see them. */

let database: TestDatabase
let api: ApiHarness
let admin: User

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  admin = await member({ first_name: 'Alice', last_name: 'Adminson', staff_role: 'admin' })
})

afterAll(async () => {
  await database?.drop()
})

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

/** The member opens their support conversation and writes in it, as in the Messenger. */
async function writeToSupport(user: User, text: string) {
  const opened = await as(user, 'POST', 'v1/support/message-channel')
  expect([200, 201]).toContain(opened.status)
  const channel = opened.json.data[0] as Channel
  const sent = await as(user, 'POST', `v1/chat/message-channels/${channel.id}/messages`, { text })
  expect(sent.status).toBe(201)
  return channel.id
}

async function inbox(user: User = admin) {
  const response = await as(user, 'GET', 'v1/admin/support')
  expect(response.status).toBe(200)
  return response.json.data as SupportConversation[]
}

describe('contacting the product', () => {
  it('gives each member one support conversation that they write in like any channel', async () => {
    const ann = await member({ first_name: 'Ann', last_name: 'Baker' })
    const first = await as(ann, 'POST', 'v1/support/message-channel')
    expect(first.status).toBe(201)
    expect(first.json.data[0]).toMatchObject({ kind: 'support', experience: null, other_member: null, can_write: true, is_accepted: true })
    const again = await as(ann, 'POST', 'v1/support/message-channel')
    expect(again.status).toBe(200)
    expect(again.json.data[0].id).toBe(first.json.data[0].id)

    const sent = await as(ann, 'POST', `v1/chat/message-channels/${first.json.data[0].id}/messages`, { text: 'How do I change my city?' })
    expect(sent.status).toBe(201)
    const list = await as(ann, 'GET', 'v1/chat/message-channels')
    expect(list.json.data.map((channel: Channel) => channel.kind)).toContain('support')
    expect(list.json.data.find((channel: Channel) => channel.kind === 'support').last_messages[0].body).toBe('How do I change my city?')
  })

  it('is nobody else’s to read or write: another member gets 404', async () => {
    const ann = await member()
    const bob = await member()
    const channelId = await writeToSupport(ann, 'A private question')
    expect((await as(bob, 'GET', `message-channels/${channelId}`)).status).toBe(404)
    expect((await as(bob, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Hi' })).status).toBe(404)
    expect((await as(bob, 'GET', `message-channels/${channelId}/users`)).status).toBe(404)
    // An admin does not read it as a chat either: only through the support inbox.
    expect((await as(admin, 'GET', `message-channels/${channelId}`)).status).toBe(404)
  })
})

describe('the support inbox', () => {
  it('is for admins only: members get 403, anonymous callers 401', async () => {
    const ann = await member()
    const channelId = await writeToSupport(ann, 'Hello support')
    expect((await as(ann, 'GET', 'v1/admin/support')).status).toBe(403)
    expect((await as(ann, 'GET', `v1/admin/support/${channelId}`)).status).toBe(403)
    expect((await as(ann, 'POST', `v1/admin/support/${channelId}/messages`, { text: 'I am support' })).status).toBe(403)
    expect((await as(ann, 'POST', `v1/admin/support/${channelId}/done`)).status).toBe(403)
    expect((await api.request('GET', 'v1/admin/support')).status).toBe(401)
  })

  it('lets an admin read and answer; the member reads the answer as from support, never the admin’s name, live', async () => {
    const ann = await member({ first_name: 'Ann', last_name: 'Carter' })
    const channelId = await writeToSupport(ann, 'My activity page will not load')

    const opened = await as(admin, 'GET', `v1/admin/support/${channelId}`)
    expect(opened.status).toBe(200)
    const conversation = opened.json.data[0] as SupportConversationWithMessages
    expect(conversation).toMatchObject({ id: channelId, member: { id: ann.id, display_name: 'Ann C.' }, is_waiting: true })
    expect(conversation.messages.map((message) => [message.body, message.from_support])).toEqual([['My activity page will not load', false]])

    const listener = new pg.Client({ connectionString: database.url })
    await listener.connect()
    let answerId: string
    try {
      const notified = new Promise<string | undefined>((resolve) => listener.on('notification', (message) => resolve(message.payload)))
      await listener.query('LISTEN chat')
      const answered = await as(admin, 'POST', `v1/admin/support/${channelId}/messages`, { text: 'Sorry! Try again now.' })
      expect(answered.status).toBe(201)
      expect(answered.json.data[0]).toMatchObject({ body: 'Sorry! Try again now.', from_support: true, answered_by: { id: admin.id } })
      answerId = answered.json.data[0].id
      const event = JSON.parse((await notified) ?? '') as { channel_id: string; message_id: string; seq: number }
      expect(event).toMatchObject({ channel_id: channelId, message_id: answerId })
      // The realtime hub wakes the member's streams (and nobody else's) for it.
      const bystander = await member()
      expect(await readersOf(database.db, event.seq, [ann.id, bystander.id, admin.id])).toEqual([ann.id])
    } finally {
      await listener.end()
    }

    const seen = await as(ann, 'GET', `message-channels/${channelId}`)
    const channel = seen.json.data[0] as ChannelWithMessages
    const answer = channel.messages.find((message) => message.id === answerId)
    expect(answer).toMatchObject({ sender: null, is_system: true, body: 'Sorry! Try again now.' })
    expect(JSON.stringify(seen.json)).not.toMatch(/Alice|Adminson|Admin/)
    expect(JSON.stringify(seen.json)).not.toContain(admin.id)
    expect(channel.unread_count).toBe(1)
    expect(channel.can_write).toBe(true)
    // And is told of the answer like of any message (decision 047).
    const told = await database.db.selectFrom('notifications').select('data').where('user_id', '=', ann.id).where('type', '=', 'message.new').execute()
    expect(told.map((row) => row.data)).toEqual([{ channel_id: channelId, message_id: answerId! }])

    // The member can reply to support (unlike the product's own messages).
    expect((await as(ann, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'It works, thank you' })).status).toBe(201)
  })

  it('lists waiting conversations first, then the newest; answering or "done" stops the wait until the member writes again', async () => {
    const ann = await member()
    const bob = await member()
    const cat = await member()
    const annChannel = await writeToSupport(ann, 'First question')
    const bobChannel = await writeToSupport(bob, 'Second question')
    const catChannel = await writeToSupport(cat, 'Third question')
    expect((await as(admin, 'POST', `v1/admin/support/${bobChannel}/messages`, { text: 'Answered' })).status).toBe(201)
    const done = await as(admin, 'POST', `v1/admin/support/${catChannel}/done`)
    expect(done.status).toBe(200)
    expect(done.json.data[0]).toMatchObject({ id: catChannel, is_waiting: false })

    let ids = (await inbox()).map((conversation) => conversation.id)
    expect(ids.indexOf(annChannel)).toBeLessThan(ids.indexOf(bobChannel))
    expect(ids.indexOf(annChannel)).toBeLessThan(ids.indexOf(catChannel))
    // Answered most recently: newer than the "done" one among those not waiting.
    expect(ids.indexOf(bobChannel)).toBeLessThan(ids.indexOf(catChannel))
    const bobRow = (await inbox()).find((conversation) => conversation.id === bobChannel)
    expect(bobRow).toMatchObject({ is_waiting: false, last_message: { body: 'Answered', from_support: true } })

    await as(cat, 'POST', `v1/chat/message-channels/${catChannel}/messages`, { text: 'One more thing' })
    ids = (await inbox()).map((conversation) => conversation.id)
    expect(ids[0]).toBe(catChannel)
  })

  it('never opens another chat: a direct or product channel id is not a support conversation (404)', async () => {
    const ann = await member()
    const bob = await member()
    const direct = await as(ann, 'POST', 'users/message-channels', { user_id: bob.id })
    expect((await as(admin, 'GET', `v1/admin/support/${direct.json.data[0].id}`)).status).toBe(404)
    expect((await as(admin, 'POST', `v1/admin/support/${direct.json.data[0].id}/messages`, { text: 'Hi' })).status).toBe(404)
    expect((await as(admin, 'GET', 'v1/admin/support/not-a-uuid')).status).toBe(404)
  })

  it('refuses an empty or overlong answer with field codes', async () => {
    const ann = await member()
    const channelId = await writeToSupport(ann, 'Question')
    const empty = await as(admin, 'POST', `v1/admin/support/${channelId}/messages`, { text: '   ' })
    expect(empty.status).toBe(422)
    const long = await as(admin, 'POST', `v1/admin/support/${channelId}/messages`, { text: 'x'.repeat(2001) })
    expect(long.status).toBe(422)
  })
})

describe('the product channel', () => {
  it('stays read-only: product messages cannot be replied to, and it is not a support conversation', async () => {
    const ann = await member()
    const productId = await database.db.transaction().execute(async (trx) => {
      const id = await productChannelId(trx, ann.id)
      await postProductMessage(trx, createChatMirror({}), id, { key: 'hostCancelled' })
      return id
    })
    const refused = await as(ann, 'POST', `v1/chat/message-channels/${productId}/messages`, { text: 'Reply' })
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('product_messages')
    expect((await as(admin, 'GET', `v1/admin/support/${productId}`)).status).toBe(404)
    const support = await as(ann, 'POST', 'v1/support/message-channel')
    expect(support.json.data[0].id).not.toBe(productId)
  })
})
