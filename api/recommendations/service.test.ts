import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PUBLIC_URL, createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import type { NewExperience } from '../db/schema.ts'
import { composeNotificationEmail } from '../notifications/delivery.ts'
import { createNotifier, type Notify } from '../notifications/service.ts'
import { recommendActivities } from './service.ts'

/**
 * The weekly "activities near you" (issue 15 §1, decision 051) on the real database: who hears of
 * what, nothing when nothing is near, once a week, and the email each member receives.
 */
let database: TestDatabase
let notify: Notify

beforeAll(async () => {
  database = await createTestDatabase()
  // The notifications are recorded for real; their delivery jobs are not this file's concern.
  notify = createNotifier({ db: database.db, queue: { send: async () => undefined } })
})

afterAll(async () => {
  await database?.drop()
})

// Every test has its own town, far from the others', so their activities never mix.
let town = 0
function newTown() {
  town++
  return { lat: 30 + town * 2, long: -100 + town * 2 }
}
/** About `miles` north of `place`. */
const north = (place: { lat: number; long: number }, miles: number) => ({ latitude: place.lat + miles / 69.05, longitude: place.long })

async function optedIn(place: { lat: number; long: number }, overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { ...place, ...overrides })
  await database.db
    .insertInto('notification_workflow_settings')
    .values([
      { user_id: user.id, template_id: 'recommendations', channel: 'in_app', enabled: true },
      { user_id: user.id, template_id: 'recommendations', channel: 'email', enabled: true },
    ])
    .execute()
  return user
}

async function activity(place: { lat: number; long: number }, miles: number, overrides: Partial<NewExperience> = {}) {
  const host = await createUser(database.db)
  return createExperience(database.db, host.id, { ...north(place, miles), ...overrides })
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000)

async function recommendedTo(userId: string) {
  const rows = await database.db
    .selectFrom('notifications')
    .select(['type', 'data'])
    .where('user_id', '=', userId)
    .where('type', '=', 'experience.recommended')
    .execute()
  return rows.map((row) => (row.data as { experience_ids: string[] }).experience_ids)
}

describe('the weekly activities near you', () => {
  it('suggests upcoming activities within 25 miles, soonest first, at most five, leaving out what the member should not see', async () => {
    const home = newTown()
    const member = await optedIn(home)
    const later = await activity(home, 3, { start_at: inDays(6) })
    const soon = await activity(home, 20, { start_at: inDays(2), title: 'Book club' })
    const hostless = await activity(home, 1, { start_at: inDays(4), host_id: null, is_hostless: true })
    // Too far, past, cancelled, full, undated or online (no place): not suggested.
    await activity(home, 30, { start_at: inDays(3) })
    await activity(home, 1, { start_at: inDays(-1) })
    await activity(home, 1, { start_at: inDays(3), canceled_at: new Date() })
    await activity(home, 1, { start_at: inDays(3), max_attendees: 1, attendees_count: 1 })
    await activity(home, 1, { start_at: null, end_at: null })
    await activity(home, 1, { start_at: inDays(3), venue_type: 'online', latitude: null, longitude: null })
    // Their own, one they attend, one they wait for.
    await createExperience(database.db, member.id, { ...north(home, 1), start_at: inDays(3) })
    const attending = await activity(home, 1, { start_at: inDays(3) })
    await database.db.insertInto('experience_attendees').values({ experience_id: attending.id, user_id: member.id }).execute()
    const waiting = await activity(home, 1, { start_at: inDays(3) })
    await database.db.insertInto('waitlist_entries').values({ experience_id: waiting.id, user_id: member.id }).execute()
    // A host they blocked, a host who blocked them, a suspended host.
    const blocked = await activity(home, 1, { start_at: inDays(3) })
    await database.db.insertInto('blocks').values({ blocker_id: member.id, blocked_id: blocked.host_id! }).execute()
    const blocking = await activity(home, 1, { start_at: inDays(3) })
    await database.db.insertInto('blocks').values({ blocker_id: blocking.host_id!, blocked_id: member.id }).execute()
    const suspendedHost = await createUser(database.db, { is_suspended: true })
    await createExperience(database.db, suspendedHost.id, { ...north(home, 1), start_at: inDays(3) })

    await recommendActivities(database.db, notify)
    expect(await recommendedTo(member.id)).toEqual([[soon.id, hostless.id, later.id]])

    // At most five, the soonest.
    const many = []
    for (let day = 1; day <= 6; day++) many.push(await activity(home, 2, { start_at: inDays(day + 0.5) }))
    const other = await optedIn(home)
    await recommendActivities(database.db, notify)
    const [suggested] = await recommendedTo(other.id)
    expect(suggested).toHaveLength(5)
    expect(suggested![0]).toBe(many[0]!.id)
  })

  it('only members who opted in, have a home, and may be seen', async () => {
    const home = newTown()
    await activity(home, 2, { start_at: inDays(3) })
    const notOptedIn = await createUser(database.db, home)
    const optedOut = await optedIn(home)
    await database.db.updateTable('notification_workflow_settings').set({ enabled: false }).where('user_id', '=', optedOut.id).execute()
    const onlyEmail = await optedIn(home)
    await database.db.deleteFrom('notification_workflow_settings').where('user_id', '=', onlyEmail.id).where('channel', '=', 'in_app').execute()
    const noHome = await optedIn({ lat: null, long: null } as never)
    const suspended = await optedIn(home, { is_suspended: true })
    const deleted = await optedIn(home, { state: 'deleted' })

    await recommendActivities(database.db, notify)
    for (const user of [notOptedIn, optedOut, noHome, suspended, deleted]) expect(await recommendedTo(user.id)).toEqual([])
    expect(await recommendedTo(onlyEmail.id)).toHaveLength(1)
  })

  it('tells nobody when nothing is near', async () => {
    const home = newTown()
    const member = await optedIn(home)
    await activity(home, 40, { start_at: inDays(3) })
    await recommendActivities(database.db, notify)
    expect(await recommendedTo(member.id)).toEqual([])
  })

  it('once a week: a second run, or one in small batches, tells no one twice; next week tells them again', async () => {
    const home = newTown()
    const members = [await optedIn(home), await optedIn(home), await optedIn(home)]
    await activity(home, 2, { start_at: inDays(10) })
    await recommendActivities(database.db, notify, { batchSize: 2 })
    await recommendActivities(database.db, notify, { batchSize: 1 })
    for (const member of members) expect(await recommendedTo(member.id)).toHaveLength(1)

    await recommendActivities(database.db, notify, { now: inDays(7) })
    for (const member of members) expect(await recommendedTo(member.id)).toHaveLength(2)
  })
})

describe('the email', () => {
  it('lists each activity with its title, when on its own clock, where and its link, in the member’s language', async () => {
    const home = newTown()
    const member = await optedIn(home, { first_name: 'Rose' })
    const walk = await activity(home, 2, { title: 'Morning walk', start_at: new Date('2099-06-02T16:00:00Z'), timezone: 'America/Los_Angeles' })
    const tea = await activity(home, 5, { title: 'Tea and cards', start_at: new Date('2099-06-05T13:00:00Z'), timezone: 'America/New_York', formatted_address: '5 Main St', city: 'Salem', region: 'OR' })
    const cancelled = await activity(home, 3, { title: 'Gone', start_at: new Date('2099-06-03T13:00:00Z'), canceled_at: new Date() })
    const row = { user_id: member.id, type: 'experience.recommended', data: { experience_ids: [walk.id, cancelled.id, tea.id] } }

    const email = await composeNotificationEmail(database.db, row, TEST_PUBLIC_URL)
    expect(email).toMatchObject({ to: member.email, kind: 'experienceRecommended', locale: 'en', subject: 'Activities near you this week' })
    expect(email!.text).toContain('Hello Rose,')
    expect(email!.text).toContain('Here are 2 activities coming up near you that you might enjoy:')
    expect(email!.text).toContain(
      ['Morning walk', 'When: Tuesday, June 2 at 9:00 AM PDT', 'Where: 1 SW Naito Pkwy, Portland, OR', `${TEST_PUBLIC_URL}/activities/${walk.id}`].join('\n'),
    )
    expect(email!.text).toContain(['Tea and cards', 'When: Friday, June 5 at 9:00 AM EDT', 'Where: 5 Main St, Salem, OR', `${TEST_PUBLIC_URL}/activities/${tea.id}`].join('\n'))
    expect(email!.text.indexOf('Morning walk')).toBeLessThan(email!.text.indexOf('Tea and cards'))
    expect(email!.text).not.toContain('Gone')

    await database.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', member.id).execute()
    const french = await composeNotificationEmail(database.db, { ...row, data: { experience_ids: [walk.id] } }, TEST_PUBLIC_URL)
    expect(french).toMatchObject({ locale: 'fr', subject: 'Des activités près de chez vous cette semaine' })
    expect(french!.text).toContain('Bonjour Rose,')
    expect(french!.text).toContain('Voici une activité prévue près de chez vous qui pourrait vous plaire :')
    expect(french!.text).toContain('Quand : mardi 2 juin')
    expect(french!.text).toContain(`${TEST_PUBLIC_URL}/activities/${walk.id}`)
  })

  it('sends nothing when every activity was cancelled since', async () => {
    const home = newTown()
    const member = await optedIn(home)
    const gone = await activity(home, 2, { start_at: inDays(3), canceled_at: new Date() })
    expect(await composeNotificationEmail(database.db, { user_id: member.id, type: 'experience.recommended', data: { experience_ids: [gone.id] } }, TEST_PUBLIC_URL)).toBeNull()
  })
})
