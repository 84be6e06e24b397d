import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccounts } from '#api/identity/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { demoAccounts, demoPassword, seedDemoData, teamDemoAccounts } from './seed.ts'

let database: TestDatabase
const now = new Date()

beforeAll(async () => {
  database = await createTestDatabase()
  expect(await seedDemoData(database.db, { now })).toEqual({ seeded: true })
}, 120_000)

afterAll(async () => {
  await database?.drop()
})

describe('demo data (issue 2 §3)', () => {
  it('names a made-up Medicare agency that says it is one (decision 086)', async () => {
    const agencies = await database.db.selectFrom('medicare_partners').select(['name', 'disclaimer', 'active', 'retired_at', 'notices_email']).execute()
    // Its stop notices go to a reserved domain (RFC 2606): nobody receives them.
    expect(agencies).toEqual([{ name: 'Example Senior Benefits (demo agency)', disclaimer: expect.stringContaining('made up for the Circle 55 demo'), active: true, retired_at: null, notices_email: 'stops@example-senior-benefits.example' }])
  })

  it('has at least 300 members, all aged 55 or over, across at least 25 US cities', async () => {
    const members = await database.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        sql<number>`count(DISTINCT (city, region))`.as('cities'),
        sql<number>`count(*) FILTER (WHERE dob IS NULL OR dob::date > (current_date - interval '55 years'))`.as(
          'underage',
        ),
      ])
      .where('email', 'like', 'member%@demo.test')
      .executeTakeFirstOrThrow()
    expect(Number(members.count)).toBeGreaterThanOrEqual(300)
    expect(Number(members.cities)).toBeGreaterThanOrEqual(25)
    expect(Number(members.underage)).toBe(0)
  })

  it('has at least 200 activities of every kind the product shows', async () => {
    const kinds = await database.db
      .selectFrom('experiences')
      .select([
        sql<number>`count(*)`.as('total'),
        sql<number>`count(*) FILTER (WHERE start_at < ${now})`.as('past'),
        sql<number>`count(*) FILTER (WHERE start_at >= ${now})`.as('upcoming'),
        sql<number>`count(*) FILTER (WHERE max_attendees > 0 AND attendees_count >= max_attendees)`.as(
          'full',
        ),
        sql<number>`count(*) FILTER (WHERE start_at >= ${now} AND (max_attendees IS NULL OR max_attendees = 0 OR attendees_count < max_attendees))`.as(
          'open',
        ),
        sql<number>`count(*) FILTER (WHERE venue_type = 'online')`.as('online'),
        sql<number>`count(*) FILTER (WHERE venue_type = 'in_person')`.as('inPerson'),
        sql<number>`count(*) FILTER (WHERE is_hostless)`.as('hostless'),
        sql<number>`count(*) FILTER (WHERE is_premium)`.as('premium'),
      ])
      .executeTakeFirstOrThrow()
    expect(Number(kinds.total)).toBeGreaterThanOrEqual(200)
    for (const kind of [
      'past',
      'upcoming',
      'full',
      'open',
      'online',
      'inPerson',
      'hostless',
      'premium',
    ] as const) {
      expect(Number(kinds[kind]), kind).toBeGreaterThan(0)
    }
  })

  it('keeps attendee counts true and fills notify lists only where seats are limited', async () => {
    const mismatched = await sql<{ id: string }>`
      SELECT e.id FROM experiences e
      WHERE e.attendees_count <> (SELECT count(*) FROM experience_attendees a WHERE a.experience_id = e.id)
    `.execute(database.db)
    expect(mismatched.rows).toEqual([])
    const waitlists = await sql<{ unlimited: number; total: number }>`
      SELECT count(*) AS total, count(*) FILTER (WHERE coalesce(e.max_attendees, 0) = 0) AS unlimited
      FROM waitlist_entries w JOIN experiences e ON e.id = w.experience_id
    `.execute(database.db)
    expect(Number(waitlists.rows[0]?.total)).toBeGreaterThan(0)
    expect(Number(waitlists.rows[0]?.unlimited)).toBe(0)
  })

  it('gives members interests, prompts and privacy choices, so Members has people to show (issue 13 §3)', async () => {
    const counts = await sql<{ with_interests: number; profiles: number; prompts: number; members: number }>`
      SELECT (SELECT count(DISTINCT user_id)::int FROM user_interests) AS with_interests,
             (SELECT count(*)::int FROM profiles) AS profiles,
             (SELECT count(*)::int FROM profile_prompts) AS prompts,
             (SELECT count(*)::int FROM users) AS members`.execute(database.db)
    const row = counts.rows[0]!
    expect(row.with_interests).toBe(row.members)
    expect(row.profiles).toBe(row.members)
    expect(row.prompts).toBeGreaterThan(50)
    const choices = await database.db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select(['users.email', 'profiles.show_age', 'profiles.nearby_visibility'])
      .where('users.email', 'in', [...demoAccounts, ...Object.values(teamDemoAccounts)])
      .orderBy('users.email')
      .execute()
    expect(choices).toEqual([
      { email: 'admin@demo.test', show_age: true, nearby_visibility: 'nobody' },
      { email: 'finance@demo.test', show_age: false, nearby_visibility: 'nobody' },
      { email: 'host@demo.test', show_age: true, nearby_visibility: 'everyone' },
      { email: 'member@demo.test', show_age: false, nearby_visibility: 'everyone' },
      { email: 'moderator@demo.test', show_age: false, nearby_visibility: 'nobody' },
      { email: 'support@demo.test', show_age: false, nearby_visibility: 'nobody' },
    ])
  })

  it('lets the named demo accounts and seeded members sign in with the demo password', async () => {
    const accounts = createAccounts({
      db: database.db,
      mailer: { send: async () => ({ id: crypto.randomUUID() }), sendNow: async () => ({ sent: true }) },
      codeSecret: 'test-secret',
    })
    for (const email of [...demoAccounts, ...Object.values(teamDemoAccounts), 'member1@demo.test', 'member300@demo.test']) {
      expect(await accounts.verifyPassword(email, demoPassword), email).toHaveProperty('accountId')
    }
    expect(await accounts.verifyPassword('member@demo.test', 'not-the-password')).toEqual({
      error: 'invalid',
    })
    const team = await database.db
      .selectFrom('users')
      .select(['email', 'staff_role'])
      .where('staff_role', 'is not', null)
      .orderBy('email')
      .execute()
    expect(team).toEqual([
      { email: 'admin@demo.test', staff_role: 'admin' },
      { email: 'finance@demo.test', staff_role: 'finance' },
      { email: 'moderator@demo.test', staff_role: 'moderator' },
      { email: 'support@demo.test', staff_role: 'support' },
    ])
  })

  it('never seeds twice', async () => {
    expect(await seedDemoData(database.db)).toEqual({ seeded: false })
  })
})
