import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as location from './location.tsx'

/** Onboarding's home-city step (issue 13 §6) as a browser without JavaScript uses it. */
const handle = createDocumentHandler([{ id: 'routes/get-started+/location', path: 'get-started/location', module: location as never }])

let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

async function member() {
  const user = await createUser(database.db, { onboarding_step: 'location', city: null, lat: null, long: null })
  return { user, cookie: await web.signedInCookie(user.id) }
}

function post(cookie: string, fields: Record<string, string>, query = '') {
  const request = new Request(`${TEST_PUBLIC_URL}/get-started/location${query}`, {
    method: 'POST',
    headers: { cookie },
    body: new URLSearchParams(fields),
  })
  return handle(request, web.newContext())
}

const saved = (id: string) =>
  database.db.selectFrom('users').select(['city', 'region', 'lat', 'long', 'onboarding_step']).where('id', '=', id).executeTakeFirstOrThrow()

describe('/get-started/location', () => {
  it('shows where the member is in onboarding and asks for their home city', async () => {
    const { cookie } = await member()
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/get-started/location`, { headers: { cookie } }), web.newContext())
    const html = readableHtml(await response.text())
    expect(response.status).toBe(200)
    expect(html).toContain('Step 2 of 8')
    expect(html).toContain('Your home city')
    expect(html).toContain('href="/get-started"')
  })

  it('saves a typed city as the gazetteer has it and goes on to notifications, keeping returnTo', async () => {
    const { user, cookie } = await member()
    const response = await post(cookie, { intent: 'save', q: 'portland, or', place: '' }, `?returnTo=${encodeURIComponent('/activities')}`)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/get-started/notifications?returnTo=${encodeURIComponent('/activities')}`)
    expect(await saved(user.id)).toMatchObject({ city: 'Portland, OR', region: 'OR', onboarding_step: 'notifications', lat: expect.any(Number) })
  })

  it('says so next to the field when no city matches, and keeps what was typed', async () => {
    const { user, cookie } = await member()
    const response = await post(cookie, { intent: 'save', q: 'Qwxzzy', place: '' })
    const html = readableHtml(await response.text())
    expect(response.status).toBe(400)
    expect(html).toContain('Unable to find your location. Please try again.')
    expect(html).toContain('value="Qwxzzy"')
    expect(html).toContain('aria-invalid="true"')
    expect((await saved(user.id)).onboarding_step).toBe('location')
  })

  it('asks for a city when none is given, unless the member skips', async () => {
    const { user, cookie } = await member()
    expect((await post(cookie, { intent: 'save', q: '', place: '' })).status).toBe(400)
    const skipped = await post(cookie, { intent: 'skip', q: '', place: '' })
    expect(skipped.headers.get('location')).toBe('/get-started/notifications')
    expect(await saved(user.id)).toMatchObject({ city: null, onboarding_step: 'notifications' })
  })
})
