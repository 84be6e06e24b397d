import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { GOOGLE_CITIES, GOOGLE_MAPS_BASE, GOOGLE_VENUES, googleMapsHandlers } from '#tests/msw/google-maps.ts'
import { createPlacesProvider } from '../../providers.ts'
import { gazetteerRows } from './gazetteer.ts'
import { GoogleMapsError, createGoogleMapsProvider, type GoogleMapsProvider } from './google.ts'

/**
 * The Google Maps Platform adapter against msw handlers that answer as Google's web services
 * document (tests/msw/google-maps.ts); nothing leaves the machine (an unhandled request fails
 * the test). With GOOGLE_MAPS_API_KEY set, the API's place search answers Google's places; what
 * Google has no call for (nearest city) and the gazetteer's own ids go to the built-in provider.
 */
const apiKey = 'test-google-key'
const google = googleMapsHandlers({ apiKey })
const server = setupServer(...google.handlers)
const [portlandOr, portlandMe, phoenix] = GOOGLE_CITIES as [(typeof GOOGLE_CITIES)[number], (typeof GOOGLE_CITIES)[number], (typeof GOOGLE_CITIES)[number]]

let database: TestDatabase
let places: GoogleMapsProvider
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  // The built-in fallback over a few of the gazetteer's rows (it loads all of them only into an
  // empty table; the full gazetteer is tested in builtin.test.ts).
  const ids = new Set(['us-or-portland', 'us-me-portland', 'us-az-phoenix'])
  await database.db.insertInto('places').values(gazetteerRows().filter((row) => ids.has(row.id))).execute()
  places = createPlacesProvider({ db: database.db, googleMapsApiKey: apiKey }) as GoogleMapsProvider
  api = await createApiHarness(database.db, { GOOGLE_MAPS_API_KEY: apiKey }, { places })
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

const requestsTo = (endpoint: string) => google.requests.filter((url) => url.pathname.endsWith(`/${endpoint}/json`))

describe('Google Maps adapter', () => {
  it('is chosen when GOOGLE_MAPS_API_KEY is set', () => {
    expect(places.name).toBe('google')
    expect(createPlacesProvider({ db: database.db }).name).toBe('builtin')
  })

  it('searches US cities with Autocomplete and Place Details, closest first when asked', async () => {
    google.requests.length = 0
    const found = await places.search('Portland')
    expect(found.map((place) => place.label).sort()).toEqual(['Portland, ME', 'Portland, OR'])
    const autocomplete = requestsTo('place/autocomplete')
    expect(autocomplete).toHaveLength(1)
    expect(autocomplete[0]!.searchParams.get('types')).toBe('(cities)')
    expect(autocomplete[0]!.searchParams.get('components')).toBe('country:us')
    expect(requestsTo('place/details')).toHaveLength(2)

    const near = await places.search('portland', { near: { lat: portlandMe.lat, lng: portlandMe.lng }, limit: 1 })
    expect(near).toEqual([expect.objectContaining({ id: portlandMe.placeId, label: 'Portland, ME', timeZone: 'America/New_York' })])
    expect(await places.search('Atlantis')).toEqual([])
  })

  it('gives a place’s details with its time zone from the Time Zone API', async () => {
    google.requests.length = 0
    expect(await places.details(phoenix.placeId)).toEqual({
      id: phoenix.placeId,
      name: 'Phoenix',
      state: 'AZ',
      label: 'Phoenix, AZ',
      latitude: phoenix.lat,
      longitude: phoenix.lng,
      timeZone: 'America/Phoenix',
      population: null,
    })
    expect(requestsTo('timezone')).toHaveLength(1)
    expect(await places.details('ChIJ-unknown-place')).toBeNull()
    expect(await places.resolvePlace(portlandOr.placeId)).toMatchObject({ city: 'Portland', region: 'OR', timeZone: 'America/Los_Angeles' })
  })

  it('leaves the gazetteer’s ids and the nearest city to the built-in provider', async () => {
    google.requests.length = 0
    expect(await places.details('us-or-portland')).toMatchObject({ label: 'Portland, OR' })
    expect(await places.nearestCity(45.52, -122.68)).toMatchObject({ id: 'us-or-portland' })
    expect(google.requests).toEqual([])
  })

  it('finds venues with Nearby Search (500 m) and Text Search (50 km)', async () => {
    const square = GOOGLE_VENUES[0]!
    const nearby = await places.nearby(square.geometry.location.lat, square.geometry.location.lng)
    expect(nearby.map((venue) => venue.name)).toContain('Pioneer Courthouse Square')
    expect(requestsTo('place/nearbysearch').at(-1)!.searchParams.get('radius')).toBe('500')
    const books = await places.textSearch('Powell books', { lat: portlandOr.lat, lng: portlandOr.lng })
    expect(books).toEqual([expect.objectContaining({ name: "Powell's City of Books", address: '1005 W Burnside St, Portland, OR 97209, United States' })])
  })

  it('builds Static Maps and directions links', () => {
    const map = new URL(places.staticMapUrl(45.5, -122.6) ?? '')
    expect(`${map.origin}${map.pathname}`).toBe(`${GOOGLE_MAPS_BASE}/staticmap`)
    expect(map.searchParams.get('key')).toBe(apiKey)
    expect(places.directionsUrl({ lat: 45.5, lng: -122.6, address: '1 Main St' })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=1%20Main%20St',
    )
  })

  it('throws GoogleMapsError with the status Google answers for a wrong key', async () => {
    const wrong = createGoogleMapsProvider({ apiKey: 'wrong-key' })
    const error: unknown = await wrong.search('Portland').catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(GoogleMapsError)
    expect(error).toMatchObject({ status: 'REQUEST_DENIED' })
  })
})

describe('the API with Google Maps', () => {
  it('answers place searches and details with Google’s places', async () => {
    const search = await api.request('GET', 'v1/places?query=Phoenix')
    expect(search.status).toBe(200)
    expect(search.json.data).toEqual([expect.objectContaining({ id: phoenix.placeId, label: 'Phoenix, AZ' })])
    const details = await api.request('GET', `v1/places/${encodeURIComponent(portlandOr.placeId)}`)
    expect(details.status).toBe(200)
    expect(details.json.data).toEqual([expect.objectContaining({ label: 'Portland, OR', timeZone: 'America/Los_Angeles' })])
  })
})
