import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiEnv, ApiServices } from '#api/http/context.ts'
import { parseEnv } from '#api/env.ts'
import { refuseControlCharacters } from '#api/http/control-characters.ts'
import { ApiProblem } from '#api/http/errors.ts'
import { createApiRoutes, openApiDocument, type ApiRoutes } from '#api/http/openapi.ts'
import { createLogger } from '#api/logger.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createBuiltinPlacesProvider } from '#api/providers/maps/builtin.ts'
import { gazetteerRows } from '#api/providers/maps/gazetteer.ts'
import type { PlacesProvider } from '#api/providers/maps/provider.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { TEST_PUBLIC_URL, builtinAfterCommit } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { placeRoutes } from './routes.ts'

/**
 * The places routes over the built-in provider (the provider itself, over the whole gazetteer:
 * api/providers/maps/builtin.test.ts). The gazetteer's own rows for the cities these tests ask
 * about, so this file does not load all 70,000 (the provider loads them only into an empty table).
 */
let testDb: TestDatabase
let places: PlacesProvider

beforeAll(async () => {
  testDb = await createTestDatabase()
  const cities = new Set(['us-or-portland', 'us-me-portland', 'us-tx-portland', 'us-or-beaverton', 'us-me-south-portland'])
  const rows = gazetteerRows().filter((row) => cities.has(row.id))
  await testDb.db.insertInto('places').values(rows).execute()
  places = createBuiltinPlacesProvider(testDb.db)
})

afterAll(async () => {
  await testDb?.drop()
})

describe('routes', () => {
  let app: Hono<ApiEnv>
  let routes: ApiRoutes

  beforeAll(() => {
    const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent' })
    const services: ApiServices = {
      env,
      db: testDb.db,
      logger: createLogger(env),
      verifyToken: () => Promise.reject(new Error('no tokens in these tests')),
      places,
      media: createLocalStorage(join(tmpdir(), 'circle55-unused-media')),
      ...builtinAfterCommit(testDb.db),
      mailer: createMailer({ db: testDb.db }),
      codeSecret: 'a test code secret',
    }
    app = new Hono<ApiEnv>().basePath('/api')
    app.use(async (c, next) => {
      c.set('services', services)
      c.set('requestId', 'test')
      c.set('caller', null)
      await next()
    })
    // As createApiApp: control characters are refused before any route (decision 066).
    app.use(refuseControlCharacters())
    routes = createApiRoutes()
    placeRoutes(routes)
    app.route('/', routes)
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

  it('answers 400, never 500, for a NUL byte and numbers that are not plain decimals (issue 10)', async () => {
    for (const id of ['abc%00def', 'us-or-portland%00', '%01']) {
      const response = await get(`/v1/places/${id}`)
      expect({ id, status: response.status, code: response.json.error?.code }).toEqual({ id, status: 400, code: 'invalid_characters' })
    }
    expect(await get('/v1/places?query=port%00land')).toMatchObject({ status: 400, json: { error: { code: 'invalid_characters' } } })
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
    const doc = openApiDocument(routes, `${TEST_PUBLIC_URL}/api`)
    expect(Object.keys(doc.paths ?? {})).toEqual(['/v1/places', '/v1/places/nearest', '/v1/places/{id}'])
  })
})
