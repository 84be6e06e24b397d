import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import type { Channel, ChannelWithMessages, ChatUser } from '#contract/chat.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { readableMessagesAfter, readersOf } from './queries.ts'

/**
 * What a block changes in chat (issue 14 §4, decision 034): the blocker no longer sees the blocked
 * member's messages in activity chats (unless they ask to), nor finds them in the new-message
 * search; the blocked member is never told.
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

const DAY = 86_400_000

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

async function seat(experienceId: string, user: User) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: user.id }).execute()
}

async function send(user: User, channelId: string, text: string) {
  const response = await as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
  expect(response.status).toBe(201)
  return response.json.data[0] as { id: string }
}

async function read(user: User, channelId: string, query = '') {
  const response = await as(user, 'GET', `message-channels/${channelId}${query}`)
  expect(response.status).toBe(200)
  return response.json.data[0] as ChannelWithMessages
}

async function listed(user: User, channelId: string) {
  const response = await as(user, 'GET', 'v1/chat/message-channels')
  expect(response.status).toBe(200)
  const body = response.json as { data: Channel[]; metadata: { total_unread: number } }
  return { channel: body.data.find((channel) => channel.id === channelId), totalUnread: body.metadata.total_unread }
}

const bodies = (messages: Array<{ body: string }>) => messages.map((message) => message.body)

describe('an activity chat with a member one blocked', () => {
  it('hides their messages from the page, the list, unread counts and the live stream, and shows them on request', async () => {
    const host = await member({ first_name: 'Walter' })
    const ann = await member({ first_name: 'Ann' })
    const bob = await member({ first_name: 'Bob' })
    const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * DAY), max_attendees: 10 })
    await seat(experience.id, ann)
    await seat(experience.id, bob)
    const channelId = (await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)).json.data[0].id as string
    for (const who of [ann, bob]) expect((await as(who, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
    expect((await as(ann, 'PUT', `v1/block/${bob.id}`)).status).toBe(200)
    const before = (await readableMessagesAfter(database.db, ann.id, 0, 1000)).at(-1)?.seq ?? 0

    await send(host, channelId, 'Meet at the gate')
    const first = await send(bob, channelId, 'Hello all')
    const second = await send(bob, channelId, 'See you there')

    const page = await read(ann, channelId)
    expect(bodies(page.messages)).toEqual(['Meet at the gate'])
    expect(page).toMatchObject({ hidden_count: 2, blocked_message_ids: [] })
    const { channel, totalUnread } = await listed(ann, channelId)
    expect(bodies(channel?.last_messages ?? [])).toEqual(['Meet at the gate'])
    expect(channel?.unread_count).toBe(1)
    expect(totalUnread).toBe(1)
    const live = await readableMessagesAfter(database.db, ann.id, before, 100)
    expect(bodies(live)).toEqual(['Meet at the gate'])
    const seqOf = async (id: string) => (await database.db.selectFrom('messages').select('seq').where('id', '=', id).executeTakeFirstOrThrow()).seq
    expect((await readersOf(database.db, Number(await seqOf(first.id)), [ann.id, host.id])).sort()).toEqual([host.id].sort())

    // Asked for: every message, the blocked member's marked.
    const shown = await read(ann, channelId, '?show_blocked=true')
    expect(bodies(shown.messages)).toEqual(['Meet at the gate', 'Hello all', 'See you there'])
    expect(shown.blocked_message_ids.sort()).toEqual([first.id, second.id].sort())
    expect(shown.hidden_count).toBe(2)

    // Nobody else is affected, and the blocked member is told nothing.
    for (const other of [host, bob]) {
      const theirs = await read(other, channelId)
      expect(bodies(theirs.messages)).toEqual(['Meet at the gate', 'Hello all', 'See you there'])
      expect(theirs).toMatchObject({ hidden_count: 0, blocked_message_ids: [] })
    }

    // Unblocking brings them back.
    expect((await as(ann, 'DELETE', `v1/block/${bob.id}`)).status).toBe(204)
    const after = await read(ann, channelId)
    expect(after.hidden_count).toBe(0)
    expect(bodies(after.messages)).toHaveLength(3)
  })

  it('keeps a direct conversation’s history for the blocker: it closes, nothing is hidden', async () => {
    const [ann, bob] = [await member(), await member()]
    const channelId = (await as(ann, 'POST', 'users/message-channels', { user_id: bob.id })).json.data[0].id as string
    await send(ann, channelId, 'Hi Bob')
    await send(bob, channelId, 'Hi Ann')
    await as(ann, 'PUT', `v1/block/${bob.id}`)
    const page = await read(ann, channelId)
    expect(bodies(page.messages)).toEqual(['Hi Bob', 'Hi Ann'])
    expect(page).toMatchObject({ hidden_count: 0, can_write: false, cannot_write_reason: 'blocked' })
    // The blocked side reads what a suspended member's conversation says: not that they were blocked.
    expect(await read(bob, channelId)).toMatchObject({ can_write: false, cannot_write_reason: 'recipient_unavailable' })
    const refused = await as(bob, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Why?' })
    expect([refused.status, refused.json.error.code]).toEqual([403, 'recipient_suspended'])
  })
})

describe('GET v1/chat/users (new-message search)', () => {
  async function search(user: User, query = '') {
    const response = await as(user, 'GET', `v1/chat/users${query}`)
    expect(response.status).toBe(200)
    return response.json as { data: ChatUser[]; metadata: { total_count: number } }
  }

  it('lists members one met first, then members near by; leaves out blocks, suspended, banned and deleted members', async () => {
    const here = { lat: 45.52, long: -122.68 }
    const viewer = await member({ first_name: 'Vera', ...here })
    const host = await member({ first_name: 'Zoe', last_name: 'Hill' })
    const attendee = await member({ first_name: 'Yann' })
    const writer = await member({ first_name: 'Xavier' })
    const nearby = await member({ first_name: 'Alice', ...here })
    const stranger = await member({ first_name: 'Aaron' })
    const iBlocked = await member({ first_name: 'Bella' })
    const blockedMe = await member({ first_name: 'Carl' })
    const suspended = await member({ first_name: 'Dora', is_suspended: true })
    const banned = await member({ first_name: 'Eve', banned: true })
    const deleted = await member({ first_name: 'Fay', state: 'deleted' })
    for (const [user, interest] of [
      [viewer, 'chess'],
      [nearby, 'chess'],
    ] as const) {
      await database.db.insertInto('user_interests').values({ user_id: user.id, interest }).execute()
    }
    // A coming activity hosted by Zoe with the viewer and others seated; Xavier wrote to the viewer.
    const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 3 * DAY), max_attendees: 20 })
    for (const user of [viewer, attendee, iBlocked, blockedMe, suspended, banned, deleted]) await seat(experience.id, user)
    expect((await as(writer, 'POST', 'users/message-channels', { user_id: viewer.id })).status).toBe(201)
    await database.db
      .insertInto('blocks')
      .values([
        { blocker_id: viewer.id, blocked_id: iBlocked.id },
        { blocker_id: blockedMe.id, blocked_id: viewer.id },
      ])
      .execute()

    const found = await search(viewer)
    expect(found.data.map((user) => user.display_name)).toEqual(['Xavier B.', 'Yann B.', 'Zoe H.', 'Alice B.'])
    expect(found.data.map((user) => user.has_met)).toEqual([true, true, true, false])
    expect(found.data.map((user) => user.id)).not.toContain(stranger.id)
    expect(found.metadata.total_count).toBe(4)

    // Paged like every list.
    const second = await search(viewer, '?per_page=2&page=2')
    expect(second.data.map((user) => user.display_name)).toEqual(['Zoe H.', 'Alice B.'])

    // The member chose to see the members they blocked: listed, and marked; never who blocked them.
    await as(viewer, 'PUT', 'v1/users/me', { show_blocked_in_chat_search: true })
    expect((await as(viewer, 'GET', 'v1/users/me')).json.data[0].show_blocked_in_chat_search).toBe(true)
    const withBlocked = await search(viewer)
    expect(withBlocked.data.map((user) => [user.display_name, user.is_blocked])).toEqual([
      ['Bella B.', true],
      ['Xavier B.', false],
      ['Yann B.', false],
      ['Zoe H.', false],
      ['Alice B.', false],
    ])
    await as(viewer, 'PUT', 'v1/users/me', { show_blocked_in_chat_search: false })

    // The one who was blocked does not find the blocker.
    expect((await search(iBlocked, '?name=vera')).data).toEqual([])
  })

  it('matches the start of the first name, ignoring case and accents, never the last name', async () => {
    const viewer = await member({ first_name: 'Vera' })
    const host = await member({ first_name: 'Hélène', last_name: 'Martin' })
    const other = await member({ first_name: 'Martin', last_name: 'Gros' })
    const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 3 * DAY), max_attendees: 20 })
    for (const user of [viewer, other]) await seat(experience.id, user)
    expect((await search(viewer, '?name=HEL')).data.map((user) => user.id)).toEqual([host.id])
    expect((await search(viewer, '?name=mart')).data.map((user) => user.id)).toEqual([other.id])
    expect((await search(viewer, '?name=gros')).data).toEqual([])
  })
})
