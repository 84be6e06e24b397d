import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { channelsFor } from '#api/notifications/preferences.ts'
import * as settingsPage from './notification-settings.tsx'

/** `/account/notification-settings` as a browser without JavaScript uses it (issue 15 §4, decision 044). */
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

const path = '/account/notification-settings'
const handle = createDocumentHandler([
  {
    id: 'routes/account+/notification-settings',
    path: 'account/notification-settings',
    module: settingsPage as never,
  },
])

async function member() {
  const user = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes' })
  return { user, cookie: await web.signedInCookie(user.id) }
}

async function page(cookie: string, language = 'en') {
  const response = await handle(
    new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie, 'accept-language': language } }),
    web.newContext(),
  )
  return { status: response.status, html: readableHtml(await response.text()) }
}

async function post(cookie: string, fields: [string, string][]) {
  const response = await handle(
    new Request(`${TEST_PUBLIC_URL}${path}`, {
      method: 'POST',
      headers: { cookie },
      body: new URLSearchParams(fields),
    }),
    web.newContext(),
  )
  return { response, html: readableHtml(await response.text()) }
}

/** Whether the checkbox named `name` is ticked in the page. */
function ticked(html: string, name: string) {
  const tag = new RegExp(`<input[^>]*name="${name.replace('.', '\\.')}"[^>]*>`).exec(html)?.[0]
  if (!tag) throw new Error(`no checkbox ${name}`)
  return /\schecked(=""|\s|>|\/)/.test(tag)
}

/** The boxes a member with the defaults would send, as form fields. */
function defaults(html: string): [string, string][] {
  return [...html.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => /\schecked(=""|\s|>|\/)/.test(tag))
    .map((tag) => [/name="([^"]+)"/.exec(tag)![1]!, 'on'])
}

describe('the page', () => {
  it('asks a visitor to sign in', async () => {
    const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`), web.newContext())
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/login?returnTo=${encodeURIComponent(path)}`)
  })

  it('shows the defaults: in-app and email on, push and texts off, suggestions off, each topic in its own fieldset', async () => {
    const { cookie } = await member()
    const { status, html } = await page(cookie)
    expect(status).toBe(200)
    expect(html).toContain('<title>Notification settings – Circle 55</title>')
    expect(html.match(/<fieldset/g)).toHaveLength(10)
    expect(html).toContain('<legend id="ns-reminders-legend">Reminders</legend>')
    expect(ticked(html, 'global.in_app')).toBe(true)
    expect(ticked(html, 'global.email')).toBe(true)
    expect(ticked(html, 'global.push')).toBe(false)
    expect(ticked(html, 'global.sms')).toBe(false)
    expect(ticked(html, 'reminders.email')).toBe(true)
    expect(ticked(html, 'recommendations.email')).toBe(false)
    // Vitest bundles no CSS: root's stylesheet link is given the address a build gives it.
    expect(
      await htmlProblems(
        html.replace(
          '<link rel="stylesheet" href=""/>',
          '<link rel="stylesheet" href="/assets/app.css"/>',
        ),
      ),
    ).toEqual([])
  })

  it('is translated', async () => {
    const { cookie } = await member()
    expect((await page(cookie, 'fr')).html).toContain('Réglages des notifications')
    expect((await page(cookie, 'nl')).html).toContain('Meldingen instellen')
  })
})

describe('saving without JavaScript', () => {
  it('saves every box as sent, comes back with a toast, and shows the choices kept', async () => {
    const { user, cookie } = await member()
    const sent = defaults((await page(cookie)).html).filter(
      ([name]) => name !== 'direct_messages.email',
    )
    sent.push(['global.sms', 'on'], ['recommendations.email', 'on'], ['intent', 'save'])
    const { response } = await post(cookie, sent)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(path)
    expect(response.headers.get('set-cookie')).toBeTruthy()

    const { html } = await page(cookie)
    expect(ticked(html, 'global.sms')).toBe(true)
    expect(ticked(html, 'recommendations.email')).toBe(true)
    expect(ticked(html, 'direct_messages.email')).toBe(false)
    expect(ticked(html, 'direct_messages.in_app')).toBe(true)
    // What delivery will do with them.
    expect(await channelsFor(database.db, user.id, 'direct_messages')).toEqual(['in_app'])
    expect(await channelsFor(database.db, user.id, 'reminders')).toEqual(['in_app', 'email', 'sms'])
  })

  it('says beside the box when a value was not understood, and keeps the other choices', async () => {
    const { cookie } = await member()
    const { response, html } = await post(cookie, [
      ['intent', 'save'],
      ['global.email', 'on'],
      ['global.sms', 'maybe'],
    ])
    expect(response.status).toBe(400)
    expect(html).toContain('id="ns-global-sms-error"')
    expect(html).toContain('This choice was not understood')
    expect(ticked(html, 'global.email')).toBe(true)
    expect(ticked(html, 'global.in_app')).toBe(false)
    // Nothing was saved.
    expect(ticked((await page(cookie)).html, 'global.in_app')).toBe(true)
  })
})

describe('one box at a time (the JavaScript fetcher)', () => {
  it('saves one box and answers which', async () => {
    const { user, cookie } = await member()
    const { response } = await post(cookie, [
      ['intent', 'toggle'],
      ['field', 'hosting.email'],
      ['enabled', 'false'],
    ])
    expect(response.status).toBe(200)
    expect(await channelsFor(database.db, user.id, 'hosting')).toEqual(['in_app'])
  })

  it('refuses an unknown box', async () => {
    const { cookie } = await member()
    const { response } = await post(cookie, [
      ['intent', 'toggle'],
      ['field', 'weather.email'],
      ['enabled', 'true'],
    ])
    expect(response.status).toBe(400)
  })
})
