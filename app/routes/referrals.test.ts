import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { displayReferralCode } from '#contract/referral-code.ts'
import { campaignCookie } from '#app/utils/referrals.server.ts'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { changeFlag } from '#tests/flags.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as home from './_index.tsx'
import { loader as authLoginLoader } from './api+/auth.login.tsx'
import { loader as loginSuccessLoader } from './_auth+/login-success.tsx'
import * as activityPage from './activities+/$id.tsx'
import * as account from './account+/_index.tsx'
import { loader as inviteLink } from './i.$code.tsx'
import * as referrals from './referrals.tsx'

/**
 * Referrals on the web (issue 33 §1, decision 087), as a browser without JavaScript gets them:
 * `/referrals` (plain mailto:, sms: and https links, the counts, the first-name choice), the
 * invite link `/i/{code}` and the referral banner with and without the first name, "Invite a
 * friend" on an activity, the sign-up tracking cookie and its consent, and a friend's sign-up
 * from the invitation email, back to the activity through onboarding.
 */
const handle = createDocumentHandler([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/referrals', path: 'referrals', module: referrals as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
])

let database: TestDatabase
let web: WebHarness
/** The subject the identity provider's token endpoint signs in (the sign-up test). */
let signingIn = ''
const tokenEndpoint = setupServer()

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  tokenEndpoint.use(
    http.post(`${web.api.issuer}/token`, async () =>
      HttpResponse.json({ token_type: 'Bearer', expires_in: 600, access_token: await web.api.signToken(signingIn) }),
    ),
  )
  tokenEndpoint.listen({ onUnhandledRequest: 'error' })
}, 60_000)

afterAll(async () => {
  tokenEndpoint.close()
  await web?.close()
  await database?.drop()
})

const DAY = 86_400_000

/** A member of a year's standing, with their invite code. */
async function referrer(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { created_at: new Date(Date.now() - 365 * DAY), ...overrides })
  const token = await web.api.signToken(user.id)
  const code = (await web.api.request('GET', 'v1/users/me/referrals', { token })).json.data[0].code as string
  return { user, token, code }
}

async function get(path: string, { cookie = '', headers = {} }: { cookie?: string; headers?: Record<string, string> } = {}) {
  return handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie, ...headers } }), web.newContext())
}

const names = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split('=')[0])
const pairs = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '')
const text = (html: string) => readableHtml(html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

/** A loader's answer, returned or thrown. */
async function answer(run: () => Promise<unknown>): Promise<Response> {
  const result = await run().catch((thrown: unknown) => thrown)
  if (result instanceof Response) return result
  throw new Error(`Expected a response, got ${String(result)}`)
}

/** Opens `/i/{code}` as a browser would; answers the redirect. */
async function follow(code: string, query = '', cookie = '') {
  const request = new Request(`${TEST_PUBLIC_URL}/i/${code}${query}`, { headers: { cookie } })
  return (await inviteLink({ request, context: web.newContext(), params: { code } })) as Response
}

describe('/referrals, without JavaScript', () => {
  it('shows the link and code, a ready email and text message as plain links, and the counts', async () => {
    const margaret = await referrer({ first_name: 'Margaret', last_name: 'Hughes' })
    await web.api.request('POST', `v1/referrals/${margaret.code}/clicks`)
    const response = await get('/referrals', { cookie: await web.signedInCookie(margaret.user.id) })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const html = readableHtml(await response.text())
    const link = `${TEST_PUBLIC_URL}/i/${margaret.code}`
    expect(html).toContain(`href="${link}"`)
    expect(html).toContain(`Your invite code: ${displayReferralCode(margaret.code)}`)
    const mailto = /href="(mailto:[^"]+)"/.exec(html)?.[1] ?? ''
    expect(decodeURIComponent(mailto)).toContain('subject=Come and join me on Circle 55')
    expect(decodeURIComponent(mailto)).toContain(link)
    const sms = /href="(sms:[^"]+)"/.exec(html)?.[1] ?? ''
    expect(decodeURIComponent(sms)).toBe(`sms:?&body=I joined Circle 55, where people aged 55 and over meet in small groups near home. Come along, it is free: ${link}`)
    // The words are on the page too, to copy; no share button without JavaScript.
    expect(text(html)).toContain('Subject: Come and join me on Circle 55')
    expect(html).not.toContain('Share your link')
    expect(text(html)).toContain('Times your link was opened 1 Friends who joined 0 Friends who came to a first activity 0')
    // Nothing promised: there is no reward.
    expect(html).not.toMatch(/free month|reward|So you know/i)
  })

  it('keeps the first name off the banner until the member says so, with a plain form', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    const cookie = await web.signedInCookie(margaret.user.id)
    const before = readableHtml(await (await get('/referrals', { cookie })).text())
    expect(before).toMatch(/<input id="show-first-name-0" type="checkbox" name="show_first_name" value="on"\/>/)
    const saved = await handle(
      new Request(`${TEST_PUBLIC_URL}/referrals`, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ intent: 'name', show_first_name: 'on' }) }),
      web.newContext(),
    )
    expect(saved.status).toBe(302)
    expect(saved.headers.get('location')).toBe('/referrals')
    const after = readableHtml(await (await get('/referrals', { cookie })).text())
    expect(after).toMatch(/<input id="show-first-name-0" type="checkbox" name="show_first_name" checked="" value="on"\/>/)
  })

  it('asks a visitor to sign in first', async () => {
    const response = await get('/referrals')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/login?returnTo=%2Freferrals')
  })
})

describe('the invite link and the referral banner', () => {
  it('counts the opening, keeps the invite in a first-party cookie and goes Home, where the banner says “a friend” unless allowed', async () => {
    const margaret = await referrer({ first_name: 'Margaret', last_name: 'Hughes', city: 'Portland' })
    const opened = await follow(margaret.code.toLowerCase())
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe('/')
    const ref = opened.headers.getSetCookie().find((cookie) => cookie.startsWith('ref='))
    expect(ref).toMatch(/; Path=\/; .*HttpOnly; SameSite=Lax/)
    expect(names(opened)).toEqual(['ref', 'device'])
    expect((await web.api.request('GET', 'v1/users/me/referrals', { token: margaret.token })).json.data[0].clicks).toBe(1)

    const cookie = pairs(opened).join('; ')
    const anonymous = text(await (await get('/', { cookie })).text())
    expect(anonymous).toContain('A friend invited you to join Circle 55. Welcome!')
    expect(anonymous).not.toContain('Margaret')

    await web.api.request('PUT', 'v1/users/me/referrals', { token: margaret.token, body: { show_first_name: true } })
    const named = text(await (await get('/', { cookie })).text())
    expect(named).toContain('Margaret invited you to join Circle 55. Welcome!')
    // Nothing else of her: not her surname, not her city.
    expect(named).not.toContain('Hughes')
    expect(named).not.toContain('Portland')
  })

  it('keeps nothing for a code that is nobody’s, nor for a member already signed in, and no banner for them', async () => {
    const unknown = await follow('ZZZZ2345')
    expect(unknown.headers.get('location')).toBe('/')
    expect(names(unknown)).toEqual([])
    const margaret = await referrer()
    const member = await createUser(database.db)
    const signedIn = await follow(margaret.code, '', await web.signedInCookie(member.id))
    expect(names(signedIn)).toEqual([])
  })
})

describe('the sign-up tracking cookie (spec §5, §9)', () => {
  const campaign = '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20walks&utm_term=walks&gclid=abc&email=ann%40example.com'
  const utmCookie = (response: Response) => response.headers.getSetCookie().find((cookie) => cookie.startsWith('utm='))

  it('keeps utm_source, utm_medium and utm_campaign for 12 hours, first-party and HttpOnly', async () => {
    const response = await get(campaign, { headers: { 'accept-language': 'en' } })
    const cookie = utmCookie(response) ?? ''
    expect(cookie).toContain('Max-Age=43200')
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Domain=')
    const value = JSON.parse(Buffer.from(decodeURIComponent(cookie.split(';')[0]!.slice('utm='.length)).split('.')[0]!, 'base64').toString('utf8')) as unknown
    expect(value).toEqual({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring walks' })
  })

  it('is Secure (and `__Host-`) when the site is served over https, as the session cookie is', async () => {
    const context = web.newContext()
    context.services = { ...web.services, config: { ...web.services.config, secureCookies: true } }
    const request = new Request(`https://circle55.example${campaign}`)
    const cookie = (await campaignCookie(request, context, { language: 'en', choice: null, signedIn: false, impersonating: false })) ?? ''
    expect(cookie).toMatch(/^__Host-utm=.*; Max-Age=43200; .*Path=\/; .*HttpOnly; Secure; SameSite=Lax$/)
  })

  it('keeps no value that looks like an email address', async () => {
    expect(utmCookie(await get('/?utm_source=ann%40example.com', { headers: { 'accept-language': 'en' } }))).toBeUndefined()
  })

  it('is not set in French or Dutch before consent, nor with Global Privacy Control or Do Not Track, nor for a member', async () => {
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'fr' } }))).toBeUndefined()
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'nl' } }))).toBeUndefined()
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'fr' }, cookie: 'c55_consent=granted' }))).toBeDefined()
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'en', 'sec-gpc': '1' } }))).toBeUndefined()
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'en', dnt: '1' } }))).toBeUndefined()
    expect(utmCookie(await get(campaign, { headers: { 'accept-language': 'en' }, cookie: 'c55_consent=refused' }))).toBeUndefined()
    const member = await createUser(database.db)
    expect(utmCookie(await get(campaign, { cookie: await web.signedInCookie(member.id) }))).toBeUndefined()
  })
})

describe('Invite a friend, from the email to the activity', () => {
  async function activityPageAs(id: string, userId: string, form?: Record<string, string>) {
    const cookie = await web.signedInCookie(userId)
    const request = form
      ? new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { method: 'POST', headers: { cookie }, body: new URLSearchParams(form) })
      : new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { headers: { cookie } })
    return handle(request, web.newContext())
  }

  it('flags a malformed address next to the field, keeps it, and says the same for a member and anyone else', async () => {
    const host = await createUser(database.db)
    const margaret = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes' })
    const ruth = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { title: 'Garden walk', attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: margaret.id }).execute()

    const page = readableHtml(await (await activityPageAs(experience.id, margaret.id)).text())
    expect(page).toContain('name="intent" value="invite-friend"')
    // Not offered to someone who is not going.
    expect(readableHtml(await (await activityPageAs(experience.id, ruth.id)).text())).not.toContain('value="invite-friend"')

    const bad = await activityPageAs(experience.id, margaret.id, { intent: 'invite-friend', friend_email: 'ruth at example' })
    expect(bad.status).toBe(400)
    const badHtml = readableHtml(await bad.text())
    expect(badHtml).toMatch(/<input id="friend-email" type="email" aria-invalid="true" aria-describedby="friend-email-hint friend-email-error"[^>]*value="ruth at example"/)
    expect(badHtml).toContain('Enter an email address in the form name@example.com.')

    const said = async (email: string) => {
      const answer = await activityPageAs(experience.id, margaret.id, { intent: 'invite-friend', friend_email: email })
      expect(answer.status).toBe(200)
      return text(await answer.text()).replaceAll(email, '<address>')
    }
    const toMember = await said(ruth.email!)
    const toStranger = await said('new.friend@example.net')
    expect(toMember).toContain('Thank you. We sent an invitation to <address> unless we already had from you.')
    expect(toStranger).toEqual(toMember)
  })

  it('brings a friend who signs up from the email through onboarding back to the activity, counted once they come', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    const experience = await createExperience(database.db, margaret.user.id, { title: 'Tuesday garden walk' })
    const friendAddress = `tuesday.${Math.random().toString(36).slice(2, 8)}@example.net`
    expect((await web.api.request('POST', `v1/experiences/${experience.id}/invite-friend`, { token: margaret.token, body: { email: friendAddress } })).status).toBe(200)
    const mail = await database.db.selectFrom('email_outbox').select('text_body').where('to_address', '=', friendAddress).executeTakeFirstOrThrow()
    const emailed = /http:\/\/\S+\/i\/\S+/.exec(mail.text_body)?.[0] ?? ''
    expect(emailed).toBe(`${TEST_PUBLIC_URL}/i/${margaret.code}?activity=${experience.id}`)

    // The friend opens the link (with a campaign's parameters on an earlier page): to the activity, the invite kept.
    const url = new URL(emailed)
    const opened = await follow(url.pathname.split('/').pop()!, url.search)
    expect(opened.headers.get('location')).toBe(`/activities/${experience.id}`)
    const campaign = (await get('/?utm_source=friends&utm_campaign=tuesday', { headers: { 'accept-language': 'en' } })).headers.getSetCookie().find((cookie) => cookie.startsWith('utm='))!
    const browser = [...pairs(opened), campaign.split(';')[0]!].join('; ')
    const activity = text(await (await get(`/activities/${experience.id}`, { cookie: browser })).text())
    expect(activity).toContain('A friend invited you to join Circle 55.')

    // Signs up (the identity provider makes the account), back at /login-success: onboarding first, then the activity.
    const friend = await createUser(database.db, { email: friendAddress, first_name: 'Ruth', onboarded_at: null, state: 'created', onboarding_step: null })
    signingIn = friend.id
    const start = await answer(() =>
      authLoginLoader({ request: new Request(`${TEST_PUBLIC_URL}/api/auth/login?screen_hint=signup&returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`), context: web.newContext(), params: {} }),
    )
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? ''
    const back = await answer(() =>
      loginSuccessLoader({
        request: new Request(`${TEST_PUBLIC_URL}/login-success?code=a-code&state=${state}`, { headers: { cookie: [browser, ...pairs(start)].join('; ') } }),
        context: web.newContext(),
        params: {},
      }),
    )
    expect(back.headers.get('location')).toMatch(new RegExp(`^/get-started\\?returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`))
    // The invite and the campaign are recorded with the new account, and their cookies cleared.
    expect(await database.db.selectFrom('referrals').select(['referrer_id', 'status', 'experience_id']).where('referred_user_id', '=', friend.id).executeTakeFirst()).toEqual({
      referrer_id: margaret.user.id,
      status: 'signed_up',
      experience_id: experience.id,
    })
    expect(await database.db.selectFrom('signup_attributions').select(['utm_source', 'utm_medium', 'utm_campaign']).where('user_id', '=', friend.id).executeTakeFirst()).toEqual({
      utm_source: 'friends',
      utm_medium: null,
      utm_campaign: 'tuesday',
    })
    const cleared = back.headers.getSetCookie().filter((cookie) => /^(ref|utm)=;/.test(cookie))
    expect(cleared.map((cookie) => cookie.split('=')[0]).sort()).toEqual(['ref', 'utm'])
    expect(cleared.every((cookie) => cookie.includes('Max-Age=0'))).toBe(true)

    // Ruth goes; afterwards Margaret, the host, says she came: Margaret's page counts her.
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: friend.id }).execute()
    await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 3_600_000), attendees_count: 1 }).where('id', '=', experience.id).execute()
    const marked = await web.api.request('POST', `v1/experiences/${experience.id}/attendance`, { token: margaret.token, body: { marks: [{ user_id: friend.id, present: true }] } })
    expect(marked.status).toBe(200)
    const counts = text(await (await get('/referrals', { cookie: await web.signedInCookie(margaret.user.id) })).text())
    expect(counts).toContain('Friends who joined 1 Friends who came to a first activity 1')
  })
})

describe('with the referrals flag off (decision 087)', () => {
  it('offers no “Invite friends” on Home or the account page, no “Invite a friend” on an activity, and /referrals is not found; on again, all are back', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    const experience = await createExperience(database.db, margaret.user.id, { title: 'Garden walk' })
    const cookie = await web.signedInCookie(margaret.user.id)
    const offered = async () => ({
      home: readableHtml(await (await get('/', { cookie })).text()).includes('href="/referrals"'),
      account: readableHtml(await (await get('/account', { cookie })).text()).includes('href="/referrals"'),
      activity: readableHtml(await (await get(`/activities/${experience.id}`, { cookie })).text()).includes('value="invite-friend"'),
      page: (await get('/referrals', { cookie })).status,
    })
    expect(await offered()).toEqual({ home: true, account: true, activity: true, page: 200 })

    const restore = await changeFlag(web.api, 'referrals', { enabled: false })
    try {
      expect(await offered()).toEqual({ home: false, account: false, activity: false, page: 404 })
      // The name setting, posted all the same: not found, nothing changed.
      const posted = await handle(
        new Request(`${TEST_PUBLIC_URL}/referrals`, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ intent: 'name', show_first_name: 'on' }) }),
        web.newContext(),
      )
      expect(posted.status).toBe(404)
      // "Invite a friend" from a page drawn before: not found, and nobody is emailed.
      const invited = await handle(
        new Request(`${TEST_PUBLIC_URL}/activities/${experience.id}`, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ intent: 'invite-friend', friend_email: 'late.friend@example.net' }) }),
        web.newContext(),
      )
      expect(invited.status).toBe(404)
      expect(await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', 'late.friend@example.net').execute()).toEqual([])
    } finally {
      await restore()
    }
    expect(await offered()).toEqual({ home: true, account: true, activity: true, page: 200 })
    expect((await web.api.request('GET', 'v1/users/me/referrals', { token: margaret.token })).json.data[0].show_first_name).toBe(false)
  })

  it('still opens a link already sent at its activity, but keeps nothing, counts nothing and shows no banner', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    await web.api.request('PUT', 'v1/users/me/referrals', { token: margaret.token, body: { show_first_name: true } })
    const experience = await createExperience(database.db, margaret.user.id, { title: 'Garden walk' })
    // Someone who followed it before the flag was turned off keeps the cookie.
    const earlier = pairs(await follow(margaret.code)).join('; ')
    expect(text(await (await get('/', { cookie: earlier })).text())).toContain('Margaret invited you to join Circle 55.')

    const restore = await changeFlag(web.api, 'referrals', { enabled: false })
    try {
      const opened = await follow(margaret.code, `?activity=${experience.id}`)
      expect(opened.status).toBe(302)
      expect(opened.headers.get('location')).toBe(`/activities/${experience.id}`)
      expect(names(opened)).toEqual([])
      const activity = await get(`/activities/${experience.id}`)
      expect(activity.status).toBe(200)
      expect(text(await activity.text())).toContain('Garden walk')
      expect(text(await (await get('/', { cookie: earlier })).text())).not.toContain('invited you')
      expect(text(await (await get(`/activities/${experience.id}`, { cookie: earlier })).text())).not.toContain('invited you')
      expect((await database.db.selectFrom('referral_codes').select('clicks').where('user_id', '=', margaret.user.id).executeTakeFirstOrThrow()).clicks).toBe(1)
    } finally {
      await restore()
    }
  })
})
