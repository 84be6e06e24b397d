import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { ResolvedPlace } from '../experiences/service.ts'
import { US_STATES, ensureGazetteer, foldName, timeZoneAt } from './gazetteer.ts'
import { createGoogleMapsProvider, directionsUrl, type GoogleMapsProvider } from './google.ts'

/** A US city (or, for a ZIP the gazetteer has no city for, the ZIP's town). */
export interface Place {
  /** `us-or-portland`, `zip-97201`, or a Google place id. */
  id: string
  name: string
  /** Two-letter state code. */
  state: string
  /** `Portland, OR` */
  label: string
  latitude: number
  longitude: number
  /** IANA time zone, e.g. `America/Los_Angeles`. */
  timeZone: string
  population: number | null
}

export interface LatLng {
  lat: number
  lng: number
}

export interface SearchOptions {
  /** At most 20; 10 by default. */
  limit?: number
  /** Ranks closer places of equal match first. */
  near?: LatLng
}

export type Destination = Place | (LatLng & { address?: string | null })

export interface PlacesProvider {
  readonly name: 'builtin' | 'google'
  /** US cities matching `query`: a name ("portlnd" is fuzzy-matched), "Portland, OR", or a 5-digit ZIP. */
  search(query: string, options?: SearchOptions): Promise<Place[]>
  details(placeId: string): Promise<Place | null>
  /** `details` in the shape the experiences domain stores (city and region). */
  resolvePlace(placeId: string): Promise<ResolvedPlace | null>
  nearestCity(lat: number, lng: number): Promise<Place | null>
  /** IANA time zone at a point, offline. */
  timeZoneAt(lat: number, lng: number): string
  /** A Google Maps directions link (works without an API key). */
  directionsUrl(destination: Destination): string
  /** A 400×400 map image at zoom 14, or null when no map service is configured. */
  staticMapUrl(lat: number, lng: number): string | null
}

export const MIN_QUERY_LENGTH = 2
export const MAX_LIMIT = 20
/** Beyond this a point is not "in" any city of the gazetteer (at sea, abroad). */
const NEAREST_CITY_MAX_METERS = 150_000

type PlaceRow = Pick<
  Database['places'],
  'id' | 'name' | 'state' | 'latitude' | 'longitude' | 'population' | 'time_zone'
>

function toPlace(row: PlaceRow): Place {
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    label: `${row.name}, ${row.state}`,
    latitude: row.latitude,
    longitude: row.longitude,
    timeZone: row.time_zone,
    population: row.population,
  }
}

const STATE_BY_NAME = new Map(
  Object.entries(US_STATES).map(([code, name]) => [foldName(name), code] as const),
)

/** "Portland, OR" / "portland, maine" → name and state code; an unknown suffix is dropped. */
export function parseQuery(query: string): { name: string; state: string | null; zip: string | null } {
  const trimmed = query.trim()
  const zip = /^(\d{5})(?:-\d{4})?$/.exec(trimmed)?.[1] ?? null
  if (zip) return { name: '', state: null, zip }
  const comma = trimmed.lastIndexOf(',')
  if (comma < 0) return { name: foldName(trimmed), state: null, zip: null }
  const name = foldName(trimmed.slice(0, comma))
  const suffix = trimmed
    .slice(comma + 1)
    .trim()
    .replace(/\b(usa|us|united states)$/i, '')
  const code = suffix.toUpperCase().replace(/\./g, '')
  const state = US_STATES[code] ? code : (STATE_BY_NAME.get(foldName(suffix)) ?? null)
  return { name, state, zip: null }
}

export function clampLimit(limit: number | undefined) {
  return Math.max(1, Math.min(MAX_LIMIT, Math.trunc(limit ?? 10)))
}

export function toResolvedPlace(place: Place | null): ResolvedPlace | null {
  if (!place) return null
  const { id, label, name, state, latitude, longitude, timeZone } = place
  return { id, label, city: name, region: state, latitude, longitude, timeZone }
}

const DETAILS_CACHE_SIZE = 5_000

const placeColumns = ['id', 'name', 'state', 'latitude', 'longitude', 'population', 'time_zone'] as const

/**
 * The built-in provider over the `places` table (api/places/gazetteer.ts). The gazetteer is
 * loaded on first use if the table is still empty.
 */
export function createBuiltinPlacesProvider(db: Kysely<Database>): PlacesProvider {
  let ready: Promise<unknown> | undefined
  const ensure = () => {
    ready ??= ensureGazetteer(db).catch((error: unknown) => {
      ready = undefined
      throw error
    })
    return ready
  }

  const detailsCache = new Map<string, Place>()

  async function cityForZip(zip: string): Promise<Place | null> {
    const row = await db
      .selectFrom('places')
      .select(placeColumns)
      .where('id', '=', `zip-${zip}`)
      .executeTakeFirst()
    if (!row) return null
    // The city of that name in that state closest to the ZIP's centroid, else the ZIP's town.
    const city = await db
      .selectFrom('places')
      .select(placeColumns)
      .where('kind', '=', 'city')
      .where('state', '=', row.state)
      .where((eb) =>
        eb.or([eb('search', '=', foldName(row.name)), eb('search', 'like', `${foldName(row.name)} %`)]),
      )
      .where(
        sql<boolean>`earth_distance(ll_to_earth(latitude, longitude), ll_to_earth(${row.latitude}, ${row.longitude})) < 50000`,
      )
      .orderBy(sql`ll_to_earth(latitude, longitude) <-> ll_to_earth(${row.latitude}, ${row.longitude})`)
      .limit(1)
      .executeTakeFirst()
    return toPlace(city ?? row)
  }

  const provider: PlacesProvider = {
    name: 'builtin',

    async search(query, options = {}) {
      await ensure()
      const limit = clampLimit(options.limit)
      const { name, state, zip } = parseQuery(query)
      if (zip) {
        const place = await cityForZip(zip)
        return place ? [place] : []
      }
      if (name.length < MIN_QUERY_LENGTH) return []
      // Exact name, then name prefix, then a later word's prefix ("york" → "New York City"),
      // then trigram similarity; ties go to the larger (or, with `near`, larger and closer) city.
      const tier = sql<number>`CASE WHEN search = ${name} THEN 3 WHEN search LIKE ${`${name}%`} THEN 2
        WHEN search LIKE ${`% ${name}%`} THEN 1 ELSE 0 END`
      const weight = options.near
        ? sql`coalesce(population, 0) / (1 + power(earth_distance(ll_to_earth(latitude, longitude),
            ll_to_earth(${options.near.lat}, ${options.near.lng})) / 50000, 2))`
        : sql`coalesce(population, 0)`
      const rows = await db
        .selectFrom('places')
        .select(placeColumns)
        .where('kind', '=', 'city')
        .where(
          sql<boolean>`(search % ${name} OR search LIKE ${`${name}%`} OR search LIKE ${`% ${name}%`})`,
        )
        .$if(state !== null, (qb) => qb.where('state', '=', state ?? ''))
        .orderBy(tier, 'desc')
        .orderBy(sql`CASE WHEN ${tier} = 0 THEN similarity(search, ${name}) ELSE 0 END`, 'desc')
        .orderBy(weight, 'desc')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map(toPlace)
    },

    async details(placeId) {
      // The gazetteer never changes while the process runs: remember what was looked up.
      const cached = detailsCache.get(placeId)
      if (cached !== undefined) return cached
      await ensure()
      const row = await db
        .selectFrom('places')
        .select(placeColumns)
        .where('id', '=', placeId)
        .executeTakeFirst()
      const place = row ? toPlace(row) : null
      if (place) {
        if (detailsCache.size >= DETAILS_CACHE_SIZE) detailsCache.delete(detailsCache.keys().next().value!)
        detailsCache.set(placeId, place)
      }
      return place
    },

    async nearestCity(lat, lng) {
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null
      await ensure()
      const row = await db
        .selectFrom('places')
        .select(placeColumns)
        .select(
          sql<number>`earth_distance(ll_to_earth(latitude, longitude), ll_to_earth(${lat}, ${lng}))`.as(
            'meters',
          ),
        )
        .where('kind', '=', 'city')
        .orderBy(sql`ll_to_earth(latitude, longitude) <-> ll_to_earth(${lat}, ${lng})`)
        .limit(1)
        .executeTakeFirst()
      return row && row.meters <= NEAREST_CITY_MAX_METERS ? toPlace(row) : null
    },

    async resolvePlace(placeId) {
      return toResolvedPlace(await provider.details(placeId))
    },

    timeZoneAt,
    directionsUrl,
    staticMapUrl: () => null,
  }
  return provider
}

export interface PlacesProviderOptions {
  db: Kysely<Database>
  /** GOOGLE_MAPS_API_KEY: Google Places and Static Maps when set, the built-in gazetteer otherwise. */
  googleMapsApiKey?: string | undefined
  fetch?: typeof fetch
}

/** The provider for this deployment: Google Maps Platform when a key is set, else built-in. */
export function createPlacesProvider(options: PlacesProviderOptions): PlacesProvider | GoogleMapsProvider {
  const builtin = createBuiltinPlacesProvider(options.db)
  if (!options.googleMapsApiKey) return builtin
  return createGoogleMapsProvider({
    apiKey: options.googleMapsApiKey,
    fetch: options.fetch,
    fallback: builtin,
  })
}
