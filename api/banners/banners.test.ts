import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { createApiHarness, type ApiHarness, signedInMember } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * Banners by location and popups as one mechanism (issue 32 §4, decision 084): admins create,
 * change and end banners (audited); `GET v1/cms/banners` answers those showing at a point, by area
 * (a circle, US states, everywhere), period and audience; a member who puts one away does not see
 * it again until it changes or its days run out; members get the banners where they live among
 * their popups, cacheable privately for 5 minutes (spec §9).
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const portland = { latitude: 45.5152, longitude: -122.6784 }
const seattle = { latitude: 47.6062, longitude: -122.3321 }
const boston = { latitude: 42.3601, longitude: -71.0589 }
const day = 24 * 60 * 60 * 1000
const later = (ms: number) => new Date(Date.now() + ms).toISOString()

/** A member signed in to the API (`call` with their token). */
const person = (overrides: Partial<NewUser> = {}) => signedInMember(api, { last_sign_in_at: new Date(), ...overrides })

const words = (text: string) => ({ en: text, fr: `${text} (fr)`, nl: `${text} (nl)` })
const banner = (title: string, overrides: Record<string, unknown> = {}) => ({
  title: words(title),
  body: words('Coffee mornings start on Monday at the library.'),
  link_url: '/activities',
  ends_at: later(7 * day),
  area: { kind: 'everywhere' },
  ...overrides,
})
const at = (point: { latitude: number; longitude: number }) => `v1/cms/banners?latitude=${point.latitude}&longitude=${point.longitude}`
const titles = (response: { json: { data: Array<{ title: { en: string } }> } }) => response.json.data.map((shown) => shown.title.en)

describe('banners by location', () => {
  it('answers, to visitors too, the banners showing at a point: by circle, by state, everywhere, within their period', async () => {
    const admin = await person({ staff_role: 'admin' })
    const create = async (body: unknown) => {
      const response = await admin.call('POST', 'v1/admin/banners', body)
      expect(response.status).toBe(201)
      return response.json.data[0] as { id: string; state: string }
    }
    const circle = await create(banner('Portland picnic', { area: { kind: 'circle', ...portland, radius_miles: 25 } }))
    await create(banner('Washington walks', { area: { kind: 'states', states: ['WA'] } }))
    await create(banner('Everywhere news'))
    await create(banner('Not yet', { starts_at: later(2 * day), ends_at: later(4 * day) }))

    expect(titles(await api.request('GET', at(portland)))).toEqual(expect.arrayContaining(['Portland picnic', 'Everywhere news']))
    expect(titles(await api.request('GET', at(portland)))).not.toContain('Washington walks')
    expect(titles(await api.request('GET', at(seattle)))).toEqual(expect.arrayContaining(['Washington walks', 'Everywhere news']))
    expect(titles(await api.request('GET', at(seattle)))).not.toContain('Portland picnic')
    expect(titles(await api.request('GET', at(boston)))).toEqual(['Everywhere news'])
    // The `banners` flag off: none is showing, to an API client as on the web.
    const flag = (enabled: boolean) => ({ description: 'Banners admins write', enabled, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [] })
    expect((await admin.call('PUT', 'v1/admin/flags/banners', flag(false))).status).toBe(200)
    expect(titles(await api.request('GET', at(boston)))).toEqual([])
    expect((await admin.call('PUT', 'v1/admin/flags/banners', flag(true))).status).toBe(200)
    expect(titles(await api.request('GET', at(boston)))).toEqual(['Everywhere news'])
    expect(circle).toMatchObject({ state: 'showing', area: { kind: 'circle', radius_miles: 25 }, audience: 'everyone', dismissals: 0 })
    const shown = (await api.request('GET', at(portland))).json.data.find((entry: { id: string }) => entry.id === circle.id)
    expect(shown).toEqual({ id: circle.id, title: words('Portland picnic'), body: words('Coffee mornings start on Monday at the library.'), link_url: '/activities', content_hash: expect.any(String), dismiss_days: null })

    // Both coordinates are needed (spec §7).
    const missing = await api.request('GET', 'v1/cms/banners?latitude=45.5')
    expect(missing.status).toBe(422)
    expect(missing.json.error.fields).toHaveProperty('longitude')
    expect((await api.request('GET', 'v1/cms/banners?latitude=91&longitude=0')).status).toBe(422)

    // Ending it: gone at once, listed as ended, audited.
    expect((await admin.call('POST', `v1/admin/banners/${circle.id}/end`)).json.data[0].state).toBe('ended')
    expect(titles(await api.request('GET', at(portland)))).not.toContain('Portland picnic')
    const audit = await database.db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_id', '=', circle.id).orderBy('id').execute()
    expect(audit).toEqual([
      { action: 'banner.create', actor_id: admin.user.id },
      { action: 'banner.end', actor_id: admin.user.id },
    ])
    const listed = (await admin.call('GET', 'v1/admin/banners')).json.data as Array<{ title: { en: string }; state: string }>
    expect(listed.at(-1)).toMatchObject({ title: { en: 'Portland picnic' }, state: 'ended' })
    expect(listed.find((entry) => entry.title.en === 'Not yet')?.state).toBe('scheduled')
  })

  it('shows a banner to its audience only: everyone, signed-in members, premium members', async () => {
    const admin = await person({ staff_role: 'admin' })
    await admin.call('POST', 'v1/admin/banners', banner('For members', { audience: 'members', area: { kind: 'states', states: ['MA'] } }))
    await admin.call('POST', 'v1/admin/banners', banner('For premium', { audience: 'premium', area: { kind: 'states', states: ['MA'] } }))
    const member = await person()
    const premium = await person()
    await database.db.insertInto('subscriptions').values({ user_id: premium.user.id, plan: 'premium', status: 'active', partnership_id: null, provider_ref: null, current_period_end: new Date(Date.now() + 300 * day), checkout_ref: null, payment_method_id: null, provider: null, canceled_at: null }).execute()
    expect(titles(await api.request('GET', at(boston)))).not.toContain('For members')
    expect(titles(await member.call('GET', at(boston)))).toContain('For members')
    expect(titles(await member.call('GET', at(boston)))).not.toContain('For premium')
    expect(titles(await premium.call('GET', at(boston)))).toEqual(expect.arrayContaining(['For members', 'For premium']))
  })

  it('keeps a banner away once a member hides it, until it changes or its days run out', async () => {
    const admin = await person({ staff_role: 'admin' })
    const lasting = (await admin.call('POST', 'v1/admin/banners', banner('Tai chi in the park', { area: { kind: 'states', states: ['OR'] } }))).json.data[0]
    const weekly = (await admin.call('POST', 'v1/admin/banners', banner('Weekly reminder', { area: { kind: 'states', states: ['OR'] }, dismiss_days: 7 }))).json.data[0]
    const member = await person()
    const other = await person()
    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: lasting.id })).status).toBe(204)
    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: lasting.id })).status).toBe(204)
    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: weekly.id })).status).toBe(204)
    expect(titles(await member.call('GET', at(portland)))).not.toContain('Tai chi in the park')
    expect(titles(await member.call('GET', at(portland)))).not.toContain('Weekly reminder')
    expect(titles(await other.call('GET', at(portland)))).toEqual(expect.arrayContaining(['Tai chi in the park', 'Weekly reminder']))
    expect((await admin.call('GET', 'v1/admin/banners')).json.data.find((entry: { id: string }) => entry.id === lasting.id).dismissals).toBe(1)

    // Seven days later the weekly one is back; the lasting one stays away.
    await database.db.updateTable('popups').set({ expires_at: new Date(Date.now() - 1000) }).where('banner_id', '=', weekly.id).execute()
    expect(titles(await member.call('GET', at(portland)))).toContain('Weekly reminder')
    expect(titles(await member.call('GET', at(portland)))).not.toContain('Tai chi in the park')

    // New words bring it back (audited with what it was); the same words again do not.
    const changed = await admin.call('PUT', `v1/admin/banners/${lasting.id}`, banner('Tai chi in the park', { body: words('Now on Tuesdays too.'), area: { kind: 'states', states: ['OR'] } }))
    expect(changed.status).toBe(200)
    expect(changed.json.data[0].content_hash).not.toBe(lasting.content_hash)
    expect(titles(await member.call('GET', at(portland)))).toContain('Tai chi in the park')
    const audit = await database.db.selectFrom('audit_log').select(['action', 'data']).where('target_id', '=', lasting.id).where('action', '=', 'banner.update').executeTakeFirstOrThrow()
    expect(audit.data).toMatchObject({ before: { body: { en: 'Coffee mornings start on Monday at the library.' } }, after: { body: { en: 'Now on Tuesdays too.' } } })

    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404)
    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: 'nope' })).json.error.fields).toEqual({ banner_id: ['banner_id_invalid'] })
    expect((await member.call('PUT', 'v1/users/me/popups', { type: 'SOMETHING' })).status).toBe(422)
  })

  it('gives members the banners where they live among their popups, kept privately 5 minutes (spec §9)', async () => {
    const admin = await person({ staff_role: 'admin' })
    const created = (await admin.call('POST', 'v1/admin/banners', banner('Seattle singers', { area: { kind: 'circle', ...seattle, radius_miles: 10 } }))).json.data[0]
    const near = await person({ lat: seattle.latitude, long: seattle.longitude })
    const far = await person({ lat: boston.latitude, long: boston.longitude })
    const nowhere = await person({ lat: null, long: null })
    const popups = await near.call('GET', 'v1/users/me/popups')
    expect(popups.headers.get('cache-control')).toBe('private, max-age=300, stale-while-revalidate=300')
    expect(popups.json.data).toContainEqual({ type: 'BANNER', banner_id: created.id, banner: expect.objectContaining({ id: created.id, title: words('Seattle singers') }) })
    expect((await far.call('GET', 'v1/users/me/popups')).json.data.map((popup: { banner_id?: string }) => popup.banner_id)).not.toContain(created.id)
    expect((await nowhere.call('GET', 'v1/users/me/popups')).json.data.filter((popup: { type: string }) => popup.type === 'BANNER')).toEqual([])
    await near.call('PUT', 'v1/users/me/popups', { type: 'BANNER', banner_id: created.id })
    expect((await near.call('GET', 'v1/users/me/popups')).json.data.map((popup: { banner_id?: string }) => popup.banner_id)).not.toContain(created.id)
  })

  it('checks what admins write, field by field, and lets only admins manage banners', async () => {
    const admin = await person({ staff_role: 'admin' })
    const refused = await admin.call('POST', 'v1/admin/banners', {
      ...banner('x'),
      title: { en: '', fr: 'x'.repeat(81), nl: '<b>bold</b>' },
      link_url: 'javascript:alert(1)',
      ends_at: later(400 * day),
      area: { kind: 'circle', ...portland, radius_miles: 0 },
      dismiss_days: 0,
    })
    expect(refused.status).toBe(422)
    expect(refused.json.error.fields).toEqual({
      'title.en': ['title_required'],
      'title.fr': ['title_too_long'],
      'title.nl': ['text_invalid'],
      link_url: ['link_invalid'],
      'area.radius_miles': ['radius_invalid'],
      dismiss_days: ['dismiss_days_invalid'],
      ends_at: ['ends_too_late'],
    })
    expect((await admin.call('POST', 'v1/admin/banners', banner('x', { area: { kind: 'states', states: ['ZZ'] } }))).json.error.fields).toEqual({ 'area.states': ['states_invalid'] })
    expect((await admin.call('POST', 'v1/admin/banners', banner('x', { starts_at: later(2 * day), ends_at: later(day) }))).json.error.fields).toEqual({ ends_at: ['ends_before_start'] })
    expect((await admin.call('POST', 'v1/admin/banners', banner('x', { link_url: '//evil.example' }))).json.error.fields).toEqual({ link_url: ['link_invalid'] })
    for (const role of ['moderator', 'support', 'finance'] as const) {
      const staff = await person({ staff_role: role })
      expect((await staff.call('GET', 'v1/admin/banners')).status).toBe(403)
      expect((await staff.call('POST', 'v1/admin/banners', banner('x'))).status).toBe(403)
    }
    expect((await api.request('GET', 'v1/admin/banners')).status).toBe(401)
    expect((await admin.call('POST', 'v1/admin/banners/00000000-0000-4000-8000-000000000000/end')).status).toBe(404)
  })
})
