import { randomBytes } from 'node:crypto'
import { sql, type Insertable } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExperiencesTable, User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * Issue 12 §5 and §2: a member's activities say where they stand (going, their place on the
 * notify list, hosting, cancelled), a cancelled activity says by whom and when, and the host of a
 * full activity is never offered its notify list.
 */
const DAY = 24 * 3_600_000

let database: TestDatabase
let api: ApiHarness
let host: User
let hostToken: string
let adminToken: string

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
  hostToken = await api.signToken(host.id)
  adminToken = await api.signToken((await createUser(database.db, { staff_role: 'admin' })).id)
})

afterAll(async () => {
  await database?.drop()
})

async function member() {
  const user = await createUser(database.db)
  return { user, token: await api.signToken(user.id) }
}

async function insertExperience(overrides: Partial<Insertable<ExperiencesTable>> = {}) {
  const start = new Date(Date.now() + 5 * DAY)
  return database.db
    .insertInto('experiences')
    .values({
      slug: `walk-${randomBytes(4).toString('hex')}`,
      title: 'Riverside walk',
      venue_type: 'online',
      url: 'https://example.com/meet',
      host_id: host.id,
      timezone: 'America/Los_Angeles',
      start_at: start,
      end_at: new Date(start.getTime() + 3_600_000),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

async function seat(experienceId: string, userIds: string[]) {
  for (const userId of userIds) {
    await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: userId }).execute()
  }
  await database.db
    .updateTable('experiences')
    .set({ attendees_count: sql`attendees_count + ${userIds.length}` })
    .where('id', '=', experienceId)
    .execute()
}

async function joinWaitlist(experienceId: string, token: string) {
  const response = await api.request('POST', `v1/experiences/${experienceId}/waitlist`, { token })
  expect(response.status).toBe(200)
}

interface Listed {
  id: string
  canceled: { at: string; by: { role: string; display_name: string | null } } | null
  viewer: { is_attending: boolean; is_host: boolean; waitlist_position: number | null; can_join_waitlist: boolean }
}

async function myActivities(userId: string, token: string, query = '') {
  const response = await api.request('GET', `v1/users/${userId}/experiences${query}`, { token })
  expect(response.status).toBe(200)
  return response.json.data as Listed[]
}

describe('a member’s activities (GET v1/users/{id}/experiences, issue 12 §5)', () => {
  it('lists every state the member is in: going, on the notify list with the place, hosting, cancelled by the host', async () => {
    const { user, token } = await member()
    const going = await insertExperience({ start_at: new Date(Date.now() + 1 * DAY) })
    await seat(going.id, [user.id])
    const waiting = await insertExperience({ start_at: new Date(Date.now() + 2 * DAY), max_attendees: 1 })
    await seat(waiting.id, [(await createUser(database.db)).id])
    await joinWaitlist(waiting.id, (await member()).token)
    await joinWaitlist(waiting.id, token)
    const hosting = await insertExperience({ start_at: new Date(Date.now() + 3 * DAY), host_id: user.id })
    const cancelled = await insertExperience({ start_at: new Date(Date.now() + 4 * DAY) })
    await seat(cancelled.id, [user.id])
    expect((await api.request('DELETE', `v1/experiences/${cancelled.id}`, { token: hostToken })).status).toBe(204)
    // On the notify list of an activity that was then cancelled: nothing to wait for, not listed.
    const waitedThenCancelled = await insertExperience({ max_attendees: 1 })
    await seat(waitedThenCancelled.id, [(await createUser(database.db)).id])
    await joinWaitlist(waitedThenCancelled.id, token)
    expect((await api.request('DELETE', `v1/experiences/${waitedThenCancelled.id}`, { token: hostToken })).status).toBe(204)

    const listed = await myActivities(user.id, token)
    expect(listed.map((e) => e.id)).toEqual([going.id, waiting.id, hosting.id, cancelled.id])
    const [a, b, c, d] = listed
    expect(a).toMatchObject({ canceled: null, viewer: { is_attending: true, is_host: false, waitlist_position: null } })
    expect(b).toMatchObject({ canceled: null, viewer: { is_attending: false, waitlist_position: 2, can_join_waitlist: false } })
    expect(c).toMatchObject({ canceled: null, viewer: { is_host: true } })
    expect(d).toMatchObject({ canceled: { at: expect.any(String), by: { role: 'host', display_name: 'Walter B.' } }, viewer: { is_attending: true } })
  })

  it('keeps the host’s own cancelled activity under "only the ones I host"', async () => {
    const { user, token } = await member()
    const hosted = await insertExperience({ host_id: user.id })
    expect((await api.request('DELETE', `v1/experiences/${hosted.id}`, { token })).status).toBe(204)
    const listed = await myActivities(user.id, token, '?hosting=true')
    expect(listed).toEqual([expect.objectContaining({ id: hosted.id, canceled: expect.objectContaining({ by: { role: 'host', display_name: expect.any(String) } }) })])
  })
})

describe('who cancelled, and when (issue 12 §2)', () => {
  it('records the host, or an admin for the team, and answers it with the activity', async () => {
    const { user, token } = await member()
    const byHost = await insertExperience()
    const byTeam = await insertExperience()
    await seat(byHost.id, [user.id])
    await seat(byTeam.id, [user.id])
    const before = Date.now()
    expect((await api.request('DELETE', `v1/experiences/${byHost.id}`, { token: hostToken })).status).toBe(204)
    expect((await api.request('DELETE', `v1/experiences/${byTeam.id}`, { token: adminToken })).status).toBe(204)

    const hostCancel = (await api.request('GET', `v1/experiences/${byHost.id}`, { token })).json.data[0]
    expect(hostCancel.canceled).toEqual({ at: hostCancel.canceled_at, by: { role: 'host', display_name: 'Walter B.' } })
    expect(Date.parse(hostCancel.canceled.at)).toBeGreaterThanOrEqual(before - 1000)
    // An admin is never named to members: "the Circle 55 team".
    const teamCancel = (await api.request('GET', `v1/experiences/${byTeam.id}`, { token })).json.data[0]
    expect(teamCancel.canceled).toEqual({ at: teamCancel.canceled_at, by: { role: 'team', display_name: null } })

    const stored = await database.db.selectFrom('experiences').select(['id', 'canceled_by']).where('id', 'in', [byHost.id, byTeam.id]).execute()
    expect(new Map(stored.map((row) => [row.id, row.canceled_by])).get(byHost.id)).toBe(host.id)
    expect(new Map(stored.map((row) => [row.id, row.canceled_by])).get(byTeam.id)).not.toBe(host.id)
  })

  it('an activity that is on has no cancellation', async () => {
    const experience = await insertExperience()
    expect((await api.request('GET', `v1/experiences/${experience.id}`, { token: hostToken })).json.data[0].canceled).toBeNull()
  })
})

describe('the host of a full activity and its notify list (issue 12 §5)', () => {
  it('is never offered the list, and cannot join it; a member without a seat is offered it', async () => {
    const experience = await insertExperience({ max_attendees: 1 })
    const attendee = await member()
    await seat(experience.id, [attendee.user.id])
    const stranger = await member()
    const viewerOf = async (token: string) => ((await api.request('GET', `v1/experiences/${experience.id}`, { token })).json.data as Listed[])[0]?.viewer
    expect(await viewerOf(hostToken)).toMatchObject({ is_host: true, can_join_waitlist: false })
    expect(await viewerOf(attendee.token)).toMatchObject({ is_attending: true, can_join_waitlist: false })
    expect(await viewerOf(stranger.token)).toMatchObject({ can_join_waitlist: true })

    const refused = await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: hostToken })
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('already_hosting')
    await joinWaitlist(experience.id, stranger.token)
    expect(await viewerOf(stranger.token)).toMatchObject({ waitlist_position: 1, can_join_waitlist: false })
    const entries = await database.db.selectFrom('waitlist_entries').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(entries.map((entry) => entry.user_id)).toEqual([stranger.user.id])
  })
})
