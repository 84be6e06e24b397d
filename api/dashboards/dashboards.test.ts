import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminDashboardSchema, hostDashboardSchema, type AdminDashboard, type HostDashboard } from '#contract/dashboards.ts'
import type { NewUser, User } from '#api/db/schema.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { hiddenTotal, hideSmall, weekStarts } from './service.ts'

/**
 * Dashboards (issue 32 §5, decision 082) against the real database: twelve weeks of a small
 * community — members signing up and stopping at different onboarding pages, members using the
 * site (a staff member viewing as one and a bot left out), a host's activities with seats, "did
 * not come" marks and survey ratings, seats filled from notify lists, reports and the team's
 * actions. The team reads every number; a host reads only their own, small counts hidden.
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

const HOUR = 3_600_000
const long = new Date(Date.now() - 400 * 86_400_000)
/** The weeks the dashboards answer for now, Mondays oldest first (index 11: this week). */
const weeks = weekStarts(new Date(), 12)
/** Wednesday of week `index` at `hour` UTC: in the same week in UTC and in Portland. */
const at = (index: number, hour = 12) => new Date(Date.parse(`${weeks[index]}T00:00:00Z`) + 2 * 86_400_000 + hour * HOUR)

/** A member who joined long ago (outside every week shown), unless told otherwise. */
const member = (overrides: Partial<NewUser> = {}) => createUser(database.db, { created_at: long, ...overrides })
const call = async (path: string, user?: User) => api.request('GET', path, user ? { token: await api.signToken(user.id) } : {})

let walter: User
let margaret: User
let admin: User

async function seat(experienceId: string, present?: boolean) {
  const attendee = await member()
  await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: attendee.id }).execute()
  if (present !== undefined) await database.db.insertInto('attendance_marks').values({ experience_id: experienceId, user_id: attendee.id, present, marked_by: walter.id }).execute()
  return attendee
}

async function rate(experienceId: string, ratings: number[]) {
  for (const rating of ratings) {
    const attendee = await seat(experienceId)
    await database.db.insertInto('surveys').values({ user_id: attendee.id, type: 'POST_EXPERIENCE_SURVEY', experience_id: experienceId, attended: true, rating }).execute()
  }
}

beforeAll(async () => {
  walter = await member({ first_name: 'Walter', last_name: 'Brooks' })
  margaret = await member({ first_name: 'Margaret', last_name: 'Hughes' })
  admin = await member({ staff_role: 'admin' })

  // Sign-ups: three in week 9 (about you only; up to the identity check; the end), two in week 10
  // (signed up and never went on; up to the photo).
  await member({ created_at: at(9), onboarding_step: 'location' })
  await member({ created_at: at(9, 14), onboarding_step: 'verification' })
  await member({ created_at: at(9, 16), onboarding_step: 'done' })
  await member({ created_at: at(10), onboarded_at: null, onboarding_step: null })
  await member({ created_at: at(10, 13), onboarding_step: 'profile-photo' })

  // Using Circle 55: two members in week 10 (one of them three times), one this week; a staff
  // member viewing as a member, a bot and a visitor are not members using it.
  const [ann, bea, cy, bot] = [await member(), await member(), await member(), await member()]
  const event = (userId: string | null, occurredAt: Date, flags: { impersonated?: boolean; is_bot?: boolean } = {}) =>
    sql`INSERT INTO analytics_events (occurred_at, name, user_id, path, impersonated, is_bot)
        VALUES (${occurredAt}, 'page', ${userId}, '/activities', ${flags.impersonated ?? false}, ${flags.is_bot ?? false})`.execute(database.db)
  for (const hour of [1, 5, 9]) await event(ann.id, at(10, hour))
  await event(bea.id, at(10))
  await event(cy.id, at(10), { impersonated: true })
  await event(bot.id, at(10), { is_bot: true })
  await event(null, at(10))
  // This week's: a minute ago, but never before this week began (a run just after Monday 00:00 UTC).
  await event(ann.id, new Date(Math.max(Date.now() - 60_000, Date.parse(`${weeks[11]}T00:00:00Z`) + 1000)))

  // Walter's activities. Week 8: a book club, 6 seats, the host said one did not come, 5 ratings.
  const bookClub = await createExperience(database.db, walter.id, { title: 'Book club', start_at: at(8), created_at: at(6) })
  for (let index = 0; index < 5; index++) await seat(bookClub.id, true)
  await seat(bookClub.id, false)
  await database.db.updateTable('experiences').set({ attendance_confirmed_at: at(8, 15) }).where('id', '=', bookClub.id).execute()
  // (the ratings come from five of the seats above, so the seats stay 6)
  const rated = await database.db.selectFrom('attendance_marks').select('user_id').where('experience_id', '=', bookClub.id).where('present', '=', true).execute()
  for (const [index, row] of rated.entries()) {
    await database.db.insertInto('surveys').values({ user_id: row.user_id, type: 'POST_EXPERIENCE_SURVEY', experience_id: bookClub.id, attended: true, rating: [4, 5, 5, 4, 5][index]! }).execute()
  }
  // Week 9: a walk, 8 seats, two did not come (confirmed), 3 of those who came rated it; a pottery
  // class whose host never said who came (3 seats); a cancelled one (not held).
  const walk = await createExperience(database.db, walter.id, { title: 'Riverside walk', start_at: at(9), created_at: at(7) })
  for (let index = 0; index < 2; index++) await seat(walk.id, false)
  for (let index = 0; index < 3; index++) await seat(walk.id, true)
  await rate(walk.id, [5, 4, 4])
  await database.db.updateTable('experiences').set({ attendance_confirmed_at: at(9, 15) }).where('id', '=', walk.id).execute()
  const pottery = await createExperience(database.db, walter.id, { title: 'Pottery class', start_at: at(9, 18), created_at: at(9) })
  for (let index = 0; index < 3; index++) await seat(pottery.id)
  const cancelled = await createExperience(database.db, walter.id, { start_at: at(9), created_at: at(8), canceled_at: at(8, 20) })
  await seat(cancelled.id)
  // Week 10: a garden tour, 4 seats, two ratings among them (unmarked).
  const garden = await createExperience(database.db, walter.id, { title: 'Garden tour', start_at: at(10), created_at: at(9) })
  await rate(garden.id, [3, 4])
  for (let index = 0; index < 2; index++) await seat(garden.id)
  // Next week's, created this week: created, not held.
  await createExperience(database.db, walter.id, { start_at: new Date(Date.now() + 8 * 86_400_000) })
  // Margaret's own activity: in the team's numbers, never in Walter's.
  const hers = await createExperience(database.db, margaret.id, { title: 'Chess', start_at: at(9), created_at: at(9) })
  await seat(hers.id)

  // Notify lists, week 9: one member seated at once, one who took the seat she was told of;
  // someone told who did not take it is not a fill.
  const notified = async (userId: string, experienceId: string, type: string, createdAt: Date) =>
    database.db.insertInto('notifications').values({ user_id: userId, type, data: JSON.stringify({ experience_id: experienceId }), created_at: createdAt }).execute()
  const seatedAtOnce = await seat(hers.id)
  await notified(seatedAtOnce.id, hers.id, 'waitlist.selected', at(9, 13))
  const tookIt = await member()
  await notified(tookIt.id, pottery.id, 'waitlist.seat_available', at(9, 14))
  await database.db.insertInto('experience_attendees').values({ experience_id: pottery.id, user_id: tookIt.id, created_at: at(9, 15) }).execute()
  await notified((await member()).id, pottery.id, 'waitlist.seat_available', at(9, 14))

  // Reports: week 9, three (acted on after 2 and 6 hours; one still open); week 10, one acted on after 30 hours.
  const report = async (createdAt: Date, hours: number | null) =>
    database.db
      .insertInto('reports')
      .values({ reporter_id: margaret.id, reported_user_id: walter.id, reason: 'something_else', created_at: createdAt, resolved_at: hours === null ? null : new Date(createdAt.getTime() + hours * HOUR), outcome: hours === null ? null : 'dismissed' } as never)
      .execute()
  await report(at(9, 1), 2)
  await report(at(9, 2), 6)
  await report(at(9, 3), null)
  await report(at(10, 1), 30)
})

describe('the team’s dashboard (GET v1/admin/dashboard)', () => {
  it('counts twelve weeks in UTC: sign-ups and onboarding, active members, activities, who came, notify-list fills, reports', async () => {
    const response = await call('v1/admin/dashboard', admin)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const dashboard: AdminDashboard = adminDashboardSchema.parse(response.json.data[0])
    expect(dashboard.weeks.map((week) => week.week_start)).toEqual(weeks)
    expect(dashboard.weeks.map((week) => week.complete)).toEqual([...Array(11).fill(true), false])
    const week = (index: number) => dashboard.weeks[index]!

    expect(dashboard.weeks.map((entry) => entry.sign_ups)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 0])
    expect(dashboard.onboarding).toEqual([
      { stage: 'signed_up', members: 5 },
      { stage: 'location', members: 4 },
      { stage: 'notifications', members: 3 },
      { stage: 'profile-photo', members: 3 },
      { stage: 'subscription', members: 2 },
      { stage: 'verification', members: 2 },
      { stage: 'medicare', members: 1 },
      { stage: 'done', members: 1 },
    ])
    expect(week(10).active_members).toBe(2)
    expect(week(11).active_members).toBe(1)

    expect(dashboard.weeks.map((entry) => entry.activities_created)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 3, 0, 1])
    expect(week(8)).toMatchObject({ activities_held: 1, seats_booked: 6, came: 5, did_not_come: 1, no_show_rate: 16.7 })
    // The walk (8 seats, 2 did not come) and the pottery class (4 seats, nobody marked) and Margaret's
    // chess (2 seats); the rate only over the walk's seats, whose host said who came.
    expect(week(9)).toMatchObject({ activities_held: 3, seats_booked: 14, came: 12, did_not_come: 2, no_show_rate: 25 })
    expect(week(10)).toMatchObject({ activities_held: 1, seats_booked: 4, came: 4, did_not_come: 0, no_show_rate: null })
    expect(week(11)).toMatchObject({ activities_held: 0, seats_booked: 0, no_show_rate: null })

    expect(dashboard.weeks.map((entry) => entry.notify_list_fills)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0])

    expect(week(9)).toMatchObject({ reports: 3, reports_resolved: 2, median_response_hours: 4 })
    expect(week(10)).toMatchObject({ reports: 1, reports_resolved: 1, median_response_hours: 30 })
    expect(week(11)).toMatchObject({ reports: 0, median_response_hours: null })
    expect(dashboard.open_reports).toBe(1)
  })

  it('is for the team only: every role reads it; a member, a host and a visitor do not', async () => {
    for (const role of ['moderator', 'support', 'finance'] as const) expect((await call('v1/admin/dashboard', await member({ staff_role: role }))).status).toBe(200)
    expect((await call('v1/admin/dashboard', walter)).status).toBe(403)
    expect((await call('v1/admin/dashboard', margaret)).json.error.code).toBe('forbidden')
    expect((await call('v1/admin/dashboard')).status).toBe(401)
  })

  it('covers 4 to 52 weeks when asked', async () => {
    expect((await call('v1/admin/dashboard?weeks=52', admin)).json.data[0].weeks).toHaveLength(52)
    expect((await call('v1/admin/dashboard?weeks=4', admin)).json.data[0].weeks.map((week: { week_start: string }) => week.week_start)).toEqual(weeks.slice(8))
    for (const weeks of ['3', '53', 'twelve', '1e1']) expect((await call(`v1/admin/dashboard?weeks=${weeks}`, admin)).json.error.fields).toEqual({ weeks: ['weeks_invalid'] })
  })
})

describe('a host’s dashboard (GET v1/users/me/hosting/dashboard)', () => {
  it('answers Walter’s own activities week by week, “did not come” and ratings under 5 hidden', async () => {
    const response = await call('v1/users/me/hosting/dashboard', walter)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const dashboard: HostDashboard = hostDashboardSchema.parse(response.json.data[0])
    expect(dashboard.weeks.map((week) => week.week_start)).toEqual(weeks)
    const numbers = dashboard.weeks.map(({ week_start: _start, complete: _complete, ...rest }) => rest)
    const none = { activities: 0, booked: 0, came: 0, did_not_come: 0, ratings: 0, average_rating: null }
    expect(numbers).toEqual([
      ...Array(8).fill(none),
      // 1 did not come: hidden; 5 ratings: shown, with their average.
      { activities: 1, booked: 6, came: 5, did_not_come: null, ratings: 5, average_rating: 4.6 },
      // The walk (8 seats, 2 did not come, 3 ratings) and the pottery class (4 seats): small counts hidden.
      { activities: 2, booked: 12, came: 10, did_not_come: null, ratings: null, average_rating: null },
      { activities: 1, booked: 4, came: 4, did_not_come: 0, ratings: null, average_rating: null },
      none,
    ])
    // Three "did not come" in all: hidden. Ten ratings: the 5 hidden ones add 5 to the week shown,
    // so the total and its average are shown.
    expect(dashboard.totals).toEqual({ activities: 4, booked: 22, came: 19, did_not_come: null, ratings: 10, average_rating: 4.3 })
  })

  it('shows another member none of it: their own numbers only, here none', async () => {
    const dashboard: HostDashboard = hostDashboardSchema.parse((await call('v1/users/me/hosting/dashboard', await member())).json.data[0])
    expect(dashboard.totals).toEqual({ activities: 0, booked: 0, came: 0, did_not_come: 0, ratings: 0, average_rating: null })
    const hers: HostDashboard = hostDashboardSchema.parse((await call('v1/users/me/hosting/dashboard', margaret)).json.data[0])
    expect(hers.totals).toMatchObject({ activities: 1, booked: 2 })
    expect((await call('v1/users/me/hosting/dashboard')).status).toBe(401)
    expect((await call('v1/users/me/hosting/dashboard?weeks=0', walter)).status).toBe(422)
  })
})

describe('small counts', () => {
  it('hides 1 to 4, and a total that would let a hidden week be worked out', () => {
    expect([0, 1, 4, 5, 12].map(hideSmall)).toEqual([0, null, null, 5, 12])
    expect(hiddenTotal(8, [5, null])).toBeNull()
    expect(hiddenTotal(10, [5, null, null])).toBe(10)
    expect(hiddenTotal(6, [6, 0])).toBe(6)
    expect(hiddenTotal(3, [null, 0])).toBeNull()
  })

  it('starts weeks on Monday in UTC, the current week last', () => {
    expect(weekStarts(new Date('2025-06-01T23:30:00Z'), 4)).toEqual(['2025-05-05', '2025-05-12', '2025-05-19', '2025-05-26'])
    expect(weekStarts(new Date('2025-06-02T00:00:00Z'), 4)).toEqual(['2025-05-12', '2025-05-19', '2025-05-26', '2025-06-02'])
  })
})
