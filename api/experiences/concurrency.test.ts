import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { CompiledQuery, sql, type Insertable, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '#api/db/database.ts'
import type { Database, ExperiencesTable } from '#api/db/schema.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { buildListQuery, serializeExperiences } from './service.ts'

const DAY = 86_400_000

let database: TestDatabase
/** A pool big enough for every request to hold its own connection at the same time. */
let wide: Kysely<Database>
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  wide = createDatabase(database.url, { max: 30 }).db
  api = await createApiHarness(wide)
})

afterAll(async () => {
  await wide?.destroy()
  await database?.drop()
})

function experienceRow(overrides: Partial<Insertable<ExperiencesTable>> = {}): Insertable<ExperiencesTable> {
  const start = new Date(Date.now() + 5 * DAY)
  return {
    slug: `walk-${randomBytes(6).toString('hex')}`,
    title: 'Riverside walk',
    venue_type: 'in_person',
    latitude: 45.5152,
    longitude: -122.6784,
    city: 'Portland',
    region: 'OR',
    timezone: 'America/Los_Angeles',
    start_at: start,
    end_at: new Date(start.getTime() + 2 * 3_600_000),
    ...overrides,
  }
}

describe('attending the last seat', () => {
  it('seats exactly one of 50 members who ask at the same time', async () => {
    const host = await createUser(database.db)
    const early = await createUser(database.db)
    const experience = await database.db
      .insertInto('experiences')
      .values(experienceRow({ host_id: host.id, max_attendees: 2 }))
      .returningAll()
      .executeTakeFirstOrThrow()
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: early.id }).execute()
    await database.db.updateTable('experiences').set({ attendees_count: 1 }).where('id', '=', experience.id).execute()

    const members = await Promise.all(Array.from({ length: 50 }, () => createUser(database.db)))
    const tokens = await Promise.all(members.map((member) => api.signToken(member.id)))
    const responses = await Promise.all(
      members.map(async (member, i) =>
        api.app.fetch(
          new Request(`${api.env.PUBLIC_URL}/api/v1/experiences/${experience.id}/attendees`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ user_id: member.id }),
          }),
        ),
      ),
    )
    const statuses = responses.map((response) => response.status)
    const bodies = await Promise.all(responses.map((response) => response.json() as Promise<{ error?: { code: string } }>))
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(49)
    expect(bodies.filter((body) => body.error?.code === 'experience_full')).toHaveLength(49)

    const stored = await database.db.selectFrom('experiences').selectAll().where('id', '=', experience.id).executeTakeFirstOrThrow()
    const rows = await database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(stored.attendees_count).toBe(2)
    expect(rows).toHaveLength(stored.attendees_count)
  })

  it('counts one seat when the same member asks many times at once', async () => {
    const experience = await database.db
      .insertInto('experiences')
      .values(experienceRow({ max_attendees: 10 }))
      .returningAll()
      .executeTakeFirstOrThrow()
    const member = await createUser(database.db)
    const token = await api.signToken(member.id)
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.request('POST', `v1/experiences/${experience.id}/attendees`, { token, body: { user_id: member.id } }).then((r) => r.status),
      ),
    )
    expect(statuses.every((status) => status === 200)).toBe(true)
    const stored = await database.db.selectFrom('experiences').select('attendees_count').where('id', '=', experience.id).executeTakeFirstOrThrow()
    expect(stored.attendees_count).toBe(1)
  })
})

describe('what a member sees while seats change', () => {
  it('never shows their seat beside a count read before it was taken', async () => {
    const member = await createUser(database.db)
    const readEarlier = await database.db
      .insertInto('experiences')
      .values(experienceRow({ max_attendees: 1 }))
      .returningAll()
      .executeTakeFirstOrThrow()
    // The member takes the last seat between the list's read of the row and its viewer lookups.
    const token = await api.signToken(member.id)
    expect((await api.request('POST', `v1/experiences/${readEarlier.id}/attendees`, { token, body: { user_id: member.id } })).status).toBe(200)

    const [json] = await serializeExperiences(database.db, createLocalStorage(tmpdir()), [readEarlier], member)
    expect(json).toMatchObject({ attendees_count: 1, is_full: true, viewer: { is_attending: true, waitlist_position: null } })
  })
})

describe('list query plan', () => {
  it('uses the location or start indexes for a dated 10-mile search', async () => {
    const cities = [
      [45.5152, -122.6784],
      [47.6062, -122.3321],
      [37.7749, -122.4194],
      [39.7392, -104.9903],
      [41.8781, -87.6298],
      [40.7128, -74.006],
      [33.749, -84.388],
      [29.7604, -95.3698],
    ] as const
    const rows: Insertable<ExperiencesTable>[] = []
    for (let i = 0; i < 4000; i++) {
      const [lat, lng] = cities[i % cities.length] as readonly [number, number]
      const start = new Date(Date.now() + ((i * 7919) % 365) * DAY + (i % 24) * 3_600_000)
      rows.push(
        experienceRow({
          slug: `plan-${i}-${randomBytes(3).toString('hex')}`,
          latitude: lat + (((i * 37) % 100) - 50) / 100,
          longitude: lng + (((i * 53) % 100) - 50) / 100,
          start_at: start,
          end_at: new Date(start.getTime() + 7_200_000),
        }),
      )
    }
    for (let i = 0; i < rows.length; i += 500) {
      await database.db.insertInto('experiences').values(rows.slice(i, i + 500)).execute()
    }
    await sql`ANALYZE experiences`.execute(database.db)

    const query = buildListQuery(
      database.db,
      {
        startGte: new Date(Date.now() + 10 * DAY),
        startLte: new Date(Date.now() + 17 * DAY),
        excludeUndated: true,
        distanceMiles: 10,
        origin: { latitude: 45.5152, longitude: -122.6784 },
      },
      { limit: 20, offset: 0 },
    ).compile()
    const explained = await database.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
    )
    const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(plan).toMatch(/experiences_location|experiences_start/)
    expect(plan).not.toMatch(/Seq Scan on experiences/)
  })
})
