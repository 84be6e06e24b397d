import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import { createApiHarness, createExperience, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import * as activityPage from './$id.tsx'

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
  return activityPage.loader({ request, context: newContext(), params: { id } })
}

describe('a cancelled activity’s page (issue 10)', () => {
  it('shows it to the host, an attendee and an admin, and answers 404 to anyone else', async () => {
    const host = await createUser(database.db, { first_name: 'Walter' })
    const attendee = await createUser(database.db)
    const admin = await createUser(database.db, { staff_role: 'admin' })
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

describe('a cancelled activity’s page says who cancelled it and when (issue 12 §2)', () => {
  const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

  async function drawPage(id: string, user: User, language = 'en') {
    const headers = { cookie: await cookieFor(user), 'accept-language': language }
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { headers }), newContext())
    expect(response.status).toBe(200)
    return readableHtml(await response.text())
  }

  /** An activity in Los Angeles with no one signed up, cancelled through the API by `by`. */
  async function cancelledBy(host: User, by: User) {
    const experience = await createExperience(database.db, host.id, { title: 'Sunset picnic', timezone: 'America/Los_Angeles' })
    const before = new Date()
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: await api.signToken(by.id) })).status).toBe(204)
    return { experience, before }
  }

  const day = (at: Date, language: string) =>
    new Intl.DateTimeFormat(language, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'America/Los_Angeles' }).format(at)

  it('by the host: named, with the day and time in the activity’s time zone; never "Be the first!"', async () => {
    const host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const { experience, before } = await cancelledBy(host, host)
    const admin = await createUser(database.db, { staff_role: 'admin' })
    const html = await drawPage(experience.id, admin)
    expect(html).toMatch(new RegExp(`Walter B\\., the host, canceled this activity on ${day(before, 'en')} at \\d{1,2}:\\d{2} [AP]M P[DS]T\\.`))
    expect(html).not.toContain('Be the first')
    expect(html).toContain('Nobody had signed up.')
    // In the member's language.
    const french = await createUser(database.db, { staff_role: 'admin', locale: 'fr' })
    expect(await drawPage(experience.id, french, 'fr')).toContain(`Walter B., l'organisateur, a annulé cette activité le ${day(before, 'fr')} à `)
    // The host reads that they did it.
    expect(await drawPage(experience.id, host)).toContain(`You canceled this activity on ${day(before, 'en')} at `)
  })

  it('by an admin: the Circle 55 team, never the admin’s name', async () => {
    const host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const admin = await createUser(database.db, { staff_role: 'admin', first_name: 'Quentin', last_name: 'Admin' })
    const { experience, before } = await cancelledBy(host, admin)
    const html = await drawPage(experience.id, host)
    expect(html).toContain(`The Circle 55 team canceled this activity on ${day(before, 'en')} at `)
    expect(html).not.toContain('Quentin')
  })
})
