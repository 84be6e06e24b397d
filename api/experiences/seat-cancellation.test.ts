import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { smsReplyHint } from '#api/sms/service.ts'
import { createSmsSender } from '#api/providers/sms/sender.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { STREAM_TEST_BASE_URL, streamHandlers } from '#tests/msw/stream.ts'

/**
 * Issue 30 §2 (decision 072): a seat given back is the same change whatever the entry point. The
 * member's own cancellation (the web's form and the API's call are one endpoint), the host taking
 * the seat back, a texted "C" and the member deleting their account each leave the same state:
 * the seat with the first member of the notify list, the same notifications to the same members,
 * the member out of the activity's chat in the database and at Stream (the chat vendor's copy,
 * recorded by the service in its transaction and worked as the queue works it at the commit).
 */
const stream = streamHandlers({ apiKey: 'stream_test_key', apiSecret: 'stream_test_secret_that_is_long_enough' })
const server = setupServer(...stream.handlers)
let database: TestDatabase
let api: ApiHarness
let phoneSeq = 0

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {
    STREAM_API_KEY: 'stream_test_key',
    STREAM_API_SECRET: 'stream_test_secret_that_is_long_enough',
    STREAM_BASE_URL: STREAM_TEST_BASE_URL,
  })
})
beforeEach(() => stream.reset())
afterAll(async () => {
  server.close()
  await database?.drop()
})

const DAY = 86_400_000

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, { phone: `+1503556${String(phoneSeq++).padStart(4, '0')}`, phone_confirmed_at: new Date(), ...overrides })
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

/**
 * A one-seat activity five days ahead: `attendee` holds the seat and is in its chat with the
 * host, `waiting` is first on the notify list, and a reminder was texted to `attendee`.
 */
async function scene() {
  const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  const attendee = await member({ first_name: 'Margaret', last_name: 'Hughes' })
  const waiting = await member({ first_name: 'Éloïse', last_name: 'Van den Broeck' })
  const experience = await createExperience(database.db, host.id, { max_attendees: 1, start_at: new Date(Date.now() + 5 * DAY) })
  const joined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
  expect((await as(attendee, 'POST', `v1/experiences/${experience.id}/attendees`, { user_id: attendee.id })).status).toBe(200)
  expect((await as(attendee, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)
  expect((await as(waiting, 'POST', `v1/experiences/${experience.id}/waitlist`)).status).toBeLessThan(300)
  await createSmsSender({ db: database.db }).send({ userId: attendee.id, text: `Reminder. ${smsReplyHint('en')}`, kind: 'reminder', locale: 'en', experienceId: experience.id })
  const channelId = joined.json.data[0].id as string
  expect([...(stream.channels.get(`messaging:${channelId}`)?.members ?? [])].sort()).toEqual([attendee.stream_id, host.stream_id].sort())
  return { host, attendee, waiting, experience, channelId }
}

type Scene = Awaited<ReturnType<typeof scene>>

/** What members and Stream see after the seat was given back, in the scene's own words (host, attendee, waiting). */
async function stateAfter({ host, attendee, waiting, experience, channelId }: Scene) {
  const role = (id: string | null | undefined) => (id === host.id ? 'host' : id === attendee.id ? 'attendee' : id === waiting.id ? 'waiting' : id)
  const roleOfStream = (streamId: string) => (streamId === host.stream_id ? 'host' : streamId === attendee.stream_id ? 'attendee' : streamId === waiting.stream_id ? 'waiting' : streamId)
  const db = database.db
  const [seats, waitlist, cancellations, notifications, chat, row] = await Promise.all([
    db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).execute(),
    db.selectFrom('waitlist_entries').select('user_id').where('experience_id', '=', experience.id).execute(),
    db.selectFrom('attendance_cancellations').select(['user_id', 'is_late']).where('experience_id', '=', experience.id).execute(),
    db
      .selectFrom('notifications')
      .select(['user_id', 'type', 'data'])
      .where('user_id', 'in', [host.id, attendee.id, waiting.id])
      .where('type', 'in', ['experience.attendee_left', 'experience.attendee_joined', 'waitlist.selected', 'waitlist.seat_available'])
      .execute(),
    db.selectFrom('channel_memberships').select('user_id').where('channel_id', '=', channelId).where('left_at', 'is', null).execute(),
    db.selectFrom('experiences').select('attendees_count').where('id', '=', experience.id).executeTakeFirstOrThrow(),
  ])
  return {
    seats: seats.map((seat) => role(seat.user_id)),
    attendees_count: row.attendees_count,
    notify_list: waitlist.map((entry) => role(entry.user_id)),
    cancellations: cancellations.map((cancellation) => ({ member: role(cancellation.user_id), late: cancellation.is_late })),
    notifications: notifications
      .map((notification) => `${role(notification.user_id)}: ${notification.type} ${role((notification.data as { attendee_id?: string }).attendee_id) ?? ''}`.trim())
      .sort(),
    chat_in_database: chat.map((membership) => role(membership.user_id)).sort(),
    chat_at_stream: [...(stream.channels.get(`messaging:${channelId}`)?.members ?? [])].map(roleOfStream).sort(),
  }
}

const entryPoints: Record<string, (scene: Scene) => Promise<{ status: number }>> = {
  'the member, on the activity’s page or through the API': ({ attendee, experience }) => as(attendee, 'DELETE', `v1/experiences/${experience.id}/attendees/${attendee.id}`),
  'the host': ({ host, attendee, experience }) => as(host, 'DELETE', `v1/experiences/${experience.id}/attendees/${attendee.id}`),
  'a texted "C"': ({ attendee }) =>
    api.request('POST', 'v1/sms/inbound', {
      body: new URLSearchParams({ From: attendee.phone!, Body: 'C' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  'deleting the account': ({ attendee }) => as(attendee, 'DELETE', `v1/users/${attendee.id}`),
}

describe('a seat given back (issue 30 §2)', () => {
  it('leaves the seat, the notify list, notifications and both copies of the chat the same, whatever the entry point', async () => {
    const states: Record<string, unknown> = {}
    for (const [entryPoint, giveBack] of Object.entries(entryPoints)) {
      const current = await scene()
      const response = await giveBack(current)
      expect(response.status, entryPoint).toBeLessThan(300)
      states[entryPoint] = await stateAfter(current)
    }
    const expected = {
      seats: ['waiting'],
      attendees_count: 1,
      notify_list: [],
      cancellations: [{ member: 'attendee', late: false }],
      // The host heard that the attendee joined and left, then that the waiting member took the seat.
      notifications: ['host: experience.attendee_joined attendee', 'host: experience.attendee_joined waiting', 'host: experience.attendee_left attendee', 'waiting: waitlist.selected'],
      chat_in_database: ['host'],
      chat_at_stream: ['host'],
    }
    // A deleted member's cancellations go with their other data (api/users/member-data.ts).
    const deleted = { ...expected, cancellations: [] }
    for (const entryPoint of Object.keys(entryPoints)) {
      expect({ entryPoint, ...(states[entryPoint] as object) }).toEqual({ entryPoint, ...(entryPoint === 'deleting the account' ? deleted : expected) })
    }
  })
})
