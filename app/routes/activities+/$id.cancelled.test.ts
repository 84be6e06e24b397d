import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import { loader } from './$id.tsx'

/**
 * Issue 10: a cancelled activity's page, through the real API and session store. Its host, its
 * attendees and admins still see it (as cancelled); to anyone else it is a 404 page.
 */
let database: TestDatabase
let api: ApiHarness
let services: WebServices

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  services = testWebServices(api, database.db)
})

afterAll(async () => {
  await database?.drop()
})

const newContext = () => testContext(services)
const cookieFor = async (user: User | null) => (user ? sessionCookie(api, services, user.id) : '')

async function openPage(id: string, user: User | null) {
  const request = new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { headers: { cookie: await cookieFor(user) } })
  return loader({ request, context: newContext(), params: { id } })
}

describe('a cancelled activity’s page (issue 10)', () => {
  it('shows it to the host, an attendee and an admin, and answers 404 to anyone else', async () => {
    const host = await createUser(database.db, { first_name: 'Walter' })
    const attendee = await createUser(database.db)
    const admin = await createUser(database.db, { is_admin: true })
    const stranger = await createUser(database.db)
    const start = new Date(Date.now() + 5 * 24 * 3_600_000)
    const experience = await database.db
      .insertInto('experiences')
      .values({
        slug: `cancelled-walk-${crypto.randomUUID().slice(0, 8)}`,
        title: 'Cancelled riverside walk',
        venue_type: 'online',
        url: 'https://example.com/meet',
        host_id: host.id,
        timezone: 'America/New_York',
        start_at: start,
        end_at: new Date(start.getTime() + 3_600_000),
        attendees_count: 1,
        canceled_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()

    for (const viewer of [host, attendee, admin]) {
      const page = await openPage(experience.id, viewer)
      expect(page.experience).toMatchObject({ id: experience.id, canceled_at: expect.any(String) })
    }
    for (const viewer of [null, stranger]) {
      for (const key of [experience.id, experience.slug]) {
        await expect(openPage(key, viewer)).rejects.toMatchObject({ init: { status: 404 } })
      }
    }
  })
})
