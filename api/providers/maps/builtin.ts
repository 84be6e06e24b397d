import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { ensureGazetteer, foldName, timeZoneAt } from './gazetteer.ts'
import { directionsUrl } from './google.ts'
import { minPlaceQueryLength } from '#contract/limits.ts'
import { clampLimit, parseQuery, toResolvedPlace, type Place, type PlacesProvider } from './provider.ts'

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

const DETAILS_CACHE_SIZE = 5_000

const placeColumns = ['id', 'name', 'state', 'latitude', 'longitude', 'population', 'time_zone'] as const

/**
 * The built-in provider over the `places` table (gazetteer.ts). The gazetteer is
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
      if (name.length < minPlaceQueryLength) return []
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
