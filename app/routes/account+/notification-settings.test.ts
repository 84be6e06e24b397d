import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { channelsFor } from '#api/notifications/preferences.ts'
import { notificationTopics } from '#contract/notification-settings.ts'
import { topicGroups } from '#app/utils/notification-settings-form.ts'
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

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes', ...overrides })
  return { user, cookie: await web.signedInCookie(user.id) }
}

/** A member with a confirmed phone and one browser set up for alerts: every way can reach her. */
async function memberWithEverything() {
  const { user, cookie } = await member({ phone: '+15035550123', phone_confirmed_at: new Date() })
  await database.db
    .insertInto('devices')
    .values({ user_id: user.id, kind: 'web_push', token: `https://push.test/${user.id}` })
    .execute()
  return { user, cookie }
}

/** The names of the page's checkboxes. */
const boxes = (html: string) =>
  [...html.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)].map((match) => /name="([^"]+)"/.exec(match[0])![1]!)

/** The flash message the page shows after a save (the toast cookie the redirect set). */
async function savedMessage(response: Response, cookie: string) {
  const toast = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const { html } = await page(`${cookie}; ${toast}`)
  return /<div class="notice[^"]*flash"><p>([^<]*)<\/p>/.exec(html)?.[1]
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

/** The form's hidden fields (the intent, and which ways the page showed), as a browser sends them. */
function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)]
    .map((match): [string, string] => [match[1]!, match[2]!])
    .filter(([name]) => name !== 'returnTo')
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

  it('shows at a glance what reaches the member: ways not set up are said so, with how to set them up, and never ticked', async () => {
    const { cookie } = await member()
    const { status, html } = await page(cookie)
    expect(status).toBe(200)
    expect(html).toContain('<title>Notification settings – Circle 55</title>')
    expect(ticked(html, 'global.in_app')).toBe(true)
    expect(ticked(html, 'global.email')).toBe(true)
    // No phone and no browser set up: no box for them, neither among the ways nor for any topic.
    expect(boxes(html).filter((name) => /\.(push|sms)$/.test(name))).toEqual([])
    expect(html).toMatch(/Alerts on your phone or computer<\/strong>: not set up yet/)
    expect(html).toMatch(/Text messages<\/strong>: not set up yet/)
    expect(html).toMatch(/<a [^>]*href="\/account\/phone">Confirm your phone to get texts<\/a>/)
    expect(html).toContain('press “Set up alerts here”')
    expect(html).toContain('“Alerts on your phone or computer” is not set up yet, so it is not offered below.')
    // 2 ways + 9 topics × in-app and email, in two groups that say what matters.
    expect(boxes(html)).toHaveLength(2 + 9 * 2)
    expect(html).toContain('<h3 id="ns-group-yours">Your activities and messages</h3>')
    expect(html).toContain('<h3 id="ns-group-extras">Suggestions and news</h3>')
    expect(html).toContain('<legend id="ns-reminders-legend">Reminders</legend>')
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

  it('offers a way for each topic only while it is set up and on', async () => {
    const { cookie } = await memberWithEverything()
    const { html } = await page(cookie)
    // The browser set up turns alerts on by default; texts stay off until asked for.
    expect(ticked(html, 'global.push')).toBe(true)
    expect(ticked(html, 'global.sms')).toBe(false)
    expect(ticked(html, 'reminders.push')).toBe(true)
    expect(boxes(html).filter((name) => name.endsWith('.sms'))).toEqual(['global.sms'])
    expect(html).toContain('“Text messages” is turned off above, so it is not offered below.')
    expect(html).not.toContain('not set up yet')
  })

  it('names the in-app way as the screen does (“Notifications”), never a bell, in en, fr and nl', async () => {
    const said = [
      ['en', 'On Circle 55, under “Notifications”'],
      ['fr', 'Sur Circle 55, dans « Notifications »'],
      ['nl', 'Op Circle 55, onder ‘Meldingen’'],
    ] as const
    for (const [language, label] of said) {
      const { cookie } = await member({ locale: language })
      const { html } = await page(cookie, language)
      expect(html).toContain(label)
      expect(html).not.toMatch(/\bbell\b|cloche|belletje/i)
    }
  })

  it('puts every topic in exactly one group', () => {
    expect(topicGroups.flatMap((group) => group.topics).sort()).toEqual([...notificationTopics].sort())
  })

  it('is translated', async () => {
    const { cookie } = await member()
    expect((await page(cookie, 'fr')).html).toContain('Réglages des notifications')
    expect((await page(cookie, 'nl')).html).toContain('Meldingen instellen')
  })
})

describe('saving without JavaScript', () => {
  it('saves every box shown, comes back saying what changed, and shows the choices kept', async () => {
    const { user, cookie } = await memberWithEverything()
    const shown = (await page(cookie)).html
    const sent = defaults(shown).filter(([name]) => name !== 'direct_messages.email')
    sent.push(['global.sms', 'on'], ['recommendations.email', 'on'], ...hiddenFields(shown))
    const { response } = await post(cookie, sent)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(path)
    expect(await savedMessage(response, cookie)).toBe(
      'Your choices are saved. We may now reach you by text message. You will no longer hear about “Messages” by email. You will hear about “Activities near you” by email.',
    )

    const { html } = await page(cookie)
    expect(ticked(html, 'global.sms')).toBe(true)
    expect(ticked(html, 'recommendations.email')).toBe(true)
    expect(ticked(html, 'direct_messages.email')).toBe(false)
    expect(ticked(html, 'direct_messages.in_app')).toBe(true)
    // Texts were not offered per topic while off: their topic choices are kept, now shown.
    expect(ticked(html, 'reminders.sms')).toBe(true)
    // What delivery will do with them.
    expect(await channelsFor(database.db, user.id, 'direct_messages')).toEqual(['in_app', 'push'])
    expect(await channelsFor(database.db, user.id, 'reminders')).toEqual(['in_app', 'email', 'push', 'sms'])
  })

  it('never changes a way that was not shown: alerts and texts not set up keep their choices', async () => {
    const { user, cookie } = await member()
    const shown = (await page(cookie)).html
    // A form that also carries boxes the page did not show (an old page, a tampered one).
    const { response } = await post(cookie, [...defaults(shown), ...hiddenFields(shown), ['global.sms', 'on']])
    expect(response.status).toBe(302)
    expect(await savedMessage(response, cookie)).toBe('Nothing was changed: your choices are as they were.')
    const kept = await database.db
      .selectFrom('notification_global_settings')
      .select(['channel', 'enabled'])
      .where('user_id', '=', user.id)
      .orderBy('channel')
      .execute()
    expect(kept).toEqual([
      { channel: 'email', enabled: true },
      { channel: 'in_app', enabled: true },
    ])
    expect(
      await database.db
        .selectFrom('notification_workflow_settings')
        .select('channel')
        .where('user_id', '=', user.id)
        .where('channel', 'in', ['push', 'sms'])
        .execute(),
    ).toEqual([])
  })

  it('says beside the box when a value was not understood, and keeps the other choices', async () => {
    const { cookie } = await memberWithEverything()
    const { response, html } = await post(cookie, [
      ['intent', 'save'],
      ['ways', 'in_app,email,push,sms'],
      ['topic-ways', 'in_app,email,push'],
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
