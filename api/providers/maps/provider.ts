import { maxPlaceResults } from '#contract/limits.ts'
import { US_STATES, foldName } from './gazetteer.ts'

/**
 * Maps and places (ARCHITECTURE §4): US city search, place details, nearest city, time zones,
 * directions links and map images. Built in: the US gazetteer (builtin.ts over gazetteer.ts);
 * Google Maps Platform (google.ts) when GOOGLE_MAPS_API_KEY is set (api/providers.ts chooses).
 */

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

/** A place picked from the places search, as an activity records it (api/experiences/service.ts). */
export interface ResolvedPlace {
  id: string
  label: string
  city: string | null
  region: string | null
  latitude: number
  longitude: number
  timeZone: string
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
  return Math.max(1, Math.min(maxPlaceResults, Math.trunc(limit ?? 10)))
}

export function toResolvedPlace(place: Place | null): ResolvedPlace | null {
  if (!place) return null
  const { id, label, name, state, latitude, longitude, timeZone } = place
  return { id, label, city: name, region: state, latitude, longitude, timeZone }
}
