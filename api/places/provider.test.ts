import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiEnv, ApiServices } from '#api/app.ts'
import { parseEnv } from '#api/env.ts'
import { ApiProblem } from '#api/http/errors.ts'
import { OpenApiRegistry } from '#api/http/openapi.ts'
import { createLogger } from '#api/logger.ts'
import { createLocalStorage } from '../media/storage.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { US_STATES, ensureGazetteer, foldName } from './gazetteer.ts'
import { createBuiltinPlacesProvider, parseQuery, type PlacesProvider } from './provider.ts'
import { placeRoutes } from './routes.ts'

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
    expect(loadMs).toBeLessThan(5_000)
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

describe('routes', () => {
  let app: Hono<ApiEnv>
  let registry: OpenApiRegistry

  beforeAll(() => {
    const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent' })
    const services: ApiServices = {
      env,
      db: testDb.db,
      logger: createLogger(env),
      verifyToken: () => Promise.reject(new Error('no tokens in these tests')),
      places,
      media: createLocalStorage(join(tmpdir(), 'circle55-unused-media')),
    }
    app = new Hono<ApiEnv>().basePath('/api')
    registry = new OpenApiRegistry()
    app.use(async (c, next) => {
      c.set('services', services)
      c.set('requestId', 'test')
      c.set('caller', null)
      await next()
    })
    placeRoutes(app, registry)
    app.onError((error, c) =>
      error instanceof ApiProblem ? c.json(error.toJSON(), error.status as 400) : c.json({ error: 'internal' }, 500),
    )
  })

  const get = async (path: string) => {
    const response = await app.request(`/api${path}`)
    return { status: response.status, json: (await response.json()) as { data?: { label: string }[]; error?: { code: string } } }
  }

  it('GET /v1/places searches', async () => {
    const { status, json } = await get('/v1/places?query=Portland%2C%20ME&limit=2')
    expect(status).toBe(200)
    expect(json.data?.[0]).toMatchObject({ id: 'us-me-portland', label: 'Portland, ME' })
    expect(json.data?.length).toBeLessThanOrEqual(2)
    const near = await get('/v1/places?query=portland&latitude=43.66&longitude=-70.26')
    expect(near.json.data?.[0]?.label).toBe('Portland, ME')
  })

  it('GET /v1/places answers 400 for a missing or too-short query', async () => {
    expect((await get('/v1/places')).status).toBe(400)
    const short = await get('/v1/places?query=%20p%20')
    expect(short.status).toBe(400)
    expect(short.json.error?.code).toBe('invalid_query')
  })

  it('GET /v1/places/{id} answers the place or 404', async () => {
    const found = await get('/v1/places/us-or-portland')
    expect(found.status).toBe(200)
    expect(found.json.data).toEqual([expect.objectContaining({ label: 'Portland, OR', timeZone: 'America/Los_Angeles' })])
    expect((await get('/v1/places/us-zz-nowhere')).status).toBe(404)
  })

  it('answers 404 or 400, never 500, for a NUL byte and numbers that are not plain decimals (issue 10)', async () => {
    for (const id of ['abc%00def', 'us-or-portland%00', '%01']) expect((await get(`/v1/places/${id}`)).status).toBe(404)
    // A search holding a NUL byte is fine: the name is folded to letters and digits first.
    expect((await get('/v1/places?query=port%00land')).json.data?.[0]?.label).toBe('Portland, OR')
    for (const query of ['limit=0x3', 'limit=1e1', 'limit=%202', 'latitude=0x10&longitude=-70', 'latitude=&longitude=']) {
      const response = await get(`/v1/places?query=portland&${query}`)
      expect({ query, status: response.status }).toEqual({ query, status: 400 })
      expect(response.json.error?.code).toBe('invalid_query')
    }
    for (const query of ['latitude=0x10&longitude=-70', 'latitude=&longitude=', 'latitude=%2045&longitude=-70']) {
      expect((await get(`/v1/places/nearest?${query}`)).status).toBe(400)
    }
  })

  it('GET /v1/places/nearest answers the nearest city', async () => {
    const { status, json } = await get('/v1/places/nearest?latitude=45.52&longitude=-122.68')
    expect(status).toBe(200)
    expect(json.data).toEqual([expect.objectContaining({ label: 'Portland, OR' })])
    expect((await get('/v1/places/nearest?latitude=abc&longitude=1')).status).toBe(400)
  })

  it('registers the routes in the OpenAPI document', () => {
    const doc = registry.document(`${TEST_PUBLIC_URL}/api`)
    expect(Object.keys(doc.paths)).toEqual(['/v1/places', '/v1/places/nearest', '/v1/places/{id}'])
  })
})
