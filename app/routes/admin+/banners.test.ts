import { describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import { readableHtml } from '#tests/web-document.ts'
import * as home from '../_index.tsx'
import * as dismissal from '../resources+/banner-dismissal.ts'
import * as banners from './banners.tsx'

/**
 * Banners without JavaScript (issue 32 §4, decision 084): an admin writes one for the area around
 * a city at `/admin/banners` (mistakes said next to their field, nothing typed lost); members and
 * visitors there see it on Home, one at a time, in their language, and hide it with a plain form,
 * remembered on the account for members and in a cookie of this site for visitors.
 */
const pages = routePages([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/admin+/banners', path: 'admin/banners', module: banners as never },
  { id: 'routes/resources+/banner-dismissal', path: 'resources/banner-dismissal', module: dismissal as never },
])
const { post, text } = pages

const portland = { latitude: 45.5152, longitude: -122.6784 }
const boston = { lat: 42.36, lng: -71.06 }
const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16)

const fields = {
  intent: 'create',
  title_en: 'Summer picnic at Laurelhurst Park',
  title_fr: 'Pique-nique d’été au parc Laurelhurst',
  title_nl: 'Zomerpicknick in Laurelhurst Park',
  body_en: 'Bring a dish to share; we bring the chairs.',
  body_fr: 'Apportez un plat à partager ; nous apportons les chaises.',
  body_nl: 'Neem een gerecht mee om te delen; wij zorgen voor stoelen.',
  link: '/activities',
  starts_at: '',
  ends_at: inAWeek,
  area: 'circle',
  city: 'Portland, OR',
  radius: '25',
  states: '',
  audience: 'everyone',
  dismiss_days: '',
}

/** Home as a visitor's browser gets it, its internet address placing it at `located`. */
async function visitorHome(cookie: string, located: { lat: number; lng: number }) {
  const context = pages.web.newContext()
  context.services = { ...pages.web.services, locate: async () => located }
  const response = await pages.handle(new Request(`${TEST_PUBLIC_URL}/`, { headers: { cookie } }), context)
  expect(response.status).toBe(200)
  return readableHtml(await response.text())
}

describe('banners', () => {
  it('an admin writes a banner around Portland; a visitor there sees it on Home and hides it for good', async () => {
    const admin = await createUser(pages.database.db, { staff_role: 'admin' })
    const cookie = await pages.web.signedInCookie(admin.id)
    const empty = await text('/admin/banners', cookie)
    expect(empty).toContain('There are no banners yet.')
    expect(await validationOf(empty)).toEqual([])

    const wrong = await post('/admin/banners', cookie, { ...fields, title_fr: '', link: 'javascript:alert(1)', city: 'Xqzvwkj' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.html).toContain('We could not find that city.')
    expect(wrong.html).toContain('value="Summer picnic at Laurelhurst Park"')
    const refused = await post('/admin/banners', cookie, { ...fields, title_fr: '', link: 'javascript:alert(1)' })
    expect(refused.response.status).toBe(422)
    expect(refused.html).toMatch(/id="new-title_fr-error"[^>]*><span[^>]*>Error: <\/span>Write a title in this language\./)
    expect(refused.html).toMatch(/id="new-link-error"[^>]*><span[^>]*>Error: <\/span>Enter an address starting with https:\/\//)
    expect(refused.html).toContain('value="Zomerpicknick in Laurelhurst Park"')
    expect(await validationOf(refused.html)).toEqual([])

    const created = await post('/admin/banners', cookie, fields)
    expect(created.response.headers.get('location')).toBe('/admin/banners')
    const listed = await text('/admin/banners', cookie)
    expect(listed).toContain('Summer picnic at Laurelhurst Park')
    expect(listed).toMatch(/Within 25 miles of 45\.\d{3}, -122\.\d{3}/)
    expect(await validationOf(listed)).toEqual([])

    // A visitor placed in Portland by their address sees it; one in Boston does not.
    const seen = await visitorHome('', { lat: portland.latitude, lng: portland.longitude })
    expect(seen).toContain('Summer picnic at Laurelhurst Park')
    expect(seen).toContain('Hide this message')
    expect(await visitorHome('', boston)).not.toContain('Summer picnic')

    const banner = await pages.database.db.selectFrom('banners').select(['id', 'content_hash']).executeTakeFirstOrThrow()
    const hidden = await post('/resources/banner-dismissal', '', { id: banner.id, hash: banner.content_hash, days: '', returnTo: '/' })
    expect(hidden.response.status).toBe(302)
    expect(hidden.response.headers.get('location')).toBe('/')
    const remembered = withSetCookies('', hidden.response)
    expect(hidden.response.headers.get('set-cookie')).toMatch(/HttpOnly/)
    expect(await visitorHome(remembered, { lat: portland.latitude, lng: portland.longitude })).not.toContain('Summer picnic')

    // New words bring it back, even to the visitor who hid it.
    const changed = await post('/admin/banners', cookie, { ...fields, intent: 'update', id: banner.id, body_en: 'Now with music.', city: '', latitude: String(portland.latitude), longitude: String(portland.longitude) })
    expect(changed.response.headers.get('location')).toBe('/admin/banners')
    expect(await visitorHome(remembered, { lat: portland.latitude, lng: portland.longitude })).toContain('Now with music.')
  })

  it('a member in Portland sees it in French, hides it, and it stays hidden on every device', async () => {
    const admin = await createUser(pages.database.db, { staff_role: 'admin' })
    await pages.web.api.request('POST', 'v1/admin/banners', {
      token: await pages.web.api.signToken(admin.id),
      body: { title: { en: 'Choir evening', fr: 'Soirée chorale', nl: 'Kooravond' }, body: { en: 'Sing with us.', fr: 'Chantez avec nous.', nl: 'Zing met ons mee.' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'states', states: ['OR'] }, audience: 'members' },
    })
    const member = await createUser(pages.database.db, { locale: 'fr', lat: portland.latitude, long: portland.longitude, city: 'Portland' })
    const cookie = await pages.web.signedInCookie(member.id)
    const page = await text('/', `${cookie}; lng=fr`)
    expect(page).toContain('Soirée chorale')
    expect(page).toContain('Masquer ce message')
    const banner = await pages.database.db.selectFrom('banners').select(['id', 'content_hash']).where('audience', '=', 'members').executeTakeFirstOrThrow()
    const hidden = await post('/resources/banner-dismissal', cookie, { id: banner.id, hash: banner.content_hash, days: '', returnTo: '/' })
    expect(hidden.response.status).toBe(302)
    expect(hidden.response.headers.get('set-cookie')).toBeNull()
    expect(await text('/', `${cookie}; lng=fr`)).not.toContain('Soirée chorale')
    const otherDevice = await pages.web.signedInCookie(member.id)
    expect(await text('/', otherDevice)).not.toContain('Choir evening')

    // The `banners` flag off: no banner for anyone, at once.
    await pages.web.api.request('PUT', 'v1/admin/flags/banners', { token: await pages.web.api.signToken(admin.id), body: { description: 'Banners on Home', enabled: false, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [] } })
    const fresh = await createUser(pages.database.db, { lat: portland.latitude, long: portland.longitude, city: 'Portland' })
    expect(await text('/', await pages.web.signedInCookie(fresh.id))).not.toContain('Choir evening')
    await pages.web.api.request('PUT', 'v1/admin/flags/banners', { token: await pages.web.api.signToken(admin.id), body: { description: 'Banners on Home', enabled: true, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [] } })
    expect(await text('/', await pages.web.signedInCookie(fresh.id))).toContain('Choir evening')

    // Signed out, a visitor does not see a banner for members.
    expect(await visitorHome('', { lat: portland.latitude, lng: portland.longitude })).not.toContain('Choir evening')
    // Forged fields change nothing.
    expect((await post('/resources/banner-dismissal', cookie, { id: 'x', hash: banner.content_hash, returnTo: '/' })).response.status).toBe(400)
  })

  it('lets only admins in', async () => {
    for (const role of [null, 'moderator', 'support', 'finance'] as const) {
      const user = await createUser(pages.database.db, { staff_role: role })
      expect((await pages.get('/admin/banners', await pages.web.signedInCookie(user.id))).response.status).toBe(403)
    }
  })
})
