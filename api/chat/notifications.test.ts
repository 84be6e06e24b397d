import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createApiHarness, createExperience, createUser, testDeliveryDeps, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { deliverNotification } from '../notifications/delivery.ts'

/**
 * `message.new` (issue 15 §1, decision 047): a new message tells the channel's other members,
 * batched to one per member and channel an hour, never while the member is reading it, never
 * from someone the member blocked.
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

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

const newMessages = (user: User) =>
  database.db.selectFrom('notifications').select(['id', 'data', 'seen_at']).where('user_id', '=', user.id).where('type', '=', 'message.new').execute()

/** An activity chat with its host and one attendee in it. */
async function activityChat() {
  const [host, guest] = [await createUser(database.db, { first_name: 'Walter' }), await createUser(database.db, { first_name: 'Margaret' })]
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * 86_400_000), max_attendees: 10 })
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
  const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
  await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)
  return { host, guest, channelId: joined.json.data[0].id as string }
}

describe('message.new', () => {
  it('tells the other members once an hour per channel, not the sender', async () => {
    const { host, guest, channelId } = await activityChat()
    const first = await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'See you at the gate' })
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Bring water' })
    expect(await newMessages(guest)).toEqual([{ id: expect.any(String), data: { channel_id: channelId, message_id: first.json.data[0].id }, seen_at: null }])
    expect(await newMessages(host)).toEqual([])
    const [told] = await newMessages(guest)
    expect(api.queuedJobs.some((queued) => (queued.data as { id?: string }).id === told!.id)).toBe(true)
    // The guest answers: the host is told.
    await as(guest, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Will do' })
    expect(await newMessages(host)).toHaveLength(1)
  })

  it('tells again about a message that comes after the member read the chat, within the hour', async () => {
    const { host, guest, channelId } = await activityChat()
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Shall we meet at the gate?' })
    await as(guest, 'POST', `v1/chat/message-channels/${channelId}/read`)
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Or by the fountain?' })
    const told = await newMessages(guest)
    expect(told).toHaveLength(2)
    expect(told.filter((row) => row.seen_at === null)).toHaveLength(1)
  })

  it('sends no email once the member has read the chat, and reading marks the notification seen', async () => {
    const { host, guest, channelId } = await activityChat()
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Parking is behind the library' })
    const [told] = await newMessages(guest)
    expect((await as(guest, 'POST', `v1/chat/message-channels/${channelId}/read`)).status).toBeLessThan(300)
    expect((await newMessages(guest))[0]?.seen_at).not.toBeNull()
    expect((await deliverNotification(testDeliveryDeps(database.db), told!.id))?.sent).toEqual([])
    expect(await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', guest.email!).execute()).toEqual([])
  })

  it('emails a member who has not read it, with the way to the chat', async () => {
    const { host, guest, channelId } = await activityChat()
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Meet at ten' })
    const [told] = await newMessages(guest)
    expect((await deliverNotification(testDeliveryDeps(database.db), told!.id))?.sent).toEqual(['email'])
    const [email] = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', guest.email!).execute()
    expect(email?.text_body).toContain(`/messenger?channel=${channelId}`)
    expect(email?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  })

  it('says who wrote, by display name only, in the list and the email; never the message itself in an email (issue 29 §4)', async () => {
    const { host, guest, channelId } = await activityChat()
    await database.db.updateTable('users').set({ last_name: 'Brooks' }).where('id', '=', host.id).execute()
    const { experience_id: experienceId } = await database.db.selectFrom('message_channels').select('experience_id').where('id', '=', channelId).executeTakeFirstOrThrow()
    await database.db.updateTable('experiences').set({ title: 'Riverside walk' }).where('id', '=', experienceId!).execute()
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'My bank details are below' })
    const listed = (await as(guest, 'GET', 'users/notifications')).json.data as { type: string; title: string; body: string }[]
    const told = listed.find((n) => n.type === 'message.new')
    expect(told).toMatchObject({ title: 'Walter B. wrote in the group chat of “Riverside walk”', body: 'Open Messages to read the message from Walter B. and answer.' })

    // Push and texts carry the same title and body as the list (api/notifications/delivery.ts).
    const [row] = await newMessages(guest)
    expect((await deliverNotification(testDeliveryDeps(database.db), row!.id))?.sent).toEqual(['email'])
    const [email] = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', guest.email!).execute()
    expect(email?.subject).toBe('Walter B. wrote in the group chat of “Riverside walk”')
    expect(email?.text_body).toContain('Walter B.')
    expect(email?.text_body).not.toContain('bank details')
    expect(email?.html_body ?? '').not.toContain('bank details')
  })

  it('names the writer of a direct message in the reader’s language, and Circle 55 support for an answer from the team', async () => {
    const [ann, bob] = [await createUser(database.db, { first_name: 'Annick', last_name: 'Dupont', locale: 'fr' }), await createUser(database.db, { first_name: 'Bob', last_name: 'Li', locale: 'nl' })]
    const direct = (await as(ann, 'POST', 'users/message-channels', { user_id: bob.id })).json.data[0].id as string
    await as(ann, 'POST', `v1/chat/message-channels/${direct}/messages`, { text: 'Bonjour Bob' })
    await as(bob, 'PUT', `v1/chat/message-channels/${direct}/accept`)
    await as(bob, 'POST', `v1/chat/message-channels/${direct}/messages`, { text: 'Hallo Annick' })
    const titleFor = async (user: User) =>
      ((await as(user, 'GET', 'users/notifications')).json.data as { type: string; title: string; body: string }[]).find((n) => n.type === 'message.new')
    expect(await titleFor(bob)).toMatchObject({ title: 'Annick D. heeft u geschreven', body: 'Open Berichten om het bericht van Annick D. te lezen en te beantwoorden.' })
    expect(await titleFor(ann)).toMatchObject({ title: 'Bob Li vous a écrit', body: 'Ouvrez Messages pour lire le message de Bob Li et y répondre.' })

    // An answer from the team (no author), and a writer who has since been suspended.
    const team = await createUser(database.db, { first_name: 'Carol' })
    const support = await database.db.insertInto('message_channels').values({ kind: 'support', created_by: team.id }).returning('id').executeTakeFirstOrThrow()
    const answer = await database.db.insertInto('messages').values({ channel_id: support.id, user_id: null, is_system: true, body: 'We are here', answered_by: team.id }).returning('id').executeTakeFirstOrThrow()
    const gone = await createUser(database.db, { first_name: 'Victor', last_name: 'Lane' })
    const theirs = await database.db.insertInto('messages').values({ channel_id: direct, user_id: gone.id, body: 'Hello' }).returning('id').executeTakeFirstOrThrow()
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', gone.id).execute()
    const reader = await createUser(database.db)
    for (const [channel, message] of [[support.id, answer.id], [direct, theirs.id]] as const)
      await database.db.insertInto('notifications').values({ user_id: reader.id, type: 'message.new', data: JSON.stringify({ channel_id: channel, message_id: message }) }).execute()
    const texts = ((await as(reader, 'GET', 'users/notifications')).json.data as { title: string; body: string }[]).map((n) => `${n.title} / ${n.body}`).sort()
    expect(texts).toEqual([
      'A Circle 55 member wrote to you / Open Messages to read the message and answer.',
      'Circle 55 support wrote to you / Open Messages to read the answer from Circle 55 support.',
    ])
  })

  it('never tells a member about a message from someone they blocked', async () => {
    const { host, guest, channelId } = await activityChat()
    expect((await as(guest, 'PUT', `v1/block/${host.id}`)).status).toBeLessThan(300)
    await as(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Hello again' })
    expect(await newMessages(guest)).toEqual([])
  })
})
