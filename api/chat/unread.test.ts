import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { unreadTotals } from './queries.ts'

/**
 * The live streams' unread totals (`unreadTotals`, sent after the messages they deliver) is its own
 * lean query; it must count exactly what the channel list's `metadata.total_unread` counts, the
 * header badge's figure without JavaScript, in every situation the list's rules know.
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

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

async function send(user: User, channelId: string, text: string) {
  const response = await as(user, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text })
  expect(response.status).toBe(201)
}

/** The badge both ways: the list's total and the stream's query agree, and equal `expected`. */
async function expectUnread(user: User, expected: number) {
  const response = await as(user, 'GET', 'v1/chat/message-channels')
  expect(response.status).toBe(200)
  expect(response.json.metadata.total_unread).toBe(expected)
  // The badge's call: the same totals without the channels.
  const badge = await as(user, 'GET', 'v1/chat/message-channels?exclude_results=true')
  expect(badge.json).toEqual({ data: [], metadata: { ...response.json.metadata, page: 1 } })
  expect((await unreadTotals(database.db, [user.id])).get(user.id)).toBe(expected)
}

describe('the unread total', () => {
  it('counts what the channel list counts, through reads, leaving, blocks, bans and a cancelled seat', async () => {
    const me = await member({ first_name: 'Ann' })
    const host = await member({ first_name: 'Walter' })
    const other = await member({ first_name: 'Bob' })
    const friend = await member({ first_name: 'Carla' })
    const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * 86_400_000), max_attendees: 10 })
    for (const who of [me, other]) {
      await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: who.id }).execute()
    }
    const activity = (await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)).json.data[0].id as string
    for (const who of [me, other]) expect((await as(who, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
    await expectUnread(me, 0)

    // Others' messages count, one's own do not (and sending reads what came before).
    await send(me, activity, 'See you there')
    await send(host, activity, 'Meet at the gate')
    await send(other, activity, 'Hello all')
    await expectUnread(me, 2)

    // A direct message request from a friend counts too; reading the channel clears it.
    const direct = (await as(friend, 'POST', 'users/message-channels', { user_id: me.id })).json.data[0].id as string
    await send(friend, direct, 'Coffee on Friday?')
    await expectUnread(me, 3)
    expect((await as(me, 'POST', `v1/chat/message-channels/${direct}/read`)).status).toBe(204)
    await expectUnread(me, 2)

    // A left direct channel is not listed; a new message brings it back with only what is new.
    expect((await as(me, 'DELETE', `users/message-channels/${direct}/leave`)).status).toBe(204)
    await expectUnread(me, 2)
    await send(friend, direct, 'Are you there?')
    await expectUnread(me, 3)

    // A member one blocks: their messages in the activity's chat are hidden, and not counted.
    expect((await as(me, 'PUT', `v1/block/${other.id}`)).status).toBe(200)
    await expectUnread(me, 2)
    expect((await as(me, 'DELETE', `v1/block/${other.id}`)).status).toBe(204)
    await expectUnread(me, 3)

    // A banned member's messages are filtered from every count.
    await database.db.updateTable('users').set({ banned: true }).where('id', '=', other.id).execute()
    await expectUnread(me, 2)

    // A cancelled seat: the activity's chat leaves the list, and what comes after does not count.
    expect((await as(me, 'DELETE', `v1/experiences/${experience.id}/attendees/${me.id}`)).status).toBe(200)
    await expectUnread(me, 1)
    await send(host, activity, 'One seat is free again')
    await expectUnread(me, 1)

    // The host reads the activity's chat without attending; their own message read what came before.
    await expectUnread(host, 0)
    await database.db.updateTable('users').set({ banned: false }).where('id', '=', other.id).execute()
    await send(other, activity, 'Thank you, host')
    await expectUnread(host, 1)

    // Counted for many members at once (the live streams' way), each as alone.
    const everyone = [me, host, other, friend, await member()]
    const alone = await Promise.all(everyone.map(async (who) => [who.id, (await unreadTotals(database.db, [who.id])).get(who.id)] as const))
    expect(alone.map(([, count]) => count)).toEqual([1, 1, 0, 0, 0])
    expect(await unreadTotals(database.db, everyone.map((who) => who.id))).toEqual(new Map(alone))
  })
})
