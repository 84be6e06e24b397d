import { randomBytes } from 'node:crypto'
import { sql, type Insertable } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExperiencesTable, User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createBuiltinPlacesProvider } from '../providers/maps/builtin.ts'
import type { PlacesProvider } from '../providers/maps/provider.ts'
import { foldLine } from './ical.ts'
import type { ResolvedPlace } from '#api/providers/maps/provider.ts'
import { feeToCents, zonedTimeToUtc } from './service.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

const placeList: ResolvedPlace[] = [
  { id: 'us-or-portland', label: 'Portland, OR', city: 'Portland', region: 'OR', latitude: 45.5152, longitude: -122.6784, timeZone: 'America/Los_Angeles' },
  { id: 'us-wa-seattle', label: 'Seattle, WA', city: 'Seattle', region: 'WA', latitude: 47.6062, longitude: -122.3321, timeZone: 'America/Los_Angeles' },
  { id: 'us-ny-new-york', label: 'New York, NY', city: 'New York', region: 'NY', latitude: 40.7128, longitude: -74.006, timeZone: 'America/New_York' },
]
/** The built-in provider with a fixed list of places, so that no gazetteer load is needed. */
const fakePlaces = (db: TestDatabase['db']): PlacesProvider => ({
  ...createBuiltinPlacesProvider(db),
  timeZoneAt: (_lat, lng) => (lng < -114 ? 'America/Los_Angeles' : 'America/New_York'),
  resolvePlace: (id) => Promise.resolve(placeList.find((place) => place.id === id) ?? null),
})

let database: TestDatabase
let api: ApiHarness
let host: User
let hostToken: string
let member: User
let memberToken: string
let admin: User
let adminToken: string

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {}, { places: fakePlaces(database.db) })
  ;({ user: host, token: hostToken } = await memberWithToken({ first_name: 'Walter', last_name: 'Brooks' }))
  ;({ user: member, token: memberToken } = await memberWithToken({ first_name: 'Margaret', last_name: 'Hughes' }))
  ;({ user: admin, token: adminToken } = await memberWithToken({ staff_role: 'admin' }))
})

afterAll(async () => {
  await database?.drop()
})

async function memberWithToken(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

/** A calendar date `days` from now, as seen in Los Angeles. */
function localDate(days: number) {
  const date = new Date(Date.now() + days * DAY)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date)
}

function validBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Morning walk, with coffee; bring shoes',
    description: 'A gentle walk.',
    start_date: localDate(10),
    start_time: '09:30',
    duration_minutes: 90,
    max_attendees: 12,
    venue_type: 'in_person',
    place_id: 'us-or-portland',
    formatted_address: '1000 SW Broadway, Portland, OR 97205',
    no_show_fee: '5.00',
    ...overrides,
  }
}

async function insertExperience(overrides: Partial<Insertable<ExperiencesTable>> = {}) {
  const start = (overrides.start_at as Date | undefined) ?? new Date(Date.now() + 5 * DAY)
  return database.db
    .insertInto('experiences')
    .values({
      slug: `walk-${randomBytes(4).toString('hex')}`,
      title: 'Riverside walk',
      venue_type: 'in_person',
      host_id: host.id,
      latitude: 45.5231,
      longitude: -122.6765,
      city: 'Portland',
      region: 'OR',
      place_id: 'us-or-portland',
      formatted_address: '1 SW Naito Pkwy, Portland, OR',
      timezone: 'America/Los_Angeles',
      start_at: start,
      end_at: new Date(start.getTime() + 2 * HOUR),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

async function seat(experienceId: string, userIds: string[]) {
  for (const userId of userIds) {
    await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: userId }).execute()
  }
  await database.db
    .updateTable('experiences')
    .set({ attendees_count: sql`attendees_count + ${userIds.length}` })
    .where('id', '=', experienceId)
    .execute()
}

async function waitlist(experienceId: string, userIds: string[]) {
  let at = Date.now() - 60_000
  for (const userId of userIds) {
    await database.db
      .insertInto('waitlist_entries')
      .values({ experience_id: experienceId, user_id: userId, created_at: new Date((at += 1000)) })
      .execute()
  }
}

function notificationsFor(userId: string) {
  return database.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()
}

function loadExperience(id: string) {
  return database.db.selectFrom('experiences').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

async function raw(path: string, token?: string) {
  const headers = new Headers()
  if (token) headers.set('authorization', `Bearer ${token}`)
  const response = await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/${path}`, { headers }))
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe('time and money helpers', () => {
  it('converts local times to UTC across DST changes', () => {
    expect(zonedTimeToUtc('2030-07-15', '09:30', 'America/Los_Angeles').toISOString()).toBe('2030-07-15T16:30:00.000Z')
    expect(zonedTimeToUtc('2030-01-15', '09:30', 'America/Los_Angeles').toISOString()).toBe('2030-01-15T17:30:00.000Z')
    // The day of the spring change: 01:30 still PST, 03:30 already PDT; 02:30 does not exist.
    expect(zonedTimeToUtc('2030-03-10', '01:30', 'America/New_York').toISOString()).toBe('2030-03-10T06:30:00.000Z')
    expect(zonedTimeToUtc('2030-03-10', '03:30', 'America/New_York').toISOString()).toBe('2030-03-10T07:30:00.000Z')
    expect(zonedTimeToUtc('2030-03-10', '02:30', 'America/New_York').toISOString()).toBe('2030-03-10T07:30:00.000Z')
    // Fall back: 01:30 happens twice; the first one (EDT) is taken.
    expect(zonedTimeToUtc('2030-11-03', '01:30', 'America/New_York').toISOString()).toBe('2030-11-03T05:30:00.000Z')
    expect(zonedTimeToUtc('2030-06-01', '12:00', 'Pacific/Honolulu').toISOString()).toBe('2030-06-01T22:00:00.000Z')
  })

  it('converts fees to cents', () => {
    expect(feeToCents('5.00')).toBe(500)
    expect(feeToCents('5')).toBe(500)
    expect(feeToCents('12.5')).toBe(1250)
    expect(feeToCents(7.25)).toBe(725)
    expect(feeToCents('five')).toBeUndefined()
    expect(feeToCents('-1')).toBeUndefined()
    expect(feeToCents('1.234')).toBeUndefined()
  })

  it('folds long lines at 75 octets without splitting characters', () => {
    const folded = foldLine(`DESCRIPTION:${'é'.repeat(100)}`)
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    expect(folded.split('\r\n').map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(`DESCRIPTION:${'é'.repeat(100)}`)
  })
})

describe('POST /api/v1/experiences', () => {
  it('creates an in-person activity in the place’s time zone', async () => {
    const body = validBody({ start_date: '2030-07-15', start_time: '09:30' })
    const response = await api.request('POST', 'v1/experiences', { token: hostToken, body })
    expect(response.status).toBe(201)
    const experience = response.json.data[0]
    expect(experience).toMatchObject({
      title: body.title,
      description: 'A gentle walk.',
      max_attendees: 12,
      attendees_count: 0,
      is_full: false,
      start_date: '2030-07-15T16:30:00.000Z',
      end_date: '2030-07-15T18:00:00.000Z',
      timezone: 'America/Los_Angeles',
      venue_type: 'in_person',
      location: {
        latitude: 45.5152,
        longitude: -122.6784,
        formattedAddress: '1000 SW Broadway, Portland, OR 97205',
        placeId: 'us-or-portland',
        city: 'Portland',
        region: 'OR',
      },
      url: null,
      no_show_fee: '5.00',
      is_hostless: false,
      is_premium: false,
      host: { id: host.id, display_name: 'Walter B.', avatar: null, is_verified: false },
      canceled_at: null,
      is_past: false,
      distance_miles: null,
      viewer: { is_attending: false, is_host: true, can_manage: true, waitlist_position: null },
    })
    expect(experience.slug).toMatch(/^morning-walk-with-coffee-bring-shoes-[a-z0-9]+$/)
    const stored = await loadExperience(experience.id)
    expect(stored).toMatchObject({ host_id: host.id, no_show_fee_cents: 500 })
  })

  it('uses standard time in winter and defaults the duration to 120 minutes', async () => {
    const response = await api.request('POST', 'v1/experiences', {
      token: hostToken,
      body: validBody({ start_date: '2030-01-15', start_time: '09:30', duration_minutes: undefined }),
    })
    expect(response.status).toBe(201)
    expect(response.json.data[0].start_date).toBe('2030-01-15T17:30:00.000Z')
    expect(response.json.data[0].end_date).toBe('2030-01-15T19:30:00.000Z')
  })

  it('uses the host’s city time zone for online activities, or Eastern time when unknown', async () => {
    const { token: westToken } = await memberWithToken({ lat: 45.52, long: -122.68, city: 'Portland' })
    const online = { venue_type: 'online', url: 'https://meet.example.com/walk', place_id: null, formatted_address: null }
    const west = await api.request('POST', 'v1/experiences', { token: westToken, body: validBody({ ...online, start_date: '2030-07-15', start_time: '10:00' }) })
    expect(west.status).toBe(201)
    expect(west.json.data[0]).toMatchObject({
      timezone: 'America/Los_Angeles',
      start_date: '2030-07-15T17:00:00.000Z',
      location: null,
      url: 'https://meet.example.com/walk',
    })
    const east = await api.request('POST', 'v1/experiences', { token: memberToken, body: validBody({ ...online, start_date: '2030-07-15', start_time: '10:00' }) })
    expect(east.status).toBe(201)
    expect(east.json.data[0]).toMatchObject({ timezone: 'America/New_York', start_date: '2030-07-15T14:00:00.000Z' })
  })

  it('answers 401 to anonymous callers', async () => {
    const response = await api.request('POST', 'v1/experiences', { body: validBody() })
    expect(response.status).toBe(401)
  })

  it.each([
    ['title_required', 'title', { title: undefined }],
    ['title_required', 'title', { title: '   ' }],
    ['start_date_required', 'start_date', { start_date: undefined }],
    ['start_date_past', 'start_date', { start_date: localDate(-2) }],
    ['start_time_required', 'start_time', { start_time: undefined }],
    ['start_time_step', 'start_time', { start_time: '09:32' }],
    ['capacity_positive', 'max_attendees', { max_attendees: 0 }],
    ['capacity_positive', 'max_attendees', { max_attendees: -3 }],
    ['location_required', 'place_id', { place_id: undefined }],
    ['location_required', 'place_id', { place_id: 'xx-nowhere' }],
    ['url_invalid', 'url', { venue_type: 'online', place_id: null, url: 'not a link' }],
    ['url_invalid', 'url', { venue_type: 'online', place_id: null, url: undefined }],
    ['url_invalid', 'ticket_url', { ticket_url: 'javascript:alert(1)' }],
    ['currency_invalid', 'no_show_fee', { no_show_fee: 'five dollars' }],
    ['venue_type_required', 'venue_type', { venue_type: undefined }],
    ['venue_type_required', 'venue_type', { venue_type: 'hybrid' }],
  ])('answers 422 %s (%s)', async (code, field, overrides) => {
    const response = await api.request('POST', 'v1/experiences', { token: hostToken, body: validBody(overrides) })
    expect(response.status).toBe(422)
    expect(response.json.error.code).toBe('invalid_input')
    expect(response.json.error.fields[field]).toContain(code)
  })

  it('reports several field errors at once', async () => {
    const response = await api.request('POST', 'v1/experiences', { token: hostToken, body: { description: 'x' } })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toMatchObject({
      title: ['title_required'],
      venue_type: ['venue_type_required'],
      start_date: ['start_date_required'],
      start_time: ['start_time_required'],
    })
  })

  it('answers 403 admin_only when a member sets is_hostless or is_premium, and accepts them from an admin', async () => {
    for (const flag of ['is_hostless', 'is_premium']) {
      const denied = await api.request('POST', 'v1/experiences', { token: memberToken, body: validBody({ [flag]: true }) })
      expect(denied.status).toBe(403)
      expect(denied.json.error.code).toBe('admin_only')
    }
    const harmless = await api.request('POST', 'v1/experiences', { token: memberToken, body: validBody({ is_hostless: false }) })
    expect(harmless.status).toBe(201)
    const allowed = await api.request('POST', 'v1/experiences', {
      token: adminToken,
      body: validBody({ is_hostless: true, is_premium: true }),
    })
    expect(allowed.status).toBe(201)
    expect(allowed.json.data[0]).toMatchObject({ is_hostless: true, is_premium: true })
  })

  it('ignores protected fields in the body', async () => {
    const response = await api.request('POST', 'v1/experiences', {
      token: memberToken,
      body: validBody({
        id: '00000000-0000-4000-8000-000000000001',
        attendees_count: 99,
        host_id: admin.id,
        canceled_at: new Date().toISOString(),
        slug: 'my-own-slug',
      }),
    })
    expect(response.status).toBe(201)
    const stored = await loadExperience(response.json.data[0].id)
    expect(stored.id).not.toBe('00000000-0000-4000-8000-000000000001')
    expect(stored).toMatchObject({ attendees_count: 0, host_id: member.id, canceled_at: null })
    expect(stored.slug).not.toBe('my-own-slug')
  })

  it('accepts a cover photo the caller uploaded and answers its URLs', async () => {
    const media = await database.db
      .insertInto('media')
      .values({
        owner_id: host.id,
        target: 'experience_cover',
        storage_key: `covers/${randomBytes(4).toString('hex')}.webp`,
        thumbnail_key: `covers/thumb-${randomBytes(4).toString('hex')}.webp`,
        mime_type: 'image/webp',
        width: 1200,
        height: 800,
        bytes: 1000,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const response = await api.request('POST', 'v1/experiences', { token: hostToken, body: validBody({ cover_photo: media.id }) })
    expect(response.status).toBe(201)
    expect(response.json.data[0].cover_photo).toEqual({
      url: `/api/media/${media.storage_key}`,
      thumbnail_url: `/api/media/${media.thumbnail_key}`,
    })
    const stolen = await api.request('POST', 'v1/experiences', { token: memberToken, body: validBody({ cover_photo: media.id }) })
    expect(stolen.status).toBe(422)
    expect(stolen.json.error.fields.cover_photo).toEqual(['cover_photo_invalid'])
  })

  it('rejects an in-person activity whose place the places provider does not know', async () => {
    const builtin = await createApiHarness(database.db)
    const token = await builtin.signToken(member.id)
    const response = await builtin.request('POST', 'v1/experiences', {
      token,
      body: validBody({ place_id: 'us-zz-nowhere' }),
    })
    expect(response.status).toBe(422)
    expect(response.json.error.fields.place_id).toEqual(['location_required'])
  })
})

describe('GET /api/v1/experiences/{idOrSlug}', () => {
  it('hides the address, the link and the viewer from anonymous callers and rounds coordinates', async () => {
    const experience = await insertExperience({ latitude: 45.523456, longitude: -122.676543, url: null })
    const response = await api.request('GET', `v1/experiences/${experience.id}`)
    expect(response.status).toBe(200)
    const json = response.json.data[0]
    expect(json.location).toEqual({
      latitude: 45.52,
      longitude: -122.68,
      formattedAddress: null,
      placeId: 'us-or-portland',
      city: 'Portland',
      region: 'OR',
    })
    expect(json.viewer).toBeNull()
    expect(json.url).toBeNull()
  })

  it('hides the online link from anonymous callers and shows it to members', async () => {
    const experience = await insertExperience({ venue_type: 'online', latitude: null, longitude: null, place_id: null, city: null, region: null, formatted_address: null, url: 'https://meet.example.com/secret' })
    const anonymous = await api.request('GET', `v1/experiences/${experience.id}`)
    expect(anonymous.json.data[0]).toMatchObject({ url: null, location: null, viewer: null })
    const signedIn = await api.request('GET', `v1/experiences/${experience.id}`, { token: memberToken })
    expect(signedIn.json.data[0]).toMatchObject({ url: 'https://meet.example.com/secret' })
  })

  it('shows everything to members, by id or by slug', async () => {
    const experience = await insertExperience({ latitude: 45.523456, longitude: -122.676543 })
    for (const key of [experience.id, experience.slug]) {
      const response = await api.request('GET', `v1/experiences/${key}`, { token: memberToken })
      expect(response.status).toBe(200)
      expect(response.json.data[0]).toMatchObject({
        id: experience.id,
        location: { latitude: 45.523456, longitude: -122.676543, formattedAddress: '1 SW Naito Pkwy, Portland, OR' },
        viewer: { is_attending: false, is_host: false, can_manage: false, waitlist_position: null },
      })
    }
    const asAdmin = await api.request('GET', `v1/experiences/${experience.id}`, { token: adminToken })
    expect(asAdmin.json.data[0].viewer).toMatchObject({ is_host: false, can_manage: true })
  })

  it('answers 404 for unknown ids and slugs', async () => {
    expect((await api.request('GET', `v1/experiences/${crypto.randomUUID()}`)).status).toBe(404)
    const response = await api.request('GET', 'v1/experiences/no-such-walk')
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('not_found')
  })


  it('answers a valid iCalendar file', async () => {
    const experience = await insertExperience({
      title: 'Tea, cakes; and talk',
      description: `Line one\nLine two, with a comma; and more. ${'Long text '.repeat(20)}`,
      start_at: new Date('2030-07-15T16:30:00Z'),
      end_at: new Date('2030-07-15T18:00:00Z'),
    })
    const anonymous = await raw(`v1/experiences/${experience.slug}?format=ical`)
    expect(anonymous.status).toBe(200)
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/calendar/)
    expect(anonymous.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.ics"$/)
    const text = anonymous.text
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true)
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    const unfolded = text.replace(/\r\n /g, '')
    expect(unfolded).toContain('BEGIN:VEVENT\r\n')
    expect(unfolded).toContain(`UID:${experience.id}@localhost\r\n`)
    expect(unfolded).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/)
    expect(unfolded).toContain('DTSTART:20300715T163000Z\r\n')
    expect(unfolded).toContain('DTEND:20300715T180000Z\r\n')
    expect(unfolded).toContain('SUMMARY:Tea\\, cakes\\; and talk\r\n')
    expect(unfolded).toContain('DESCRIPTION:Line one\\nLine two\\, with a comma\\; and more.')
    expect(unfolded).toContain('LOCATION:Portland\\, OR\r\n')
    expect(unfolded).toContain(`URL:${api.env.PUBLIC_URL}/activities/${experience.id}\r\n`)
    expect(unfolded).toContain('END:VEVENT\r\n')
    const signedIn = await raw(`v1/experiences/${experience.id}?format=ical`, memberToken)
    expect(signedIn.text.replace(/\r\n /g, '')).toContain('LOCATION:1 SW Naito Pkwy\\, Portland\\, OR\r\n')
  })
})

describe('GET /api/v1/experiences', () => {
  // Each test uses its own far-future window so that rows of other tests do not interfere.
  function window(year: number) {
    return { gte: new Date(`${year}-03-01T00:00:00Z`), lte: new Date(`${year}-03-31T23:59:59Z`) }
  }
  function listPath(params: Record<string, string | number>) {
    return `v1/experiences?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`
  }

  it('filters by date range, sorts by start and excludes cancelled activities', async () => {
    const w = window(2041)
    const late = await insertExperience({ start_at: new Date('2041-03-20T17:00:00Z') })
    const early = await insertExperience({ start_at: new Date('2041-03-05T17:00:00Z') })
    await insertExperience({ start_at: new Date('2041-03-10T17:00:00Z'), canceled_at: new Date() })
    await insertExperience({ start_at: new Date('2041-04-10T17:00:00Z') })
    await insertExperience({ start_at: new Date('2041-02-10T17:00:00Z') })
    const response = await api.request('GET', listPath({ 'start_date[gte]': w.gte.toISOString(), 'start_date[lte]': w.lte.toISOString() }))
    expect(response.status).toBe(200)
    expect(response.json.data.map((e: { id: string }) => e.id)).toEqual([early.id, late.id])
    expect(response.json.metadata).toEqual({ page: 1, total_pages: 1, total_count: 2 })
    const anonymous = response.json.data[0]
    expect(anonymous.viewer).toBeNull()
    expect(anonymous.location.formattedAddress).toBeNull()
  })

  it('finds activities within 10 miles of Portland and not Seattle ones', async () => {
    const w = window(2042)
    const portland = await insertExperience({ start_at: new Date('2042-03-05T17:00:00Z'), latitude: 45.5152, longitude: -122.6784 })
    const beaverton = await insertExperience({ start_at: new Date('2042-03-06T17:00:00Z'), latitude: 45.4871, longitude: -122.8037 })
    await insertExperience({ start_at: new Date('2042-03-07T17:00:00Z'), latitude: 47.6062, longitude: -122.3321, city: 'Seattle', region: 'WA' })
    await insertExperience({ start_at: new Date('2042-03-08T17:00:00Z'), venue_type: 'online', latitude: null, longitude: null, url: 'https://meet.example.com/x' })
    const response = await api.request(
      'GET',
      listPath({
        'start_date[gte]': w.gte.toISOString(),
        'start_date[lte]': w.lte.toISOString(),
        'distance[lte]': 10,
        latitude: 45.5152,
        longitude: -122.6784,
      }),
      { token: memberToken },
    )
    expect(response.status).toBe(200)
    expect(response.json.data.map((e: { id: string }) => e.id)).toEqual([portland.id, beaverton.id])
    expect(response.json.data[0].distance_miles).toBe(0)
    expect(response.json.data[1].distance_miles).toBeGreaterThan(5)
    expect(response.json.data[1].distance_miles).toBeLessThan(10)
  })

  it('uses the caller’s saved location as the default origin', async () => {
    const w = window(2043)
    const { token } = await memberWithToken({ lat: 47.61, long: -122.33, city: 'Seattle' })
    const seattle = await insertExperience({ start_at: new Date('2043-03-07T17:00:00Z'), latitude: 47.6062, longitude: -122.3321 })
    await insertExperience({ start_at: new Date('2043-03-08T17:00:00Z') })
    const response = await api.request(
      'GET',
      listPath({ 'start_date[gte]': w.gte.toISOString(), 'start_date[lte]': w.lte.toISOString(), 'distance[lte]': 10 }),
      { token },
    )
    expect(response.json.data.map((e: { id: string }) => e.id)).toEqual([seattle.id])
  })

  it('answers 422 origin_required for a distance without an origin', async () => {
    const response = await api.request('GET', listPath({ 'distance[lte]': 10 }))
    expect(response.status).toBe(422)
    expect(response.json.error.fields['distance[lte]']).toEqual(['origin_required'])
  })

  it('pages results with metadata and caps per_page at 50', async () => {
    const w = window(2044)
    for (let day = 1; day <= 5; day++) {
      await insertExperience({ start_at: new Date(`2044-03-0${day}T17:00:00Z`) })
    }
    const base = { 'start_date[gte]': w.gte.toISOString(), 'start_date[lte]': w.lte.toISOString() }
    const page2 = await api.request('GET', listPath({ ...base, per_page: 2, page: 2 }))
    expect(page2.json.metadata).toEqual({ page: 2, total_pages: 3, total_count: 5 })
    expect(page2.json.data).toHaveLength(2)
    expect(page2.json.data[0].start_date).toBe('2044-03-03T17:00:00.000Z')
    const page3 = await api.request('GET', listPath({ ...base, per_page: 2, page: 3 }))
    expect(page3.json.data).toHaveLength(1)
    const big = await api.request('GET', listPath({ ...base, per_page: 500 }))
    expect(big.status).toBe(200)
    expect(big.json.data).toHaveLength(5)
  })

  it('excludes undated activities with start_date[not]=null and filters by venue type', async () => {
    const undated = await insertExperience({ start_at: null, end_at: null, title: `Undated ${randomBytes(3).toString('hex')}` })
    const all = await api.request('GET', listPath({ per_page: 50, page: 1000 }))
    expect(all.status).toBe(200)
    const withUndated = await api.request('GET', listPath({ per_page: 1, page: all.json.metadata.total_count }))
    expect(withUndated.json.data[0].start_date).toBeNull()
    const dated = await api.request('GET', listPath({ 'start_date[not]': 'null', per_page: 50 }))
    expect(dated.json.metadata.total_count).toBeLessThan(all.json.metadata.total_count)
    expect(dated.json.data.some((e: { id: string }) => e.id === undated.id)).toBe(false)
    const online = await api.request('GET', listPath({ venue_type: 'online', per_page: 50 }))
    expect(online.json.data.every((e: { venue_type: string }) => e.venue_type === 'online')).toBe(true)
  })
})

describe('PUT /api/v1/experiences/{id}', () => {
  it('answers 401 to anonymous callers and 403 to another member', async () => {
    const experience = await insertExperience()
    expect((await api.request('PUT', `v1/experiences/${experience.id}`, { body: { title: 'X' } })).status).toBe(401)
    const response = await api.request('PUT', `v1/experiences/${experience.id}`, { token: memberToken, body: { title: 'X' } })
    expect(response.status).toBe(403)
    expect(response.json.error.code).toBe('forbidden')
  })

  it('lets the host and an admin change fields, keeping the rest', async () => {
    const experience = await insertExperience({ start_at: new Date('2031-07-15T16:30:00Z'), end_at: new Date('2031-07-15T18:00:00Z') })
    const byHost = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { title: 'Evening walk', start_time: '18:00' } })
    expect(byHost.status).toBe(200)
    expect(byHost.json.data[0]).toMatchObject({
      title: 'Evening walk',
      start_date: '2031-07-16T01:00:00.000Z',
      end_date: '2031-07-16T02:30:00.000Z',
      location: { city: 'Portland' },
    })
    const byAdmin = await api.request('PUT', `v1/experiences/${experience.id}`, {
      token: adminToken,
      body: { max_attendees: 4, no_show_fee: '7.5', place_id: 'us-ny-new-york' },
    })
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.json.data[0]).toMatchObject({
      title: 'Evening walk',
      max_attendees: 4,
      no_show_fee: '7.50',
      timezone: 'America/New_York',
      start_date: '2031-07-15T22:00:00.000Z', // 18:00 local, now in New York
      location: { city: 'New York', region: 'NY' },
    })
  })

  it('lets only admins change is_hostless and is_premium', async () => {
    const experience = await insertExperience()
    const denied = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { is_premium: true } })
    expect(denied.status).toBe(403)
    expect(denied.json.error.code).toBe('admin_only')
    const allowed = await api.request('PUT', `v1/experiences/${experience.id}`, { token: adminToken, body: { is_premium: true, is_hostless: true } })
    expect(allowed.status).toBe(200)
    expect(allowed.json.data[0]).toMatchObject({ is_premium: true, is_hostless: true })
  })

  it('ignores protected fields in the body', async () => {
    const experience = await insertExperience({ max_attendees: 10 })
    const response = await api.request('PUT', `v1/experiences/${experience.id}`, {
      token: hostToken,
      body: { id: crypto.randomUUID(), attendees_count: 99, host_id: member.id, canceled_at: new Date().toISOString(), title: 'Renamed' },
    })
    expect(response.status).toBe(200)
    const stored = await loadExperience(experience.id)
    expect(stored).toMatchObject({ title: 'Renamed', attendees_count: 0, host_id: host.id, canceled_at: null })
  })

  it('answers 422 capacity_below_attendees and other field codes', async () => {
    const experience = await insertExperience({ max_attendees: 5 })
    const a = await createUser(database.db)
    const b = await createUser(database.db)
    const c = await createUser(database.db)
    await seat(experience.id, [a.id, b.id, c.id])
    const below = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { max_attendees: 2 } })
    expect(below.status).toBe(422)
    expect(below.json.error.fields.max_attendees).toEqual(['capacity_below_attendees'])
    const same = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { max_attendees: 3 } })
    expect(same.status).toBe(200)
    const empty = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { title: '' } })
    expect(empty.json.error.fields.title).toEqual(['title_required'])
    const past = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { start_date: localDate(-3) } })
    expect(past.json.error.fields.start_date).toEqual(['start_date_past'])
    const step = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { start_time: '10:07' } })
    expect(step.json.error.fields.start_time).toEqual(['start_time_step'])
    const online = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { venue_type: 'online' } })
    expect(online.json.error.fields.url).toEqual(['url_invalid'])
  })

  it('answers 404 for unknown activities and 409 experience_canceled for cancelled ones', async () => {
    expect((await api.request('PUT', `v1/experiences/${crypto.randomUUID()}`, { token: hostToken, body: { title: 'X' } })).status).toBe(404)
    const experience = await insertExperience({ canceled_at: new Date() })
    const response = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { title: 'X' } })
    expect(response.status).toBe(409)
    expect(response.json.error.code).toBe('experience_canceled')
  })

  it('refuses to edit, cancel or invite to an activity that has begun (issue 29 §4): 409 experience_past, nothing changes, nobody told', async () => {
    const experience = await insertExperience({ host_id: host.id, start_at: new Date(Date.now() - 3 * HOUR) })
    const attendee = await createUser(database.db)
    const invitee = await createUser(database.db)
    await seat(experience.id, [attendee.id])
    const before = await loadExperience(experience.id)
    for (const token of [hostToken, adminToken]) {
      const edited = await api.request('PUT', `v1/experiences/${experience.id}`, { token, body: { title: 'Renamed afterwards' } })
      expect([edited.status, edited.json.error.code]).toEqual([409, 'experience_past'])
      const canceled = await api.request('DELETE', `v1/experiences/${experience.id}`, { token })
      expect([canceled.status, canceled.json?.error.code]).toEqual([409, 'experience_past'])
      const invited = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, { token, body: { emails: [invitee.email] } })
      expect([invited.status, invited.json.error.code]).toEqual([409, 'experience_past'])
    }
    expect(await loadExperience(experience.id)).toEqual(before)
    expect(await notificationsFor(attendee.id)).toEqual([])
    expect(await notificationsFor(invitee.id)).toEqual([])
  })

  it('gives new seats to the notify list when the capacity grows', async () => {
    const experience = await insertExperience({ max_attendees: 1, start_at: new Date(Date.now() + 10 * DAY) })
    const a = await createUser(database.db)
    const b = await createUser(database.db)
    await seat(experience.id, [a.id])
    await waitlist(experience.id, [b.id])
    const response = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { max_attendees: 2 } })
    expect(response.status).toBe(200)
    expect(response.json.data[0].attendees_count).toBe(2)
    expect((await notificationsFor(b.id)).map((n) => n.type)).toEqual(['waitlist.selected'])
  })
})

describe('DELETE /api/v1/experiences/{id}', () => {
  it('answers 401 to anonymous callers and 403 to another member', async () => {
    const experience = await insertExperience()
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`)).status).toBe(401)
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: memberToken })).status).toBe(403)
    expect((await loadExperience(experience.id)).canceled_at).toBeNull()
  })

  it('cancels for good and notifies every attendee (host)', async () => {
    const experience = await insertExperience({ max_attendees: 5 })
    const a = await createUser(database.db)
    const b = await createUser(database.db)
    await seat(experience.id, [a.id, b.id])
    const response = await api.request('DELETE', `v1/experiences/${experience.id}`, { token: hostToken })
    expect(response.status).toBe(204)
    expect((await loadExperience(experience.id)).canceled_at).not.toBeNull()
    for (const user of [a, b]) {
      const notifications = await notificationsFor(user.id)
      expect(notifications).toHaveLength(1)
      expect(notifications[0]).toMatchObject({ type: 'experience.canceled', data: { experience_id: experience.id } })
      // Through notify: each notification's delivery job is queued (issue 11 §4).
      expect(api.queuedJobs).toContainEqual({ name: 'notification.deliver', data: { id: notifications[0]!.id } })
    }
    // Final: a second cancel changes nothing; nobody can attend or edit it.
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: hostToken })).status).toBe(204)
    expect(await notificationsFor(a.id)).toHaveLength(1)
    const attend = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: memberToken, body: { user_id: member.id } })
    expect(attend.status).toBe(409)
    expect(attend.json.error.code).toBe('experience_canceled')
  })

  it('lets an admin cancel', async () => {
    const experience = await insertExperience()
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: adminToken })).status).toBe(204)
    expect((await loadExperience(experience.id)).canceled_at).not.toBeNull()
  })

  it('answers 404 for unknown activities', async () => {
    expect((await api.request('DELETE', `v1/experiences/${crypto.randomUUID()}`, { token: hostToken })).status).toBe(404)
  })
})

describe('attendees', () => {
  it('lists attendees to members only', async () => {
    const experience = await insertExperience()
    const a = await createUser(database.db, { first_name: 'Dorothy', last_name: 'Okafor' })
    await seat(experience.id, [a.id, host.id])
    const anonymous = await api.request('GET', `v1/experiences/${experience.id}/attendees`)
    expect(anonymous.status).toBe(401)
    const response = await api.request('GET', `v1/experiences/${experience.id}/attendees?per_page=1`, { token: memberToken })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      data: [{ id: a.id, display_name: 'Dorothy O.', avatar: null, is_host: false, is_verified: false }],
      metadata: { page: 1, total_pages: 2, total_count: 2 },
    })
    const page2 = await api.request('GET', `v1/experiences/${experience.id}/attendees?per_page=1&page=2`, { token: memberToken })
    expect(page2.json.data[0]).toMatchObject({ id: host.id, is_host: true })
  })

  it('marks verified attendees and a verified host (issue 13 §5), never a member under the generic label', async () => {
    /** Verification requests in order, the last one the member's current status. */
    const requests = async (userId: string, statuses: ('not_verified' | 'processing' | 'verified')[]) => {
      let at = Date.now() - 3_600_000
      for (const status of statuses) {
        await database.db.insertInto('verifications').values({ user_id: userId, status, created_at: new Date((at += 60_000)) }).execute()
      }
    }
    const verifiedHost = await createUser(database.db, { first_name: 'Vera', last_name: 'Lind' })
    const verified = await createUser(database.db, { first_name: 'Dorothy', last_name: 'Okafor' })
    const plain = await createUser(database.db, { first_name: 'Bernard', last_name: 'Lee' })
    const pending = await createUser(database.db, { first_name: 'Irene', last_name: 'Cole' })
    const revoked = await createUser(database.db, { first_name: 'Frank', last_name: 'Moss' })
    const deleted = await createUser(database.db, { first_name: 'Edith', last_name: 'Hart' })
    await requests(verifiedHost.id, ['verified'])
    await requests(verified.id, ['not_verified', 'verified'])
    await requests(pending.id, ['processing'])
    // Only the latest request counts: approved once, rejected on a later check.
    await requests(revoked.id, ['verified', 'not_verified'])
    await requests(deleted.id, ['verified'])
    const experience = await insertExperience({ host_id: verifiedHost.id, start_at: new Date(Date.now() - 2 * DAY) })
    await seat(experience.id, [verifiedHost.id, verified.id, plain.id, pending.id, revoked.id, deleted.id])
    // A deleted account keeps its past seat under the generic member label (decision 028).
    await database.db.updateTable('users').set({ state: 'deleted' }).where('id', '=', deleted.id).execute()

    const response = await api.request('GET', `v1/experiences/${experience.id}/attendees`, { token: memberToken })
    expect(response.status).toBe(200)
    const shown = (response.json.data as { id: string; display_name: string | null; is_verified: boolean }[]).map(
      ({ id, display_name, is_verified }) => ({ id, display_name, is_verified }),
    )
    expect(shown).toEqual([
      { id: verifiedHost.id, display_name: 'Vera L.', is_verified: true },
      { id: verified.id, display_name: 'Dorothy O.', is_verified: true },
      { id: plain.id, display_name: 'Bernard L.', is_verified: false },
      { id: pending.id, display_name: 'Irene C.', is_verified: false },
      { id: revoked.id, display_name: 'Frank M.', is_verified: false },
      { id: deleted.id, display_name: null, is_verified: false },
    ])
    const detail = await api.request('GET', `v1/experiences/${experience.id}`, { token: memberToken })
    expect(detail.json.data[0].host).toEqual({ id: verifiedHost.id, display_name: 'Vera L.', avatar: null, is_verified: true })

    // Hosts on a list: verified, not verified, and verified but banned or suspended (the generic label).
    const banned = await createUser(database.db, { banned: true })
    const suspended = await createUser(database.db, { is_suspended: true })
    await requests(banned.id, ['verified'])
    await requests(suspended.id, ['verified'])
    // A far-future window of its own, so that rows of other tests do not interfere.
    const start = new Date('2045-03-05T17:00:00Z')
    for (const [index, user] of [verifiedHost, plain, banned, suspended].entries()) {
      await insertExperience({ host_id: user.id, start_at: new Date(start.getTime() + index * HOUR) })
    }
    const query = new URLSearchParams({ 'start_date[gte]': '2045-03-01T00:00:00Z', 'start_date[lte]': '2045-03-31T23:59:59Z' })
    const list = await api.request('GET', `v1/experiences?${query}`, { token: memberToken })
    expect(list.status).toBe(200)
    const hosts = (list.json.data as { host: unknown }[]).map((row) => row.host)
    expect(hosts).toEqual([
      { id: verifiedHost.id, display_name: 'Vera L.', avatar: null, is_verified: true },
      { id: plain.id, display_name: 'Bernard L.', avatar: null, is_verified: false },
      { id: banned.id, display_name: null, avatar: null, is_verified: false },
      { id: suspended.id, display_name: null, avatar: null, is_verified: false },
    ])
  })

  it('answers the CSV to the host and admins only: display names, RSVP time and attendance, never an email or a phone', async () => {
    const experience = await insertExperience({ start_at: new Date(Date.now() + 6 * HOUR) })
    const a = await createUser(database.db, { first_name: 'Dorothy', last_name: 'Okafor, Jr', phone: '+15035550142' })
    const { user: b, token: bToken } = await memberWithToken({ first_name: 'Bernard', last_name: 'Lee', phone: '+15035550199' })
    const c = await createUser(database.db, { first_name: '=HYPERLINK("x")', last_name: 'Smith' })
    await seat(experience.id, [a.id, b.id, c.id])
    // Bernard gives his seat back within 12 hours of the start: a late cancellation.
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${b.id}`, { token: bToken })).status).toBe(200)
    expect((await raw(`v1/experiences/${experience.id}/attendees?format=csv`, memberToken)).status).toBe(403)
    expect((await raw(`v1/experiences/${experience.id}/attendees?format=csv`)).status).toBe(401)
    for (const token of [hostToken, adminToken]) {
      const response = await raw(`v1/experiences/${experience.id}/attendees?format=csv`, token)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
      expect(response.headers.get('content-disposition')).toMatch(/^attachment/)
      const lines = response.text.trim().split('\r\n')
      expect(lines[0]).toBe('name,rsvp_at,attendance')
      expect(lines).toHaveLength(4)
      expect(lines[1]).toMatch(/^Dorothy O\.,\d{4}-\d{2}-\d{2}T[\d:.]+Z,going$/)
      // A name a spreadsheet would run as a formula is written as text.
      expect(lines[2]).toMatch(/^"'=HYPERLINK\(""x""\) S\.",[^,]+,going$/)
      expect(lines[3]).toMatch(/^Bernard L\.,[^,]+,cancelled_late$/)
      for (const contact of [a.email, b.email, c.email, '5035550142', '5035550199', '@']) expect(response.text).not.toContain(contact)
    }
  })

  it('lets a member attend, idempotently', async () => {
    const experience = await insertExperience({ max_attendees: 3 })
    const { user, token } = await memberWithToken()
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { body: { user_id: user.id } })).status).toBe(401)
    const first = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token, body: { user_id: user.id } })
    expect(first.status).toBe(200)
    expect(first.json.data[0]).toMatchObject({ attendees_count: 1, viewer: { is_attending: true } })
    const again = await api.request('POST', `v1/experiences/${experience.slug}/attendees`, { token, body: { user_id: user.id } })
    expect(again.status).toBe(200)
    expect(again.json.data[0].attendees_count).toBe(1)
  })

  it('lets only admins sign up someone else', async () => {
    const experience = await insertExperience()
    const other = await createUser(database.db)
    const denied = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: memberToken, body: { user_id: other.id } })
    expect(denied.status).toBe(403)
    const hostDenied = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: hostToken, body: { user_id: other.id } })
    expect(hostDenied.status).toBe(403)
    const allowed = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: adminToken, body: { user_id: other.id } })
    expect(allowed.status).toBe(200)
    expect(allowed.json.data[0].attendees_count).toBe(1)
  })

  it('answers 409 experience_full, experience_past and 404 for unknown activities', async () => {
    const full = await insertExperience({ max_attendees: 1 })
    await seat(full.id, [(await createUser(database.db)).id])
    const response = await api.request('POST', `v1/experiences/${full.id}/attendees`, { token: memberToken, body: { user_id: member.id } })
    expect(response.status).toBe(409)
    expect(response.json.error.code).toBe('experience_full')
    expect((await loadExperience(full.id)).attendees_count).toBe(1)
    const rows = await database.db.selectFrom('experience_attendees').selectAll().where('experience_id', '=', full.id).execute()
    expect(rows).toHaveLength(1)
    const past = await insertExperience({ start_at: new Date(Date.now() - DAY) })
    const pastResponse = await api.request('POST', `v1/experiences/${past.id}/attendees`, { token: memberToken, body: { user_id: member.id } })
    expect(pastResponse.status).toBe(409)
    expect(pastResponse.json.error.code).toBe('experience_past')
    expect(
      (await api.request('POST', `v1/experiences/${crypto.randomUUID()}/attendees`, { token: memberToken, body: { user_id: member.id } })).status,
    ).toBe(404)
    const invalid = await api.request('POST', `v1/experiences/${full.id}/attendees`, { token: memberToken, body: {} })
    expect(invalid.status).toBe(422)
  })

  it('cancels a seat early without a fee', async () => {
    const experience = await insertExperience({ no_show_fee_cents: 500, start_at: new Date(Date.now() + 3 * DAY) })
    const { user, token } = await memberWithToken()
    await seat(experience.id, [user.id])
    const response = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${user.id}`, { token })
    expect(response.status).toBe(200)
    expect(response.json.metadata).toEqual({ late_cancellation: false })
    expect(response.json.data[0]).toMatchObject({ attendees_count: 0, viewer: { is_attending: false } })
    const cancellation = await database.db.selectFrom('attendance_cancellations').selectAll().where('experience_id', '=', experience.id).executeTakeFirstOrThrow()
    expect(cancellation).toMatchObject({ user_id: user.id, is_late: false, no_show_fee_cents: null })
  })

  it('records a cancellation within 12 hours as late with the no-show fee', async () => {
    const experience = await insertExperience({ no_show_fee_cents: 500, start_at: new Date(Date.now() + 6 * HOUR) })
    const { user, token } = await memberWithToken()
    await seat(experience.id, [user.id])
    const response = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${user.id}`, { token })
    expect(response.status).toBe(200)
    expect(response.json.metadata).toEqual({ late_cancellation: true })
    const cancellation = await database.db.selectFrom('attendance_cancellations').selectAll().where('experience_id', '=', experience.id).executeTakeFirstOrThrow()
    expect(cancellation).toMatchObject({ user_id: user.id, is_late: true, no_show_fee_cents: 500 })
  })

  it('lets the member, the host and admins cancel a seat, nobody else', async () => {
    const experience = await insertExperience()
    const a = await createUser(database.db)
    const b = await createUser(database.db)
    await seat(experience.id, [a.id, b.id])
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${a.id}`)).status).toBe(401)
    const denied = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${a.id}`, { token: memberToken })
    expect(denied.status).toBe(403)
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${a.id}`, { token: hostToken })).status).toBe(200)
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${b.id}`, { token: adminToken })).status).toBe(200)
    expect((await loadExperience(experience.id)).attendees_count).toBe(0)
    const notAttending = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${b.id}`, { token: adminToken })
    expect(notAttending.status).toBe(404)
  })

  it('more than 24 h ahead, seats the first on the notify list in join order (premium gives no priority)', async () => {
    const experience = await insertExperience({ max_attendees: 1, start_at: new Date(Date.now() + 3 * DAY) })
    const { user: leaver, token: leaverToken } = await memberWithToken()
    const first = await createUser(database.db)
    const premium = await createUser(database.db)
    await sql`INSERT INTO subscriptions (user_id, plan, status) VALUES (${premium.id}, 'premium', 'active')`.execute(database.db)
    await seat(experience.id, [leaver.id])
    await waitlist(experience.id, [first.id, premium.id])
    const response = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${leaver.id}`, { token: leaverToken })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({ attendees_count: 1, is_full: true })
    const attendees = await database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(attendees.map((row) => row.user_id)).toEqual([first.id])
    const notifications = await notificationsFor(first.id)
    expect(notifications).toHaveLength(1)
    expect(notifications[0]).toMatchObject({ type: 'waitlist.selected', data: { experience_id: experience.id } })
    expect(await notificationsFor(premium.id)).toHaveLength(0)
    const list = await database.db.selectFrom('waitlist_entries').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(list.map((row) => row.user_id)).toEqual([premium.id])
  })

  it('within 24 h, tells everyone on the notify list and the first to attend takes the seat', async () => {
    const experience = await insertExperience({ max_attendees: 1, start_at: new Date(Date.now() + 20 * HOUR) })
    const { user: leaver, token: leaverToken } = await memberWithToken()
    const { user: one, token: oneToken } = await memberWithToken()
    const { user: two, token: twoToken } = await memberWithToken()
    await seat(experience.id, [leaver.id])
    await waitlist(experience.id, [one.id, two.id])
    const response = await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${leaver.id}`, { token: leaverToken })
    expect(response.status).toBe(200)
    expect(response.json.data[0].attendees_count).toBe(0)
    for (const user of [one, two]) {
      const notifications = await notificationsFor(user.id)
      expect(notifications).toHaveLength(1)
      expect(notifications[0]).toMatchObject({ type: 'waitlist.seat_available', data: { experience_id: experience.id } })
    }
    const taken = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: twoToken, body: { user_id: two.id } })
    expect(taken.status).toBe(200)
    expect(taken.json.data[0].viewer).toMatchObject({ is_attending: true, waitlist_position: null })
    const late = await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: oneToken, body: { user_id: one.id } })
    expect(late.status).toBe(409)
    expect(late.json.error.code).toBe('experience_full')
  })
})

describe('POST /api/v1/experiences/{id}/attendees/create-by-emails', () => {
  it('invites members by email for the host, seats nobody, and answers the same for every address', async () => {
    const experience = await insertExperience({ max_attendees: 2 })
    const attending = await createUser(database.db)
    const invited = await createUser(database.db)
    await seat(experience.id, [attending.id])
    const response = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, {
      token: hostToken,
      body: { emails: [String(invited.email).toUpperCase(), String(attending.email), 'nobody@example.com'] },
    })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      data: [{ invited_if_member: [String(invited.email).toLowerCase(), String(attending.email).toLowerCase(), 'nobody@example.com'], full: [] }],
    })
    expect((await loadExperience(experience.id)).attendees_count).toBe(1)
    const invitations = await database.db.selectFrom('experience_invitations').selectAll().where('experience_id', '=', experience.id).execute()
    expect(invitations).toEqual([expect.objectContaining({ user_id: invited.id, invited_by: host.id, state: 'pending', answered_at: null })])
  })

  it('invites nobody to a full activity', async () => {
    const experience = await insertExperience({ max_attendees: 1 })
    const someone = await createUser(database.db)
    await seat(experience.id, [member.id])
    const response = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, { token: hostToken, body: { emails: [someone.email] } })
    expect(response.json.data[0]).toEqual({ invited_if_member: [], full: [String(someone.email).toLowerCase()] })
    expect(await database.db.selectFrom('experience_invitations').selectAll().where('experience_id', '=', experience.id).execute()).toEqual([])
  })

  it('is for the host and admins only, with at most 50 addresses', async () => {
    const experience = await insertExperience()
    const other = await createUser(database.db)
    const denied = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, { token: memberToken, body: { emails: [other.email] } })
    expect(denied.status).toBe(403)
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, { body: { emails: [other.email] } })).status).toBe(401)
    const allowed = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, { token: adminToken, body: { emails: [other.email] } })
    expect(allowed.json.data[0].invited_if_member).toEqual([String(other.email).toLowerCase()])
    const tooMany = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, {
      token: hostToken,
      body: { emails: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) },
    })
    expect(tooMany.status).toBe(422)
  })
})

describe('notify list', () => {
  it('answers 409 experience_not_full and already_attending', async () => {
    const open = await insertExperience({ max_attendees: 5 })
    const notFull = await api.request('POST', `v1/experiences/${open.id}/waitlist`, { token: memberToken })
    expect(notFull.status).toBe(409)
    expect(notFull.json.error.code).toBe('experience_not_full')
    const full = await insertExperience({ max_attendees: 1 })
    await seat(full.id, [member.id])
    const attending = await api.request('POST', `v1/experiences/${full.id}/waitlist`, { token: memberToken })
    expect(attending.status).toBe(409)
    expect(attending.json.error.code).toBe('already_attending')
    expect((await api.request('POST', `v1/experiences/${full.id}/waitlist`)).status).toBe(401)
  })

  it('joins, shows positions, lists for the host and lets members leave', async () => {
    const experience = await insertExperience({ max_attendees: 1 })
    await seat(experience.id, [(await createUser(database.db)).id])
    const { user: one, token: oneToken } = await memberWithToken({ first_name: 'Rosa', last_name: 'Diaz' })
    const { user: two, token: twoToken } = await memberWithToken()
    const joined = await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: oneToken })
    expect(joined.status).toBe(200)
    expect(joined.json.data[0].viewer.waitlist_position).toBe(1)
    expect((await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: oneToken })).status).toBe(200)
    const second = await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: twoToken })
    expect(second.json.data[0].viewer.waitlist_position).toBe(2)

    const own = await api.request('GET', `v1/experiences/${experience.id}/waitlist`, { token: twoToken })
    expect(own.status).toBe(200)
    expect(own.json.data).toEqual([expect.objectContaining({ user_id: two.id, position: 2 })])
    expect(own.json.metadata.total_count).toBe(2)
    const none = await api.request('GET', `v1/experiences/${experience.id}/waitlist`, { token: memberToken })
    expect(none.json.data).toEqual([])
    expect(none.json.metadata.total_count).toBe(2)
    expect((await api.request('GET', `v1/experiences/${experience.id}/waitlist`)).status).toBe(401)

    for (const token of [hostToken, adminToken]) {
      const whole = await api.request('GET', `v1/experiences/${experience.id}/waitlist`, { token })
      expect(whole.json.data).toEqual([
        { user_id: one.id, position: 1, display_name: 'Rosa D.', joined_at: expect.any(String) },
        { user_id: two.id, position: 2, display_name: 'Ann B.', joined_at: expect.any(String) },
      ])
    }

    expect((await api.request('DELETE', `v1/experiences/${experience.id}/waitlist`, { token: oneToken })).status).toBe(204)
    const after = await api.request('GET', `v1/experiences/${experience.id}`, { token: twoToken })
    expect(after.json.data[0].viewer.waitlist_position).toBe(1)
  })
})

describe('GET /api/v1/users/{id}/experiences', () => {
  it('lists what a member attends or hosts, upcoming or past, a cancelled one marked (issue 12)', async () => {
    const { user, token } = await memberWithToken()
    const hosted = await insertExperience({ host_id: user.id, start_at: new Date(Date.now() + 2 * DAY) })
    const attending = await insertExperience({ start_at: new Date(Date.now() + DAY) })
    await seat(attending.id, [user.id])
    const canceled = await insertExperience({ host_id: user.id, canceled_at: new Date() })
    const past = await insertExperience({ start_at: new Date(Date.now() - 2 * DAY) })
    await seat(past.id, [user.id])
    await insertExperience()

    const upcoming = await api.request('GET', `v1/users/${user.id}/experiences`, { token })
    expect(upcoming.status).toBe(200)
    expect(upcoming.json.data.map((e: { id: string }) => e.id)).toEqual([attending.id, hosted.id, canceled.id])
    expect(upcoming.json.metadata).toEqual({ page: 1, total_pages: 1, total_count: 3 })
    expect(upcoming.json.data[2].canceled).toMatchObject({ at: expect.any(String), by: { role: 'host' } })
    const hosting = await api.request('GET', `v1/users/${user.id}/experiences?hosting=true`, { token })
    expect(hosting.json.data.map((e: { id: string }) => e.id)).toEqual([hosted.id, canceled.id])
    const pastList = await api.request('GET', `v1/users/${user.id}/experiences?type=past`, { token })
    expect(pastList.json.data.map((e: { id: string }) => e.id)).toEqual([past.id])
    expect(pastList.json.data[0].is_past).toBe(true)

    expect((await api.request('GET', `v1/users/${user.id}/experiences`)).status).toBe(401)
    // Another member sees only what the member hosts that is coming up, never cancelled (decision 027).
    const asOther = await api.request('GET', `v1/users/${user.id}/experiences?type=past`, { token: memberToken })
    expect(asOther.status).toBe(200)
    expect(asOther.json.data.map((e: { id: string }) => e.id)).toEqual([hosted.id])
    const asAdmin = await api.request('GET', `v1/users/${user.id}/experiences`, { token: adminToken })
    expect(asAdmin.json.metadata.total_count).toBe(3)
  })
})

describe('cancelled activities (issue 10)', () => {
  /** An activity with an attendee, cancelled by its host through the API. */
  async function cancelledWithAttendee() {
    const experience = await insertExperience({ max_attendees: 1 })
    const attendee = await memberWithToken()
    await seat(experience.id, [attendee.user.id])
    const waiting = await memberWithToken()
    await waitlist(experience.id, [waiting.user.id])
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: hostToken })).status).toBe(204)
    return { experience, attendee, waiting }
  }

  it('shows a cancelled activity, as cancelled, to its host, its attendees and admins only', async () => {
    const { experience, attendee, waiting } = await cancelledWithAttendee()
    for (const token of [hostToken, attendee.token, adminToken]) {
      for (const key of [experience.id, experience.slug]) {
        const response = await api.request('GET', `v1/experiences/${key}`, { token })
        expect(response.status).toBe(200)
        expect(response.json.data[0].canceled_at).toEqual(expect.any(String))
      }
      const ical = await raw(`v1/experiences/${experience.id}?format=ical`, token)
      expect(ical.status).toBe(200)
      expect(ical.text).toContain('STATUS:CANCELLED')
      expect((await api.request('GET', `v1/experiences/${experience.id}/attendees`, { token })).status).toBe(200)
    }
    // Anyone else (anonymous, another member, someone on the notify list) finds nothing there.
    for (const token of [undefined, memberToken, waiting.token]) {
      for (const key of [experience.id, experience.slug]) {
        const response = await api.request('GET', `v1/experiences/${key}`, { token })
        expect(response.status).toBe(404)
        expect(response.json.error.code).toBe('not_found')
        expect(JSON.stringify(response.json)).not.toContain(experience.title)
      }
      const ical = await raw(`v1/experiences/${experience.slug}?format=ical`, token)
      expect(ical.status).toBe(404)
      expect(ical.text).not.toContain(experience.title)
    }
    for (const token of [memberToken, waiting.token]) {
      expect((await api.request('GET', `v1/experiences/${experience.id}/attendees`, { token })).status).toBe(404)
      expect((await raw(`v1/experiences/${experience.id}/attendees?format=csv`, token)).status).toBe(404)
      expect((await api.request('GET', `v1/experiences/${experience.id}/waitlist`, { token })).status).toBe(404)
    }
  })

  it('keeps cancelled activities out of every list but the attendee’s own, marked (issue 12 §2)', async () => {
    const { experience, attendee } = await cancelledWithAttendee()
    for (const token of [undefined, memberToken, attendee.token, hostToken]) {
      const list = await api.request('GET', 'v1/experiences?per_page=50&start_date[not]=null', { token })
      expect(list.status).toBe(200)
      expect(list.json.data.some((e: { id: string }) => e.id === experience.id)).toBe(false)
    }
    const own = await api.request('GET', `v1/users/${attendee.user.id}/experiences`, { token: attendee.token })
    expect(own.json.data.find((e: { id: string }) => e.id === experience.id)?.canceled).toMatchObject({ by: { role: 'host' } })
  })
})

describe('hostile input (issue 10)', () => {
  const nulKey = 'abc%00def'

  it('answers 400 for ids and slugs holding a NUL byte or another control character, 404 for other junk; never 500, signed in or not', async () => {
    // Control characters are refused for every route before the route (decision 066).
    for (const [key, status, code] of [
      [nulKey, 400, 'invalid_characters'],
      ['abc%01def', 400, 'invalid_characters'],
      ['%0A', 400, 'invalid_characters'],
      ['x'.repeat(5000), 404, 'not_found'],
      ['%E2%80%AE', 404, 'not_found'],
    ] as const) {
      for (const token of [undefined, memberToken]) {
        const response = await api.request('GET', `v1/experiences/${key}`, { token })
        expect(response.status).toBe(status)
        expect(response.json.error.code).toBe(code)
      }
      expect((await raw(`v1/experiences/${key}?format=ical`)).status).toBe(status)
    }
    const experience = await insertExperience()
    const calls: [string, string, number, unknown?][] = [
      ['PUT', `v1/experiences/${nulKey}`, 400, { title: 'New title' }],
      ['DELETE', `v1/experiences/${nulKey}`, 400],
      ['GET', `v1/experiences/${nulKey}/attendees`, 400],
      ['POST', `v1/experiences/${nulKey}/attendees`, 400, { user_id: host.id }],
      ['DELETE', `v1/experiences/${nulKey}/attendees/${member.id}`, 400],
      ['POST', `v1/experiences/${nulKey}/attendees/create-by-emails`, 400, { emails: [member.email] }],
      ['GET', `v1/experiences/${nulKey}/waitlist`, 400],
      ['POST', `v1/experiences/${nulKey}/waitlist`, 400],
      ['DELETE', `v1/experiences/${nulKey}/waitlist`, 400],
      ['GET', `v1/users/${nulKey}/experiences`, 400],
      ['DELETE', `v1/experiences/${experience.id}/attendees/${nulKey}`, 400],
      // The seat of someone whose id is not an id at all: nobody is attending under it.
      ['DELETE', `v1/experiences/${experience.id}/attendees/not-a-uuid`, 404],
    ]
    for (const [method, path, status, body] of calls) {
      const response = await api.request(method, path, { token: hostToken, body })
      expect({ method, path, status: response.status }).toEqual({ method, path, status })
    }
  })

  it.each([
    // Control characters (but tab, line feed and carriage return) in any body field: 400 before the route (decision 066).
    ['title', 'Morning walk\u0000', 400, 'invalid_characters'],
    ['title', 'Morning walk\u0085', 400, 'invalid_characters'],
    ['description', 'A gentle\u0000 walk.', 400, 'invalid_characters'],
    ['description', 'A gentle walk.\u001b[31m', 400, 'invalid_characters'],
    ['formatted_address', '1000 SW Broadway\u0000', 400, 'invalid_characters'],
    ['place_id', 'us-or-portland\u0000', 400, 'invalid_characters'],
    ['ticket_url', 'https://example.com/\u0000', 400, 'invalid_characters'],
    // A tab is a control character where the field is one line.
    ['title', 'Morning\twalk', 422, 'invalid_characters'],
    ['title', 'Morning walk \u202egnp.exe', 422, 'direction_characters'],
    ['title', '\u2066Morning walk\u2069', 422, 'direction_characters'],
    ['description', 'Bring \u202dshoes\u202c.', 422, 'direction_characters'],
    ['title', '\u200b\u200c\u200d', 422, 'title_required'],
    ['title', '\u2060\ufeff\u00ad \u200b', 422, 'title_required'],
    ['title', '\u3164\u2800\u115f', 422, 'title_required'],
  ])('refuses %s %j with %i %s, and stores nothing', async (field, text, status, code) => {
    const before = await database.db.selectFrom('experiences').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow()
    const response = await api.request('POST', 'v1/experiences', { token: hostToken, body: validBody({ [field]: text }) })
    expect(response.status).toBe(status)
    expect(response.json.error).toMatchObject({ code: status === 400 ? 'invalid_characters' : 'invalid_input', fields: { [field]: [code] } })
    const after = await database.db.selectFrom('experiences').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow()
    expect(after.count).toBe(before.count)
  })

  it('refuses the same on update, and keeps line breaks, tabs, accents, emoji and right-to-left text', async () => {
    const experience = await insertExperience()
    for (const [field, text, code, status] of [
      ['title', '\u200b\u200b', 'title_required', 422],
      ['title', 'Walk\u0000', 'invalid_characters', 400],
      ['description', '\u202eevil', 'direction_characters', 422],
    ] as const) {
      const response = await api.request('PUT', `v1/experiences/${experience.id}`, {
        token: hostToken,
        body: { [field]: text },
      })
      expect(response.status).toBe(status)
      expect(response.json.error.fields).toEqual({ [field]: [code] })
    }
    expect((await loadExperience(experience.id)).title).toBe('Riverside walk')
    const description = 'Line one\n\tLine two\r\nCafé 👨‍👩‍👧 \u05e9\u05dc\u05d5\u05dd \u200f(Hebrew)'
    const title = 'Ta\u00adble tennis \u0627\u0644\u0639\u0631\u0628\u064a\u0629'
    const response = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { title, description } })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({ title, description })
  })

  it.each(['2027-02-30', '2027-04-31', '2026-02-29', '2030-13-01', '2030-00-10', '2030-01-00'])(
    'refuses start_date %s as an invalid date instead of rolling it over',
    async (startDate) => {
      const response = await api.request('POST', 'v1/experiences', { token: hostToken, body: validBody({ start_date: startDate }) })
      expect(response.status).toBe(422)
      expect(response.json.error.fields.start_date).toEqual(['start_date_invalid'])
      const experience = await insertExperience()
      const update = await api.request('PUT', `v1/experiences/${experience.id}`, { token: hostToken, body: { start_date: startDate } })
      expect(update.status).toBe(422)
      expect(update.json.error.fields.start_date).toEqual(['start_date_invalid'])
      expect((await loadExperience(experience.id)).start_at).toEqual(experience.start_at)
    },
  )

  it('accepts 29 February in a leap year', async () => {
    const response = await api.request('POST', 'v1/experiences', {
      token: hostToken,
      body: validBody({ start_date: '2028-02-29', start_time: '10:00', place_id: 'us-ny-new-york' }),
    })
    expect(response.status).toBe(201)
    expect(response.json.data[0].start_date).toBe('2028-02-29T15:00:00.000Z')
  })

  it.each(['0x10', '1e1', ' 2', '+3', '2.5', '', '0', '-1', 'Infinity', '１'])(
    'refuses %j as page and as per_page with 422 on every paged list',
    async (value) => {
      const experience = await insertExperience({ max_attendees: 5 })
      const lists = ['v1/experiences', `v1/experiences/${experience.id}/attendees`, `v1/experiences/${experience.id}/waitlist`, `v1/users/${host.id}/experiences`]
      for (const list of lists) {
        for (const name of ['page', 'per_page']) {
          const response = await api.request('GET', `${list}?${name}=${encodeURIComponent(value)}`, { token: hostToken })
          expect({ list, name, status: response.status }).toEqual({ list, name, status: 422 })
          expect(response.json.error.fields).toEqual({ [name]: [`${name}_invalid`] })
        }
      }
    },
  )

  it('still reads plain decimal pages', async () => {
    const response = await api.request('GET', 'v1/experiences?page=2&per_page=016', { token: hostToken })
    expect(response.status).toBe(200)
    expect(response.json.metadata.page).toBe(2)
  })

  it.each([
    ['latitude', '0x10'],
    ['latitude', ''],
    ['longitude', ' -122'],
    ['longitude', 'Infinity'],
    ['distance[lte]', '0x10'],
  ])('refuses %s=%j in the list filters', async (name, value) => {
    const origin = name === 'distance[lte]' ? '&latitude=45.5&longitude=-122.6' : name === 'latitude' ? '&longitude=-122.6' : '&latitude=45.5'
    const response = await api.request('GET', `v1/experiences?${encodeURIComponent(name)}=${encodeURIComponent(value)}${origin}`)
    expect(response.status).toBe(422)
    expect(response.json.error.fields[name]).toEqual([`${name === 'distance[lte]' ? 'distance' : name}_invalid`])
  })

  it('refuses an address list holding a control character with 400 on the address, not 500', async () => {
    const experience = await insertExperience()
    const response = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, {
      token: hostToken,
      body: { emails: ['someone@example.com\u0000'] },
    })
    expect(response.status).toBe(400)
    expect(response.json.error.fields['emails.0']).toEqual(['invalid_characters'])
  })
})

describe('OpenAPI', () => {
  it('documents every experiences endpoint', async () => {
    const response = await api.request('GET', 'openapi.json')
    const paths = response.json.paths
    expect(Object.keys(paths)).toEqual(expect.arrayContaining([
      '/v1/experiences',
      '/v1/experiences/{idOrSlug}',
      '/v1/experiences/{id}',
      '/v1/experiences/{id}/attendees',
      '/v1/experiences/{id}/attendees/{userId}',
      '/v1/experiences/{id}/attendees/create-by-emails',
      '/v1/experiences/{id}/waitlist',
      '/v1/users/{id}/experiences',
    ]))
    expect(Object.keys(paths['/v1/experiences'])).toEqual(['get', 'post'])
    expect(Object.keys(paths['/v1/experiences/{id}/waitlist']).sort()).toEqual(['delete', 'get', 'post'])
  })

  it('documents every route the API serves', async () => {
    const response = await api.request('GET', 'openapi.json')
    const documented = new Set<string>()
    for (const [path, operations] of Object.entries(response.json.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`)
    }
    // Hono's route table, minus middleware (ALL) and the infrastructure routes.
    const served = api.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{key}')}`)
      .filter((route) => !['GET /health', 'GET /openapi.json'].includes(route))
    const undocumented = served.filter((route) => {
      // One path template may be documented under another parameter name ({id} vs {idOrSlug}).
      const pattern = new RegExp(`^${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '\\{\\w+\\}')}$`)
      return ![...documented].some((entry) => pattern.test(entry))
    })
    expect(undocumented).toEqual([])
  })
})
