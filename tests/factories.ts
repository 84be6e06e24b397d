import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, Experience, NewExperience, NewUser, User } from '#api/db/schema.ts'

/**
 * Test data straight in the database, for the API tests and the end-to-end tests alike: members and
 * activities as the product would have stored them, with any column replaced.
 */

/** A born-on date that makes a member `age` today (UTC), whatever the day of the year. */
export function dobForAge(age: number, today = new Date()) {
  return `${today.getUTCFullYear() - age}-01-01`
}

/** Inserts an onboarded, active member aged 60 whose `auth_subject` is their id. */
export async function createUser(
  db: Kysely<Database>,
  overrides: Partial<NewUser> = {},
): Promise<User> {
  const id = overrides.id ?? crypto.randomUUID()
  const suffix = randomBytes(4).toString('hex')
  return db
    .insertInto('users')
    .values({
      id,
      auth_subject: id,
      slug: `ann-${suffix}`,
      email: `ann.${suffix}@example.com`,
      first_name: 'Ann',
      last_name: 'Baker',
      dob: dobForAge(60),
      state: 'active',
      locale: 'en',
      onboarded_at: new Date(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * A member whose account is `ageDays` old, verified when asked: what the scam shield's and the send
 * limits' rules look at (decisions 031 and 066).
 */
export async function createMember(
  db: Kysely<Database>,
  { ageDays, verified, ...overrides }: Partial<NewUser> & { ageDays: number; verified: boolean },
): Promise<User> {
  const user = await createUser(db, { created_at: new Date(Date.now() - ageDays * 86_400_000), ...overrides })
  if (verified) await db.insertInto('verifications').values({ user_id: user.id, status: 'verified', decided_at: new Date() }).execute()
  return user
}

/**
 * Inserts an in-person activity in Portland hosted by `hostId`, starting in five days and lasting
 * two hours; `overrides` replace any column (an online one, a cancelled one, another start).
 */
export async function createExperience(
  db: Kysely<Database>,
  hostId: string,
  overrides: Partial<NewExperience> = {},
): Promise<Experience> {
  const start = overrides.start_at ? new Date(overrides.start_at) : new Date(Date.now() + 5 * 86_400_000)
  return db
    .insertInto('experiences')
    .values({
      slug: `walk-${randomBytes(4).toString('hex')}`,
      title: 'Riverside walk',
      venue_type: 'in_person',
      host_id: hostId,
      latitude: 45.5231,
      longitude: -122.6765,
      city: 'Portland',
      region: 'OR',
      place_id: 'us-or-portland',
      formatted_address: '1 SW Naito Pkwy, Portland, OR',
      timezone: 'America/Los_Angeles',
      start_at: start,
      end_at: new Date(start.getTime() + 2 * 3_600_000),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}
