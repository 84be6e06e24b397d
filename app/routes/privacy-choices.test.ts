import { beforeAll, describe, expect, it } from 'vitest'
import { createAnalytics } from '#api/analytics/service.ts'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import * as adminMember from './admin+/members_.$id.tsx'
import * as privacyChoices from './privacy-choices.tsx'

/**
 * Analytics consent in the web app without JavaScript (issue 32 §5, decision 081): French and
 * Dutch visitors are asked (a plain form, Accept and Refuse alike), the answer is remembered in a
 * cookie and on a member's account, anyone can change it at `/privacy-choices`, GPC is shown as
 * honoured, and each page view is recorded once, the way the visitor's choice and signals allow.
 */
const pages = routePages([
  { id: 'routes/privacy-choices', path: 'privacy-choices', module: privacyChoices as never },
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: adminMember as never },
])
const { page, post } = pages
const chrome = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

beforeAll(() => {
  pages.web.services.analytics = createAnalytics({ db: pages.database.db, ownHost: 'localhost' })
})

/** The page views recorded for a path, newest first (recording does not hold the page up: waited for). */
async function pageViews(path: string, count: number) {
  await expect.poll(async () => (await pages.database.db.selectFrom('analytics_events').select('id').where('path', '=', path).execute()).length, { timeout: 5_000 }).toBe(count)
  return pages.database.db.selectFrom('analytics_events').selectAll().where('path', '=', path).orderBy('id', 'desc').execute()
}

describe('the consent question and /privacy-choices', () => {
  it('asks a French visitor, takes the answer from a plain form, remembers it in a cookie and stops asking', async () => {
    const response = await page('/privacy-choices?utm_source=flyer&q=secret', '', { headers: { 'accept-language': 'fr', 'user-agent': chrome } })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('data-testid="consent-choice"')
    expect(html).toContain('Pouvons-nous compter vos visites ?')
    expect(html).toMatch(/<form method="post" action="\/privacy-choices"/)
    expect(html).toContain('name="choice" value="granted"')
    expect(html).toContain('name="choice" value="refused"')
    expect(await validationOf(html)).toEqual([])
    // Counted before any answer, but anonymously: no visitor hash, the query gone but for utm_*.
    const [unanswered] = await pageViews('/privacy-choices?utm_source=flyer', 1)
    expect(unanswered).toMatchObject({ visitor_hash: null, user_id: null, locale: 'fr' })

    const answered = await post('/privacy-choices', '', { choice: 'granted', returnTo: '/privacy-choices?utm_source=flyer' })
    expect(answered.response.status).toBe(302)
    expect(answered.response.headers.get('location')).toBe('/privacy-choices?utm_source=flyer')
    const cookie = withSetCookies('', answered.response)
    expect(cookie).toContain('c55_consent=granted')
    expect(answered.response.headers.getSetCookie().find((line) => line.startsWith('c55_consent='))).toMatch(/Max-Age=\d+; HttpOnly; SameSite=Lax/)

    const after = await page('/privacy-choices?utm_source=flyer', cookie, { headers: { 'accept-language': 'fr', 'user-agent': chrome } })
    const text = await after.text()
    expect(text).not.toContain('data-testid="consent-choice"')
    expect(text).toContain('Vous avez accepté.')
    const [accepted] = await pageViews('/privacy-choices?utm_source=flyer', 2)
    expect(accepted!.visitor_hash).toMatch(/^[\w-]{32}$/)
  })

  it('does not ask an English visitor; a wrong answer is said plainly and changes nothing', async () => {
    const html = await (await page('/privacy-choices', '', { headers: { 'accept-language': 'en' } })).text()
    expect(html).not.toContain('data-testid="consent-choice"')
    expect(html).toContain('You have not made a choice yet.')
    const wrong = await post('/privacy-choices', '', { choice: 'maybe' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.html).toContain('Choose Accept or Refuse.')
    expect(wrong.response.headers.getSetCookie().some((line) => line.startsWith('c55_consent='))).toBe(false)
  })

  it('honours GPC: says so, never asks, and records no visitor hash nor member even after an acceptance', async () => {
    const member = await createUser(pages.database.db, { locale: 'nl' })
    const cookie = await pages.web.signedInCookie(member.id)
    const gpc = { 'sec-gpc': '1', 'accept-language': 'nl', 'user-agent': chrome }
    const html = await (await page('/privacy-choices?utm_campaign=gpc', `${cookie}; c55_consent=granted`, { headers: gpc })).text()
    expect(html).toContain('Uw browser stuurt Global Privacy Control.')
    expect(html).not.toContain('data-testid="consent-choice"')
    const [view] = await pageViews('/privacy-choices?utm_campaign=gpc', 1)
    expect(view).toMatchObject({ visitor_hash: null, user_id: null })
  })

  it('keeps a member’s answer on their account, so a new browser knows it', async () => {
    const member = await createUser(pages.database.db, { locale: 'fr' })
    const cookie = await pages.web.signedInCookie(member.id)
    const refused = await post('/privacy-choices', cookie, { choice: 'refused', returnTo: '/privacy-choices' })
    expect(refused.response.status).toBe(302)
    expect((await pages.database.db.selectFrom('users').select('analytics_consent').where('id', '=', member.id).executeTakeFirstOrThrow()).analytics_consent).toBe('refused')
    // Another browser, signed in, without the consent cookie: not asked again, the cookie given back.
    const elsewhere = await pages.web.signedInCookie(member.id)
    const response = await page('/privacy-choices', elsewhere, { headers: { 'accept-language': 'fr' } })
    const html = await response.text()
    expect(html).not.toContain('data-testid="consent-choice"')
    expect(html).toContain('Vous avez refusé.')
    expect(response.headers.getSetCookie().some((line) => line.startsWith('c55_consent=refused'))).toBe(true)
  })

  it('records nothing for a prefetch or a page answered with an error', async () => {
    await page('/privacy-choices?utm_term=prefetch', '', { headers: { 'sec-purpose': 'prefetch' } })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await pages.database.db.selectFrom('analytics_events').select('id').where('path', '=', '/privacy-choices?utm_term=prefetch').execute()).toEqual([])
  })

  it('loads Segment’s browser library only with its key, with consent, without GPC, and never while the team views as a member', async () => {
    const writeKey = 'wk_test_Segment0123456789'
    pages.web.services.config.segmentWriteKey = writeKey
    try {
      const loads = async (cookie: string, headers: Record<string, string>) => (await (await page('/privacy-choices', cookie, { headers })).text()).includes(writeKey)
      expect(await loads('', { 'accept-language': 'en' })).toBe(true)
      expect(await loads('', { 'accept-language': 'en', 'sec-gpc': '1' })).toBe(false)
      expect(await loads('', { 'accept-language': 'en', dnt: '1' })).toBe(false)
      expect(await loads('', { 'accept-language': 'fr' })).toBe(false)
      expect(await loads('c55_consent=granted', { 'accept-language': 'fr' })).toBe(true)
      expect(await loads('c55_consent=refused', { 'accept-language': 'en' })).toBe(false)

      const admin = await createUser(pages.database.db, { staff_role: 'admin', last_sign_in_at: new Date(), locale: 'en' })
      const member = await createUser(pages.database.db, { locale: 'en' })
      const cookie = await pages.web.signedInCookie(admin.id)
      expect(await loads(cookie, { 'accept-language': 'en' })).toBe(true)
      const started = await post(`/admin/members/${member.id}`, cookie, { reason: 'Checking her page' })
      expect(started.response.status).toBe(302)
      expect(await loads(cookie, { 'accept-language': 'en' })).toBe(false)
    } finally {
      pages.web.services.config.segmentWriteKey = null
    }
  })
})
