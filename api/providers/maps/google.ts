import { timeZoneAt } from './gazetteer.ts'
import { toResolvedPlace, type Destination, type LatLng, type Place, type PlacesProvider, type SearchOptions } from './provider.ts'

/**
 * Google Maps Platform, as its web service documentation describes it:
 * - Places Autocomplete (`types=(cities)`, `components=country:us`) and Place Details
 *   https://developers.google.com/maps/documentation/places/web-service/legacy/autocomplete
 *   https://developers.google.com/maps/documentation/places/web-service/legacy/details
 * - Nearby Search (radius 500 m) and Text Search (radius 50 km)
 *   https://developers.google.com/maps/documentation/places/web-service/legacy/search-nearby
 *   https://developers.google.com/maps/documentation/places/web-service/legacy/search-text
 * - Time Zone API https://developers.google.com/maps/documentation/timezone/requests-timezone
 * - Maps Static API https://developers.google.com/maps/documentation/maps-static/start
 * Every JSON answer carries `status`: OK, ZERO_RESULTS, or an error (REQUEST_DENIED for a bad or
 * restricted key, OVER_QUERY_LIMIT, INVALID_REQUEST, NOT_FOUND…) with `error_message`.
 */
export const GOOGLE_MAPS_API = 'https://maps.googleapis.com/maps/api'
export const NEARBY_RADIUS_METERS = 500
export const TEXT_SEARCH_RADIUS_METERS = 50_000
export const STATIC_MAP_SIZE = '400x400'
export const STATIC_MAP_ZOOM = 14

/** A directions link; no key needed. https://developers.google.com/maps/documentation/urls/get-started#directions-action */
export function directionsUrl(destination: Destination): string {
  let target: string
  let placeId: string | undefined
  if ('label' in destination) {
    target = `${destination.latitude},${destination.longitude}`
    if (!/^(us-|zip-)/.test(destination.id)) placeId = destination.id
  } else {
    target = destination.address?.trim() || `${destination.lat},${destination.lng}`
  }
  let url = `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(target)}`
  if (placeId) url += `&destination_place_id=${encodeURIComponent(placeId)}`
  return url
}

export class GoogleMapsError extends Error {
  override name = 'GoogleMapsError'
  readonly status: string

  constructor(endpoint: string, status: string, message?: string) {
    super(`Google Maps ${endpoint} answered ${status}${message ? `: ${message}` : ''}`)
    this.status = status
  }
}

/** A venue from Nearby or Text Search. */
export interface GooglePlace {
  id: string
  name: string
  address: string | null
  latitude: number
  longitude: number
  types: string[]
}

export interface GoogleMapsProvider extends PlacesProvider {
  readonly name: 'google'
  /** Venues within 500 m of a point (Nearby Search). */
  nearby(lat: number, lng: number, options?: { keyword?: string; type?: string }): Promise<GooglePlace[]>
  /** Venues matching a text within 50 km of `near` (Text Search), in the US. */
  textSearch(query: string, near?: LatLng): Promise<GooglePlace[]>
  /** The IANA time zone at a point from the Time Zone API. */
  timeZone(lat: number, lng: number, at?: Date): Promise<string>
}

interface GoogleResponse {
  status: string
  error_message?: string
}
interface AddressComponent {
  long_name: string
  short_name: string
  types: string[]
}
interface GoogleResult {
  place_id: string
  name?: string
  vicinity?: string
  formatted_address?: string
  types?: string[]
  geometry?: { location?: { lat: number; lng: number } }
  address_components?: AddressComponent[]
}

export function createGoogleMapsProvider(options: {
  apiKey: string
  fetch?: typeof fetch | undefined
  /** Answers what Google has no call for (nearest city) and ids it did not issue (`us-…`, `zip-…`). */
  fallback?: PlacesProvider
  baseUrl?: string
}): GoogleMapsProvider {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const base = (options.baseUrl ?? GOOGLE_MAPS_API).replace(/\/$/, '')

  async function call<T extends GoogleResponse>(
    endpoint: string,
    params: Record<string, string>,
    accept: string[] = ['OK', 'ZERO_RESULTS'],
  ): Promise<T> {
    const url = `${base}/${endpoint}/json?${new URLSearchParams({ ...params, key: options.apiKey })}`
    const response = await fetchImpl(url, { headers: { accept: 'application/json' } })
    if (!response.ok) throw new GoogleMapsError(endpoint, `HTTP ${response.status}`)
    const body = (await response.json()) as T
    if (!accept.includes(body.status)) throw new GoogleMapsError(endpoint, body.status, body.error_message)
    return body
  }

  function toGooglePlace(result: GoogleResult): GooglePlace | null {
    const location = result.geometry?.location
    if (!location) return null
    return {
      id: result.place_id,
      name: result.name ?? result.formatted_address ?? '',
      address: result.formatted_address ?? result.vicinity ?? null,
      latitude: location.lat,
      longitude: location.lng,
      types: result.types ?? [],
    }
  }

  /** A Place Details result as a US city; null outside the US. */
  function toPlace(result: GoogleResult, timeZone?: string): Place | null {
    const location = result.geometry?.location
    if (!location) return null
    const part = (type: string) => result.address_components?.find((c) => c.types.includes(type))
    if (part('country')?.short_name !== 'US') return null
    const state = part('administrative_area_level_1')?.short_name ?? ''
    const name =
      part('locality')?.long_name ??
      part('postal_town')?.long_name ??
      part('sublocality')?.long_name ??
      result.name ??
      ''
    return {
      id: result.place_id,
      name,
      state,
      label: state ? `${name}, ${state}` : name,
      latitude: location.lat,
      longitude: location.lng,
      timeZone: timeZone ?? timeZoneAt(location.lat, location.lng),
      population: null,
    }
  }

  async function placeDetails(placeId: string) {
    const body = await call<GoogleResponse & { result?: GoogleResult }>(
      'place/details',
      { place_id: placeId, fields: 'place_id,name,geometry/location,address_components,types' },
      ['OK', 'ZERO_RESULTS', 'NOT_FOUND', 'INVALID_REQUEST'],
    )
    return body.status === 'OK' ? (body.result ?? null) : null
  }

  async function timeZone(lat: number, lng: number, at = new Date()) {
    const body = await call<GoogleResponse & { timeZoneId?: string }>(
      'timezone',
      { location: `${lat},${lng}`, timestamp: String(Math.floor(at.getTime() / 1000)) },
      ['OK'],
    )
    if (!body.timeZoneId) throw new GoogleMapsError('timezone', 'NO_TIME_ZONE')
    return body.timeZoneId
  }

  const provider: GoogleMapsProvider = {
    name: 'google',

    async search(query: string, searchOptions: SearchOptions = {}) {
      const input = query.trim()
      if (input.length < 2) return []
      const limit = Math.max(1, Math.min(20, Math.trunc(searchOptions.limit ?? 5)))
      const params: Record<string, string> = {
        input,
        types: '(cities)',
        components: 'country:us',
        language: 'en',
      }
      if (searchOptions.near) {
        params.location = `${searchOptions.near.lat},${searchOptions.near.lng}`
        params.radius = String(TEXT_SEARCH_RADIUS_METERS)
      }
      const body = await call<GoogleResponse & { predictions?: { place_id: string }[] }>(
        'place/autocomplete',
        params,
      )
      const predictions = (body.predictions ?? []).slice(0, limit)
      // Autocomplete has no coordinates: one Details call per suggestion (Basic fields only).
      const results = await Promise.all(predictions.map((p) => placeDetails(p.place_id)))
      return results.flatMap((result) => {
        const place = result ? toPlace(result) : null
        return place ? [place] : []
      })
    },

    async details(placeId: string) {
      if (options.fallback && /^(us-|zip-)/.test(placeId)) return options.fallback.details(placeId)
      const result = await placeDetails(placeId)
      const location = result?.geometry?.location
      if (!result || !location) return null
      return toPlace(result, await timeZone(location.lat, location.lng))
    },

    async resolvePlace(placeId: string) {
      return toResolvedPlace(await provider.details(placeId))
    },

    async nearestCity(lat: number, lng: number) {
      return options.fallback ? options.fallback.nearestCity(lat, lng) : null
    },

    async nearby(lat, lng, nearbyOptions = {}) {
      const params: Record<string, string> = {
        location: `${lat},${lng}`,
        radius: String(NEARBY_RADIUS_METERS),
      }
      if (nearbyOptions.keyword) params.keyword = nearbyOptions.keyword
      if (nearbyOptions.type) params.type = nearbyOptions.type
      const body = await call<GoogleResponse & { results?: GoogleResult[] }>('place/nearbysearch', params)
      return (body.results ?? []).flatMap((r) => toGooglePlace(r) ?? [])
    },

    async textSearch(query, near) {
      const params: Record<string, string> = { query, region: 'us' }
      if (near) {
        params.location = `${near.lat},${near.lng}`
        params.radius = String(TEXT_SEARCH_RADIUS_METERS)
      }
      const body = await call<GoogleResponse & { results?: GoogleResult[] }>('place/textsearch', params)
      return (body.results ?? []).flatMap((r) => toGooglePlace(r) ?? [])
    },

    timeZone,
    timeZoneAt,
    directionsUrl,

    staticMapUrl(lat: number, lng: number) {
      const params = new URLSearchParams({
        center: `${lat},${lng}`,
        zoom: String(STATIC_MAP_ZOOM),
        size: STATIC_MAP_SIZE,
        markers: `${lat},${lng}`,
        key: options.apiKey,
      })
      return `${base}/staticmap?${params}`
    },
  }
  return provider
}
