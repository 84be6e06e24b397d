import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as notifications from './notifications.tsx'

/** Onboarding's notification permission (issue 15 §5) as a browser without JavaScript uses it. */
const handle = createDocumentHandler([{ id: 'routes/get-started+/notifications', path: 'get-started/notifications', module: notifications as never }])

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

async function member(locale: 'en' | 'fr' | 'nl' = 'en') {
  const user = await createUser(database.db, { onboarding_step: 'notifications', locale })
  return { user, cookie: await web.signedInCookie(user.id) }
}

const page = (cookie: string, language = 'en', query = '') =>
  handle(new Request(`${TEST_PUBLIC_URL}/get-started/notifications${query}`, { headers: { cookie, 'accept-language': language } }), web.newContext())

describe('/get-started/notifications', () => {
  it('explains what the member will hear about, and without JavaScript offers Continue and never asks the browser', async () => {
    const { cookie } = await member()
    const response = await page(cookie)
    expect(response.status).toBe(200)
    const html = readableHtml(await response.text())
    expect(html).toContain('Step 3 of 8')
    expect(html).toContain('href="/get-started/location"')
    expect(html).toContain('<h1>Hear about your activities</h1>')
    expect(html).toContain('someone sends you a message,')
    expect(html).toContain('JavaScript is off in this browser, so you can simply continue.')
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="skip"[^>]*>Continue<\/button>/)
    expect(html).not.toContain('Allow notifications')
    // The weekly suggestions are offered, unticked (issue 15 §1: opt-in).
    expect(html).toMatch(/<input id="recommendations" type="checkbox" name="recommendations" aria-describedby="recommendations-hint"\/>/)
    expect(html).toContain('<label for="recommendations">Send me a weekly email with activities near me</label>')
  })

  it('speaks French and Dutch', async () => {
    const french = await member('fr')
    expect(readableHtml(await (await page(french.cookie, 'fr')).text())).toContain('<h1>Restez au courant de vos activités</h1>')
    const dutch = await member('nl')
    expect(readableHtml(await (await page(dutch.cookie, 'nl')).text())).toContain('<h1>Blijf op de hoogte van uw activiteiten</h1>')
  })

  it('Continue goes on to the profile photo, remembers it, and keeps where the member was going', async () => {
    const { user, cookie } = await member()
    const response = await handle(
      new Request(`${TEST_PUBLIC_URL}/get-started/notifications?returnTo=${encodeURIComponent('/activities/42')}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'skip' }),
      }),
      web.newContext(),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/get-started/profile-photo?returnTo=${encodeURIComponent('/activities/42')}`)
    const saved = await database.db.selectFrom('users').select('onboarding_step').where('id', '=', user.id).executeTakeFirstOrThrow()
    expect(saved.onboarding_step).toBe('profile-photo')
  })

  const continueWith = (cookie: string, fields: Record<string, string>) =>
    handle(
      new Request(`${TEST_PUBLIC_URL}/get-started/notifications`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }),
      web.newContext(),
    )
  const recommendationSettings = (userId: string) =>
    database.db
      .selectFrom('notification_workflow_settings')
      .select(['channel', 'enabled'])
      .where('user_id', '=', userId)
      .where('template_id', '=', 'recommendations')
      .orderBy('channel')
      .execute()

  it('the ticked weekly suggestions are turned on in the app and by email when the member continues', async () => {
    const { user, cookie } = await member()
    const response = await continueWith(cookie, { intent: 'skip', recommendations: 'on' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/get-started/profile-photo')
    expect(await recommendationSettings(user.id)).toEqual([
      { channel: 'email', enabled: true },
      { channel: 'in_app', enabled: true },
    ])
  })

  it('left unticked, nothing is turned on', async () => {
    const { user, cookie } = await member()
    const response = await continueWith(cookie, { intent: 'skip' })
    expect(response.status).toBe(302)
    expect(await recommendationSettings(user.id)).toEqual([])
  })

  it('a visitor who is not signed in is sent to sign in', async () => {
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/get-started/notifications`), web.newContext())
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toMatch(/login|sign/)
  })
})
