import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createBuiltinPlacesProvider } from './builtin.ts'
import { US_STATES, ensureGazetteer, foldName } from './gazetteer.ts'
import { parseQuery, type PlacesProvider } from './provider.ts'

let testDb: TestDatabase
let places: PlacesProvider
let inserted = 0
let loadMs = 0

beforeAll(async () => {
  testDb = await createTestDatabase()
  const started = performance.now()
  inserted = await ensureGazetteer(testDb.db)
  loadMs = performance.now() - started
  places = createBuiltinPlacesProvider(testDb.db)
})

afterAll(async () => {
  await testDb?.drop()
})

describe('gazetteer', () => {
  it('loads US cities and ZIP centroids quickly, once', async () => {
    expect(inserted).toBeGreaterThan(50_000)
    const counts = await testDb.db
      .selectFrom('places')
      .select(['kind', sql<number>`count(*)::int`.as('n')])
      .groupBy('kind')
      .orderBy('kind')
      .execute()
    expect(counts.find((c) => c.kind === 'city')?.n).toBeGreaterThan(15_000)
    expect(counts.find((c) => c.kind === 'zip')?.n).toBeGreaterThan(30_000)
    // Idempotent: a second call finds the table full.
    expect(await ensureGazetteer(testDb.db)).toBe(0)
    console.info(`[places] gazetteer: ${inserted} rows in ${Math.round(loadMs)} ms`)
  })

  it('folds accents, case and punctuation', () => {
    expect(foldName('La Cañada Flintridge')).toBe('la canada flintridge')
    expect(foldName('St. Louis')).toBe('st louis')
    expect(foldName('Kapa‘a')).toBe('kapaa')
  })
})

describe('search', () => {
  it('finds Portland, OR before Portland, ME (population)', async () => {
    const results = await places.search('portland')
    const labels = results.map((p) => p.label)
    expect(labels[0]).toBe('Portland, OR')
    expect(labels).toContain('Portland, ME')
    expect(labels.indexOf('Portland, ME')).toBeLessThan(labels.indexOf('Portland, TX'))
    expect(results[0]).toMatchObject({
      id: 'us-or-portland',
      name: 'Portland',
      state: 'OR',
      timeZone: 'America/Los_Angeles',
    })
    expect(results[0]?.population).toBeGreaterThan(500_000)
  })

  it('matches misspellings', async () => {
    const results = await places.search('Portlnd')
    expect(results[0]?.label).toBe('Portland, OR')
  })

  it('takes a state after a comma, as a code or a name', async () => {
    expect((await places.search('portland, me'))[0]?.label).toBe('Portland, ME')
    expect((await places.search('Portland, Maine'))[0]?.label).toBe('Portland, ME')
    expect((await places.search('Portland, OR'))[0]?.label).toBe('Portland, OR')
    expect((await places.search('Springfield, IL'))[0]?.label).toBe('Springfield, IL')
  })

  it('completes prefixes, largest first', async () => {
    expect((await places.search('san fr'))[0]?.label).toBe('San Francisco, CA')
    expect((await places.search('chica'))[0]?.label).toBe('Chicago, IL')
  })

  it('finds a ZIP code’s city', async () => {
    expect(await places.search('97201')).toEqual([expect.objectContaining({ label: 'Portland, OR' })])
    expect(await places.search('04101')).toEqual([expect.objectContaining({ label: 'Portland, ME' })])
    expect(await places.search('00000')).toEqual([])
  })

  it('ignores accents and case', async () => {
    expect((await places.search('ESPANOLA'))[0]?.name).toBe('Española')
    expect((await places.search('cañon city'))[0]?.name).toBe('Cañon City')
    expect((await places.search('la canada'))[0]?.name).toBe('La Cañada Flintridge')
  })

  it('returns US places only', async () => {
    const results = await places.search('Paris')
    expect(results.length).toBeGreaterThan(3)
    expect(results[0]?.label).toBe('Paris, TX')
    for (const place of results) expect(Object.keys(US_STATES)).toContain(place.state)
    expect((await places.search('Paris, France'))[0]?.label).toBe('Paris, TX')
  })

  it('favours nearby cities when asked', async () => {
    const results = await places.search('portland', { near: { lat: 43.66, lng: -70.26 } })
    expect(results[0]?.label).toBe('Portland, ME')
  })

  it('respects the limit and ignores a too-short query', async () => {
    expect(await places.search('spring', { limit: 3 })).toHaveLength(3)
    expect(await places.search('p')).toEqual([])
  })

  it('parses queries', () => {
    expect(parseQuery(' Portland, OR ')).toEqual({ name: 'portland', state: 'OR', zip: null })
    expect(parseQuery('portland, new hampshire')).toEqual({ name: 'portland', state: 'NH', zip: null })
    expect(parseQuery('97201-1234')).toEqual({ name: '', state: null, zip: '97201' })
    expect(parseQuery('Paris, France')).toEqual({ name: 'paris', state: null, zip: null })
  })

  it('uses the trigram index', async () => {
    // The planner prefers a bitmap scan of places_search_trgm over reading ~58k rows; forbid
    // the sequential scan so that the plan shows whether the index can serve this query at all.
    // With ~16k cities the planner may well find reading the whole (partial) location index
    // cheaper; set that index and sequential scans aside, inside a transaction that is rolled
    // back, so that the plan shows whether the trigram index can serve this query at all.
    let plan = ''
    await testDb.db
      .transaction()
      .execute(async (trx) => {
        await sql`DROP INDEX places_location`.execute(trx)
        await sql`SET LOCAL enable_seqscan = off`.execute(trx)
        const rows = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM places
          WHERE kind = 'city' AND (search % ${'portlnd'} OR search LIKE ${'portlnd%'} OR search LIKE ${'% portlnd%'})`.execute(
          trx,
        )
        plan = rows.rows.map((r) => r['QUERY PLAN']).join('\n')
        throw new Error('rollback')
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'rollback') throw error
      })
    expect(plan).toContain('places_search_trgm')
    // Without the hint the planner picks by cost; print both for the record.
    for (const query of ['portlnd', 'san fr']) {
      const analyzed = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ANALYZE SELECT id FROM places
        WHERE kind = 'city' AND (search % ${query} OR search LIKE ${`${query}%`} OR search LIKE ${`% ${query}%`})`.execute(testDb.db)
      console.info(`[places] plan for ${query}:\n${analyzed.rows.map((r) => r['QUERY PLAN']).join('\n')}`)
    }
  })
})

describe('details, nearest city, time zones, links', () => {
  it('returns a place by id, null for an unknown one', async () => {
    expect(await places.details('us-me-portland')).toMatchObject({ label: 'Portland, ME', timeZone: 'America/New_York' })
    expect(await places.details('zip-97201')).toMatchObject({ name: 'Portland', state: 'OR', population: null })
    expect(await places.details('us-zz-nowhere')).toBeNull()
  })

  it('finds the nearest city by earth distance', async () => {
    expect((await places.nearestCity(45.52, -122.68))?.label).toBe('Portland, OR')
    expect((await places.nearestCity(39.74, -104.99))?.label).toBe('Denver, CO')
    expect(await places.nearestCity(30, -40)).toBeNull()
  })

  it('looks time zones up offline', () => {
    expect(places.timeZoneAt(33.45, -112.07)).toBe('America/Phoenix')
    expect(places.timeZoneAt(39.74, -104.99)).toBe('America/Denver')
    expect(places.timeZoneAt(21.31, -157.86)).toBe('Pacific/Honolulu')
    expect(places.timeZoneAt(40.71, -74.01)).toBe('America/New_York')
  })

  it('builds a directions link that encodes the destination', async () => {
    const url = places.directionsUrl({ lat: 45.5189, lng: -122.6793, address: '701 SW 6th Ave, Portland, OR 97205' })
    expect(url).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=701%20SW%206th%20Ave%2C%20Portland%2C%20OR%2097205',
    )
    expect(places.directionsUrl({ lat: 45.5, lng: -122.6 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=45.5%2C-122.6',
    )
    const portland = await places.details('us-or-portland')
    expect(places.directionsUrl(portland!)).toMatch(/destination=45\.\d+%2C-122\.\d+$/)
    expect(places.staticMapUrl(45.5, -122.6)).toBeNull()
  })
})
