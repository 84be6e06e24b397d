import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { segmentHandlers } from '#tests/msw/segment.ts'
import { refusedWhileImpersonating } from '../policy/impersonation.ts'
import { createAnalyticsVendor } from '../providers.ts'
import type { AnalyticsVendor, VendorMessage } from '../providers/analytics/provider.ts'
import { createSegmentAnalytics } from '../providers/analytics/segment.ts'
import { rollUpAndExpire } from './retention.ts'
import { createAnalytics, type Visit } from './service.ts'

/**
 * First-party analytics (issue 32 §5, decision 081), against the real database: what a page view
 * keeps (no address, the query stripped but for utm_*), the daily visitor hash, GPC, Do Not Track
 * and the EU consent, bots and staff viewing as members, the allow-listed properties of tracked
 * events, the events the API records, the retention job, and the Segment adapter against
 * handlers written from Segment's HTTP API documentation.
 */
let database: TestDatabase
let api: ApiHarness
const forwarded: VendorMessage[] = []
const recordingVendor: AnalyticsVendor = { name: 'test', enqueue: (message) => void forwarded.push(message), flush: async () => {}, close: async () => {} }
let clock = new Date('2026-03-10T12:00:00Z')
const now = () => clock

const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'
const visit = (overrides: Partial<Visit> = {}): Visit => ({
  url: 'http://localhost:3999/activities/riverside-walk?utm_source=newsletter&q=hip%20pain&email=ann%40example.com',
  referrer: 'https://www.google.com/search?q=circle55',
  userAgent: chrome,
  address: '203.0.113.7',
  language: 'en',
  signals: { gpc: false, dnt: false },
  choice: null,
  userId: null,
  impersonated: false,
  ...overrides,
})

beforeAll(async () => {
  database = await createTestDatabase()
  const analytics = createAnalytics({ db: database.db, vendor: recordingVendor, now, ownHost: 'localhost' })
  api = await createApiHarness(database.db, {}, { analytics })
})

afterAll(async () => {
  await database?.drop()
})

afterEach(() => {
  forwarded.length = 0
})

const analyticsFor = () => createAnalytics({ db: database.db, vendor: recordingVendor, now, ownHost: 'localhost' })

async function lastEvent(name = 'page') {
  return database.db.selectFrom('analytics_events').selectAll().where('name', '=', name).orderBy('id', 'desc').executeTakeFirstOrThrow()
}

describe('a page view', () => {
  it('keeps the path with only its campaign parameters, the referring site, language and device; never the address', async () => {
    await analyticsFor().page(visit())
    const row = await lastEvent()
    expect(row).toMatchObject({
      path: '/activities/riverside-walk?utm_source=newsletter',
      referrer_domain: 'google.com',
      locale: 'en',
      device_class: 'desktop',
      impersonated: false,
      is_bot: false,
      user_id: null,
    })
    expect(row.visitor_hash).toMatch(/^[\w-]{32}$/)
    // Nothing the visitor typed or was known by is stored anywhere in the row.
    const stored = JSON.stringify(row)
    for (const secret of ['203.0.113.7', 'hip', 'ann', 'Chrome', 'search?q']) expect(stored).not.toContain(secret)
    expect(forwarded).toEqual([expect.objectContaining({ type: 'page', anonymousId: row.visitor_hash, path: '/activities/riverside-walk?utm_source=newsletter' })])
  })

  it('recognises a visitor within a day, and no longer the next day (a new salt; the old one is deleted)', async () => {
    const analytics = analyticsFor()
    clock = new Date('2026-03-11T08:00:00Z')
    await analytics.page(visit())
    const morning = (await lastEvent()).visitor_hash
    clock = new Date('2026-03-11T22:00:00Z')
    await analytics.page(visit())
    expect((await lastEvent()).visitor_hash).toBe(morning)
    await analytics.page(visit({ address: '198.51.100.4' }))
    expect((await lastEvent()).visitor_hash).not.toBe(morning)
    clock = new Date('2026-03-12T08:00:00Z')
    await analytics.page(visit())
    expect((await lastEvent()).visitor_hash).not.toBe(morning)
    // The retention job deletes the salts of past days: yesterday's hashes cannot be made again.
    await rollUpAndExpire(database.db, clock)
    expect((await database.db.selectFrom('analytics_salts').select('day').execute()).map((row) => row.day)).toEqual(['2026-03-12'])
  })

  it('honours GPC and Do Not Track: counted anonymously, no visitor hash, no member, nothing forwarded', async () => {
    const member = await createUser(database.db)
    for (const signals of [{ gpc: true, dnt: false }, { gpc: false, dnt: true }]) {
      await analyticsFor().page(visit({ signals, userId: member.id, choice: 'granted' }))
      expect(await lastEvent()).toMatchObject({ visitor_hash: null, user_id: null, path: '/activities/riverside-walk?utm_source=newsletter' })
    }
    expect(forwarded).toEqual([])
  })

  it('asks French and Dutch visitors first: nothing but an anonymous count until they accept; a refusal anywhere is honoured', async () => {
    const member = await createUser(database.db)
    await analyticsFor().page(visit({ language: 'fr', userId: member.id }))
    expect(await lastEvent()).toMatchObject({ visitor_hash: null, user_id: null, locale: 'fr' })
    await analyticsFor().page(visit({ language: 'nl', choice: 'refused' }))
    expect(await lastEvent()).toMatchObject({ visitor_hash: null })
    await analyticsFor().page(visit({ language: 'en', choice: 'refused' }))
    expect(await lastEvent()).toMatchObject({ visitor_hash: null })
    expect(forwarded).toEqual([])
    await analyticsFor().page(visit({ language: 'nl', choice: 'granted', userId: member.id }))
    const accepted = await lastEvent()
    expect(accepted).toMatchObject({ user_id: member.id, locale: 'nl' })
    expect(accepted.visitor_hash).not.toBeNull()
    expect(forwarded).toEqual([expect.objectContaining({ type: 'page', userId: member.id })])
  })

  it('flags bots and staff viewing as a member: no visitor hash, never forwarded', async () => {
    await analyticsFor().page(visit({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }))
    expect(await lastEvent()).toMatchObject({ is_bot: true, visitor_hash: null })
    const member = await createUser(database.db)
    await analyticsFor().page(visit({ impersonated: true, userId: member.id, choice: 'granted' }))
    expect(await lastEvent()).toMatchObject({ impersonated: true, visitor_hash: null, user_id: null })
    expect(forwarded).toEqual([])
  })
})

describe('identify', () => {
  it('links the day’s visitor to the member with consent only', async () => {
    const member = await createUser(database.db)
    await analyticsFor().identify({ ...visit(), userId: member.id }, 'sign_up')
    const row = await lastEvent('identify')
    expect(row).toMatchObject({ user_id: member.id, props: { method: 'sign_up' } })
    expect(forwarded).toEqual([expect.objectContaining({ type: 'identify', userId: member.id, anonymousId: row.visitor_hash })])
    const other = await createUser(database.db)
    await analyticsFor().identify({ ...visit({ signals: { gpc: true, dnt: false } }), userId: other.id }, 'sign_in')
    expect(await database.db.selectFrom('analytics_events').select('id').where('user_id', '=', other.id).execute()).toEqual([])
  })
})

describe('tracked events', () => {
  it('keep only the properties their event allows: no message text or health detail gets through', async () => {
    const member = await createUser(database.db)
    const experience = await createExperience(database.db, member.id)
    await analyticsFor().track('rsvp_created', { experience_id: experience.id, waitlisted: false, message: 'My hip hurts', medicare: 'A123' } as never, { userId: member.id })
    expect((await lastEvent('rsvp_created')).props).toEqual({ experience_id: experience.id, waitlisted: false })
    await analyticsFor().track('onboarding_step', { step: 'not-a-step' } as never, { userId: member.id })
    expect((await lastEvent('onboarding_step')).props).toEqual({})
    expect(forwarded.map((message) => message.properties)).toEqual([{ experience_id: experience.id, waitlisted: false }, {}])
  })

  it('are recorded by the API when a member RSVPs, cancels and hosts; forwarded only without GPC; flagged while staff act as them', async () => {
    const host = await createUser(database.db)
    const member = await createUser(database.db)
    const experience = await createExperience(database.db, host.id)
    const token = await api.signToken(member.id)
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token, body: { user_id: member.id } })).status).toBe(200)
    // Attending again changes nothing: no second RSVP.
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token, body: { user_id: member.id } })).status).toBe(200)
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${member.id}`, { token, headers: { 'sec-gpc': '1' } })).status).toBe(200)
    const rows = await database.db.selectFrom('analytics_events').select(['name', 'props', 'impersonated']).where('user_id', '=', member.id).orderBy('id').execute()
    expect(rows).toEqual([
      { name: 'rsvp_created', props: { experience_id: experience.id, waitlisted: false }, impersonated: false },
      { name: 'rsvp_cancelled', props: { experience_id: experience.id, late: false }, impersonated: false },
    ])
    // The cancellation came with GPC: recorded first-party, not forwarded.
    expect(forwarded.map((message) => message.event)).toEqual(['rsvp_created'])

    const created = await api.request('POST', 'v1/experiences', {
      token: await api.signToken(host.id),
      body: { title: 'Garden tour', description: 'A slow walk round the rose garden.', venue_type: 'online', url: 'https://meet.example/garden', start_date: '2030-05-01', start_time: '10:00', end_time: '11:00', timezone: 'America/Los_Angeles' },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(await lastEvent('host_activity_created')).toMatchObject({ user_id: host.id, props: { experience_id: created.json.data[0].id, venue_type: 'online' } })

    // A member who refused on their account: recorded, never forwarded.
    forwarded.length = 0
    const refusing = await createUser(database.db, { analytics_consent: 'refused' })
    await analyticsFor().track('signup_completed', {}, { userId: refusing.id })
    expect(await lastEvent('signup_completed')).toMatchObject({ user_id: refusing.id })
    await analyticsFor().track('help_opened', {}, { userId: member.id, impersonated: true })
    expect(await lastEvent('help_opened')).toMatchObject({ impersonated: true })
    expect(forwarded).toEqual([])
  })

  it('records the onboarding step and the end of sign-up from the member’s own changes', async () => {
    const member = await createUser(database.db, { onboarded_at: null, state: 'created', onboarding_step: null })
    const token = await api.signToken(member.id)
    expect((await api.request('PUT', 'v1/users/me', { token, body: { first_name: 'Ann', onboarded: true, onboarding_step: 'location' } })).status).toBe(200)
    const names = (await database.db.selectFrom('analytics_events').select(['name', 'props']).where('user_id', '=', member.id).orderBy('id').execute())
    expect(names).toEqual([{ name: 'signup_completed', props: {} }, { name: 'onboarding_step', props: { step: 'location' } }])
  })
})

describe('the member’s consent on their account', () => {
  it('is read and changed by the member; staff viewing as them may not change it', async () => {
    const member = await createUser(database.db)
    const token = await api.signToken(member.id)
    expect((await api.request('GET', 'v1/users/me/analytics-consent', { token })).json.data).toEqual([{ choice: null }])
    expect((await api.request('PUT', 'v1/users/me/analytics-consent', { token, body: { choice: 'maybe' } })).status).toBe(422)
    expect((await api.request('PUT', 'v1/users/me/analytics-consent', { token, body: { choice: 'refused' } })).json.data).toEqual([{ choice: 'refused' }])
    expect((await api.request('GET', 'v1/users/me/analytics-consent', { token })).json.data).toEqual([{ choice: 'refused' }])
    expect((await api.request('GET', 'v1/users/me/analytics-consent')).status).toBe(401)
    // Viewing as the member, or even acting for them, the team may read it but not answer for them.
    for (const mode of ['viewing', 'acting'] as const) {
      expect(refusedWhileImpersonating(mode, 'PUT', '/v1/users/me/analytics-consent')).toBe(true)
      expect(refusedWhileImpersonating(mode, 'GET', '/v1/users/me/analytics-consent')).toBe(false)
    }
  })
})

describe('the retention job', () => {
  it('rolls finished days into daily totals (without bots or staff), then deletes raw events after 13 months and totals after 25', async () => {
    const { db } = database
    await db.deleteFrom('analytics_events').execute()
    await db.deleteFrom('analytics_daily').execute()
    const old = new Date('2025-01-15T10:00:00Z')
    await db.insertInto('analytics_events').values([
      { occurred_at: old, name: 'page', path: '/', locale: 'en', visitor_hash: 'a' },
      { occurred_at: old, name: 'page', path: '/', locale: 'en', visitor_hash: 'a' },
      { occurred_at: old, name: 'page', path: '/', locale: 'en', visitor_hash: 'b' },
      { occurred_at: old, name: 'page', path: '/', locale: 'en', is_bot: true },
      { occurred_at: old, name: 'page', path: '/', locale: 'en', impersonated: true },
      { occurred_at: new Date('2026-03-01T10:00:00Z'), name: 'page', path: '/pricing', locale: 'fr' },
    ]).execute()
    await db.insertInto('analytics_daily').values({ day: '2023-01-01', name: 'page', events: 9 }).execute()
    const done = await rollUpAndExpire(db, new Date('2026-03-12T03:20:00Z'))
    expect(done.deletedEvents).toBe(5)
    expect(done.deletedAggregates).toBe(1)
    const daily = await db.selectFrom('analytics_daily').select(['day', 'name', 'path', 'locale', 'events', 'visitors', 'members']).orderBy('day').execute()
    expect(daily).toEqual([
      { day: '2025-01-15', name: 'page', path: '/', locale: 'en', events: 3, visitors: 2, members: 0 },
      { day: '2026-03-01', name: 'page', path: '/pricing', locale: 'fr', events: 1, visitors: 0, members: 0 },
    ])
    expect((await db.selectFrom('analytics_events').select('path').execute()).map((row) => row.path)).toEqual(['/pricing'])
  })
})

describe('the Segment adapter (HTTP Tracking API)', () => {
  const writeKey = 'seg_write_key_test'
  const segment = segmentHandlers({ writeKey })
  const server = setupServer(...segment.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('sends queued events in a batch with the write key as the basic-auth user name, and flushes on close', async () => {
    const vendor = createAnalyticsVendor({ SEGMENT_WRITE_KEY: writeKey, SEGMENT_API_URL: 'https://api.segment.io' })
    expect(vendor?.name).toBe('segment')
    const at = new Date('2026-03-10T12:00:00Z')
    vendor!.enqueue({ type: 'identify', userId: 'u-1', anonymousId: 'v-1', timestamp: at, messageId: 'm-1', locale: 'en' })
    vendor!.enqueue({ type: 'track', userId: 'u-1', event: 'rsvp_created', properties: { experience_id: 'e-1', waitlisted: false }, timestamp: at, messageId: 'm-2' })
    vendor!.enqueue({ type: 'page', anonymousId: 'v-2', path: '/activities?utm_source=mail', timestamp: at, messageId: 'm-3', locale: 'fr' })
    expect(segment.received).toEqual([])
    await vendor!.close()
    expect(segment.received).toHaveLength(1)
    expect(segment.received[0]).toMatchObject({ endpoint: 'batch', authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}` })
    const context = { library: { name: 'circle55-server', version: '1' }, ip: '0.0.0.0' }
    expect(segment.messages()).toEqual([
      { type: 'identify', userId: 'u-1', anonymousId: 'v-1', traits: {}, context: { ...context, locale: 'en' }, timestamp: at.toISOString(), messageId: 'm-1' },
      { type: 'track', userId: 'u-1', event: 'rsvp_created', properties: { experience_id: 'e-1', waitlisted: false }, context, timestamp: at.toISOString(), messageId: 'm-2' },
      { type: 'page', anonymousId: 'v-2', properties: { path: '/activities?utm_source=mail' }, context: { ...context, locale: 'fr', page: { path: '/activities?utm_source=mail' } }, timestamp: at.toISOString(), messageId: 'm-3' },
    ])
    expect(createAnalyticsVendor({ SEGMENT_API_URL: 'https://api.segment.io' })).toBeNull()
  })

  it('sends on its own once enough wait, retries an outage, and never throws', async () => {
    segment.received.length = 0
    const vendor = createSegmentAnalytics({ writeKey, flushAt: 2, attempts: 2 })
    const at = new Date()
    vendor.enqueue({ type: 'track', userId: 'u-1', event: 'attended', properties: {}, timestamp: at, messageId: 'a' })
    vendor.enqueue({ type: 'track', userId: 'u-1', event: 'no_show', properties: {}, timestamp: at, messageId: 'b' })
    await vendor.flush()
    expect(segment.messages().map((message) => message.event)).toEqual(['attended', 'no_show'])
    segment.down.value = true
    vendor.enqueue({ type: 'track', userId: 'u-1', event: 'help_opened', properties: {}, timestamp: at, messageId: 'c' })
    const flushing = vendor.flush()
    setTimeout(() => (segment.down.value = false), 50)
    await flushing
    expect(segment.messages().map((message) => message.event)).toEqual(['attended', 'no_show', 'help_opened'])
  })
})
