import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import type { Channel } from '#contract/chat.ts'
import { createApiHarness, createExperience, createMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { up as backfillHostsInTheirGroups } from '../db/migrations/0027-hosts-in-their-groups.ts'

/**
 * Issue 29 §3: an activity's host is in its group chat from the moment the activity exists (sees
 * attendees' questions in Messages, counted unread, and is told like any member), and an attendee
 * who contacts the host is not a stranger: no message request, no 2-message limit.
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

/** A member whose account is `ageDays` old (400 by default), verified unless told otherwise. */
function member({ ageDays = 400, verified = true, ...overrides }: Partial<NewUser> & { ageDays?: number; verified?: boolean } = {}) {
  return createMember(database.db, { ageDays, verified, ...overrides })
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

function inDays(days: number) {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10)
}

/** An activity made the way hosts make them: `POST v1/experiences`. */
async function hostActivity(host: User) {
  const response = await as(host, 'POST', 'v1/experiences', {
    title: 'Book club',
    start_date: inDays(10),
    start_time: '10:00',
    venue_type: 'online',
    url: 'https://meet.example.com/books',
    max_attendees: 8,
  })
  expect(response.status).toBe(201)
  return response.json.data[0] as { id: string }
}

async function attend(user: User, experienceId: string) {
  expect((await as(user, 'POST', `v1/experiences/${experienceId}/attendees`, { user_id: user.id })).status).toBe(200)
}

async function send(user: User, channelId: string, text: string) {
  return as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
}

/** The member's Messages: their channels and the unread total. */
async function messages(user: User) {
  const response = await as(user, 'GET', 'v1/chat/message-channels')
  expect(response.status).toBe(200)
  return response.json as { data: Channel[]; metadata: { total_unread: number } }
}

const toldOfNewMessages = (user: User) =>
  database.db.selectFrom('notifications').select(['data', 'seen_at']).where('user_id', '=', user.id).where('type', '=', 'message.new').execute()

describe('the host and the activity’s group', () => {
  it('is in the group from the moment the activity exists: it is in their Messages', async () => {
    const host = await member({ first_name: 'Walter' })
    const activity = await hostActivity(host)
    const { data } = await messages(host)
    const group = data.find((channel) => channel.kind === 'experience' && channel.experience?.id === activity.id)
    expect(group).toMatchObject({ is_accepted: true, can_write: true, unread_count: 0 })
    const users = await as(host, 'GET', `message-channels/${group!.id}/users`)
    expect(users.json.data.map((user: { id: string; is_host: boolean }) => [user.id, user.is_host])).toEqual([[host.id, true]])
  })

  it('sees an attendee’s question in Messages with its unread count, and is told, without pressing "Group chat"', async () => {
    const host = await member({ first_name: 'Walter' })
    const guest = await member({ first_name: 'Margaret' })
    const activity = await hostActivity(host)
    await attend(guest, activity.id)
    const joined = await as(guest, 'PUT', `experiences/${activity.id}/message-channels/join`)
    expect(joined.status).toBe(200)
    const groupId = joined.json.data[0].id as string
    expect((await send(guest, groupId, 'Is there parking near the library?')).status).toBe(201)

    const { data, metadata } = await messages(host)
    const group = data.find((channel) => channel.id === groupId)
    expect(group?.unread_count).toBe(1)
    expect(group?.last_messages.map((message) => message.body)).toEqual(['Is there parking near the library?'])
    expect(metadata.total_unread).toBe(1)
    expect(await toldOfNewMessages(host)).toEqual([{ data: { channel_id: groupId, message_id: expect.any(String) }, seen_at: null }])

    // Like any member: once an hour per chat, and reading the chat marks it seen.
    expect((await send(guest, groupId, 'And is it step-free?')).status).toBe(201)
    expect(await toldOfNewMessages(host)).toHaveLength(1)
    expect((await as(host, 'POST', `v1/chat/message-channels/${groupId}/read`)).status).toBe(204)
    expect((await toldOfNewMessages(host))[0]?.seen_at).not.toBeNull()
    expect((await messages(host)).metadata.total_unread).toBe(0)
  })

  it('is in the group whoever opens it first, for an activity that had no group yet', async () => {
    const host = await member({ first_name: 'Walter' })
    const guest = await member({ first_name: 'Margaret' })
    // Made without the service (as older activities were): no group until someone opens it.
    const experience = await createExperience(database.db, host.id, { max_attendees: 10 })
    await attend(guest, experience.id)
    const groupId = (await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)).json.data[0].id as string
    expect((await send(guest, groupId, 'Shall I bring a flask?')).status).toBe(201)
    expect((await messages(host)).data.find((channel) => channel.id === groupId)?.unread_count).toBe(1)
    expect(await toldOfNewMessages(host)).toHaveLength(1)
  })

  it('stays out of the group once they left it themselves', async () => {
    const host = await member()
    const activity = await hostActivity(host)
    const group = (await messages(host)).data.find((channel) => channel.experience?.id === activity.id)!
    expect((await as(host, 'DELETE', `users/message-channels/${group.id}/leave`)).status).toBe(204)
    const guest = await member()
    await attend(guest, activity.id)
    await as(guest, 'PUT', `experiences/${activity.id}/message-channels/join`)
    expect((await messages(host)).data.map((channel) => channel.id)).not.toContain(group.id)
    // "Group chat" brings it back.
    expect((await as(host, 'PUT', `experiences/${activity.id}/message-channels/join`)).status).toBe(200)
    expect((await messages(host)).data.map((channel) => channel.id)).toContain(group.id)
  })
})

describe('"Contact host" from an activity one attends', () => {
  it('opens a conversation the host sees at once, where the attendee writes more than twice before any acceptance', async () => {
    const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
    const guest = await member({ first_name: 'Margaret' })
    const activity = await hostActivity(host)
    await attend(guest, activity.id)

    const opened = await as(guest, 'POST', 'users/message-channels', { user_id: host.id })
    expect(opened.status).toBe(201)
    const channelId = opened.json.data[0].id as string
    expect(opened.json.data[0]).toMatchObject({ is_accepted: true, is_awaiting_acceptance: false, can_write: true })
    // The host sees it at once, as a conversation, not a request.
    expect((await messages(host)).data.find((channel) => channel.id === channelId)).toMatchObject({ is_accepted: true, unread_count: 0 })

    for (const text of ['Hello Walter!', 'Is the book the one on the flyer?', 'I may be five minutes late.']) {
      expect((await send(guest, channelId, text)).status).toBe(201)
    }
    const seen = (await messages(host)).data.find((channel) => channel.id === channelId)
    expect(seen).toMatchObject({ is_accepted: true, unread_count: 3 })
    expect(await toldOfNewMessages(host)).toEqual([{ data: { channel_id: channelId, message_id: expect.any(String) }, seen_at: null }])
  })

  it('turns an earlier message request into a conversation once the member attends', async () => {
    const host = await member()
    const guest = await member()
    const channelId = (await as(guest, 'POST', 'users/message-channels', { user_id: host.id })).json.data[0].id as string
    expect((await messages(host)).data.find((channel) => channel.id === channelId)?.is_accepted).toBe(false)
    await attend(guest, (await hostActivity(host)).id)
    const again = await as(guest, 'POST', 'users/message-channels', { user_id: host.id })
    expect(again.status).toBe(200)
    expect((await messages(host)).data.find((channel) => channel.id === channelId)?.is_accepted).toBe(true)
    for (let n = 1; n <= 3; n++) expect((await send(guest, channelId, `Question ${n}`)).status).toBe(201)
  })

  it('is still a message request of 2 messages from a member who does not attend', async () => {
    const host = await member()
    await hostActivity(host)
    const stranger = await member()
    const channelId = (await as(stranger, 'POST', 'users/message-channels', { user_id: host.id })).json.data[0].id as string
    expect((await messages(host)).data.find((channel) => channel.id === channelId)?.is_accepted).toBe(false)
    expect((await send(stranger, channelId, 'Hello')).status).toBe(201)
    expect((await send(stranger, channelId, 'Hello again')).status).toBe(201)
    expect((await send(stranger, channelId, 'Are you there?')).json.error.code).toBe('awaiting_acceptance')
  })

  it('keeps the link rule for a new or unverified attendee until the host replies', async () => {
    const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
    const newcomer = await member({ ageDays: 2, verified: false })
    const activity = await hostActivity(host)
    await attend(newcomer, activity.id)
    const channelId = (await as(newcomer, 'POST', 'users/message-channels', { user_id: host.id })).json.data[0].id as string
    const refused = await send(newcomer, channelId, 'Is this the library? https://example.org/map')
    expect(refused.status).toBe(422)
    expect(refused.json.error).toMatchObject({ fields: { text: ['links_not_allowed_until_reply'] }, message: 'Links can be shared once Walter B. has replied.' })
    expect((await send(newcomer, channelId, 'Is it the library on Main Street?')).status).toBe(201)
    expect((await send(host, channelId, 'Yes, the one on Main Street.')).status).toBe(201)
    expect((await send(newcomer, channelId, 'Thanks! https://example.org/map')).status).toBe(201)

    // A verified member of long standing shares a link at once.
    const regular = await member()
    await attend(regular, activity.id)
    const theirs = (await as(regular, 'POST', 'users/message-channels', { user_id: host.id })).json.data[0].id as string
    expect((await send(regular, theirs, 'The book: https://example.org/book')).status).toBe(201)
  })
})

describe('the backfill of hosts into their groups (migration 0027)', () => {
  it('makes current hosts members of their activities’ groups, counting what is still open as unread', async () => {
    const host = await member({ first_name: 'Walter' })
    const guest = await member({ first_name: 'Margaret' })
    /** An activity with a group its host never opened, as before the fix, and a question in it. */
    async function groupWithoutHost(startsInDays: number) {
      const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + startsInDays * DAY) })
      await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
      const channel = await database.db
        .insertInto('message_channels')
        .values({ kind: 'experience', experience_id: experience.id, created_by: guest.id })
        .returning('id')
        .executeTakeFirstOrThrow()
      await database.db.insertInto('channel_memberships').values({ channel_id: channel.id, user_id: guest.id, is_accepted: true }).execute()
      await database.db.insertInto('messages').values({ channel_id: channel.id, user_id: guest.id, body: 'Any parking?' }).execute()
      return { experience, channelId: channel.id }
    }
    const upcoming = await groupWithoutHost(5)
    const longPast = await groupWithoutHost(-30)
    const noGroup = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 3 * DAY), created_at: new Date(Date.now() - 2 * DAY) })
    const pastNoGroup = await createExperience(database.db, host.id, { start_at: new Date(Date.now() - 30 * DAY) })
    const hostless = await createExperience(database.db, host.id, { host_id: null, is_hostless: true })
    // A host who left their group themselves stays out.
    const left = await groupWithoutHost(4)
    await database.db.insertInto('channel_memberships').values({ channel_id: left.channelId, user_id: host.id, is_accepted: true, left_at: new Date() }).execute()
    expect((await messages(host)).data).toEqual([])

    await backfillHostsInTheirGroups(database.db as never)
    // Twice is harmless (a migration may be re-run by hand after a failed deploy).
    await backfillHostsInTheirGroups(database.db as never)

    const after = await messages(host)
    const byActivity = new Map(after.data.map((channel) => [channel.experience?.id, channel]))
    expect(byActivity.get(upcoming.experience.id)).toMatchObject({ id: upcoming.channelId, unread_count: 1, is_accepted: true })
    // A chat closed long ago joins the list without filling the badge.
    expect(byActivity.get(longPast.experience.id)).toMatchObject({ id: longPast.channelId, unread_count: 0 })
    // An upcoming activity gets its group, dated from the activity, so old lists keep their order.
    const made = byActivity.get(noGroup.id)
    expect(made).toMatchObject({ kind: 'experience', unread_count: 0, can_write: true })
    const channel = await database.db.selectFrom('message_channels').select('created_at').where('id', '=', made!.id).executeTakeFirstOrThrow()
    expect(channel.created_at).toEqual(noGroup.created_at)
    expect(byActivity.has(pastNoGroup.id)).toBe(false)
    expect(byActivity.has(left.experience.id)).toBe(false)
    expect(after.data).toHaveLength(3)
    expect(after.metadata.total_unread).toBe(1)
    expect(await database.db.selectFrom('message_channels').select('id').where('experience_id', 'in', [pastNoGroup.id, hostless.id]).execute()).toEqual([])
    // Nobody is told by a migration.
    expect(await toldOfNewMessages(host)).toEqual([])
  })
})
