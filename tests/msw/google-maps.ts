import { http, HttpResponse } from 'msw'

/**
 * Google Maps Platform web services as their documentation describes them (JSON output, HTTP 200
 * with a `status` field; REQUEST_DENIED with `error_message` for a wrong key):
 * - Place Autocomplete `place/autocomplete/json` (input, types, components, location, radius)
 *   https://developers.google.com/maps/documentation/places/web-service/legacy/autocomplete
 * - Place Details `place/details/json` (place_id, fields) → `result`, NOT_FOUND for an unknown id
 * - Nearby Search `place/nearbysearch/json` (location, radius ≤ 50 000, keyword, type) → `results`
 * - Text Search `place/textsearch/json` (query, location, radius, region) → `results`
 * - Time Zone API `timezone/json` (location, timestamp required) → timeZoneId, rawOffset…
 * The fixture knows a few US cities and venues; `requests` records every URL for assertions.
 */
export const GOOGLE_MAPS_BASE = 'https://maps.googleapis.com/maps/api'

export interface GoogleCity {
  placeId: string
  name: string
  state: string
  stateName: string
  county: string
  lat: number
  lng: number
  timeZoneId: string
  timeZoneName: string
  rawOffset: number
  dstOffset: number
}

export const GOOGLE_CITIES: GoogleCity[] = [
  {
    placeId: 'ChIJJ3SpfQsLlVQRkYXR9ua5Nhw',
    name: 'Portland',
    state: 'OR',
    stateName: 'Oregon',
    county: 'Multnomah County',
    lat: 45.515232,
    lng: -122.6783853,
    timeZoneId: 'America/Los_Angeles',
    timeZoneName: 'Pacific Daylight Time',
    rawOffset: -28800,
    dstOffset: 3600,
  },
  {
    placeId: 'ChIJHyuYnDRFsUwRAgrA5f8sA7s',
    name: 'Portland',
    state: 'ME',
    stateName: 'Maine',
    county: 'Cumberland County',
    lat: 43.6590993,
    lng: -70.2568189,
    timeZoneId: 'America/New_York',
    timeZoneName: 'Eastern Daylight Time',
    rawOffset: -18000,
    dstOffset: 3600,
  },
  {
    placeId: 'ChIJy3mhUO0SK4cRrBtKNfjHaYw',
    name: 'Phoenix',
    state: 'AZ',
    stateName: 'Arizona',
    county: 'Maricopa County',
    lat: 33.4483771,
    lng: -112.0740373,
    timeZoneId: 'America/Phoenix',
    timeZoneName: 'Mountain Standard Time',
    rawOffset: -25200,
    dstOffset: 0,
  },
]

export const GOOGLE_VENUES = [
  {
    place_id: 'ChIJ-4oy4wQKlVQRlyXDQ-5pT5Y',
    name: 'Pioneer Courthouse Square',
    vicinity: '701 Southwest 6th Avenue, Portland',
    formatted_address: '701 SW 6th Ave, Portland, OR 97205, United States',
    geometry: { location: { lat: 45.5189, lng: -122.6793 } },
    types: ['park', 'tourist_attraction', 'point_of_interest', 'establishment'],
  },
  {
    place_id: 'ChIJB4ZfywUKlVQRGL4mAR1N2qA',
    name: "Powell's City of Books",
    vicinity: '1005 West Burnside Street, Portland',
    formatted_address: '1005 W Burnside St, Portland, OR 97209, United States',
    geometry: { location: { lat: 45.5231, lng: -122.6814 } },
    types: ['book_store', 'store', 'point_of_interest', 'establishment'],
  },
]

function distanceMeters(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h))
}

function parseLocation(value: string | null) {
  const match = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(value ?? '')
  return match ? { lat: Number(match[1]), lng: Number(match[2]) } : null
}

function cityResult(city: GoogleCity) {
  return {
    place_id: city.placeId,
    name: city.name,
    formatted_address: `${city.name}, ${city.state}, USA`,
    types: ['locality', 'political'],
    geometry: { location: { lat: city.lat, lng: city.lng } },
    address_components: [
      { long_name: city.name, short_name: city.name, types: ['locality', 'political'] },
      { long_name: city.county, short_name: city.county, types: ['administrative_area_level_2', 'political'] },
      { long_name: city.stateName, short_name: city.state, types: ['administrative_area_level_1', 'political'] },
      { long_name: 'United States', short_name: 'US', types: ['country', 'political'] },
    ],
  }
}

export function googleMapsHandlers(options: { apiKey: string; base?: string }) {
  const base = options.base ?? GOOGLE_MAPS_BASE
  const requests: URL[] = []

  /** The key check every endpoint makes first; REQUEST_DENIED as Google sends it. */
  const denied = (url: URL, empty: Record<string, unknown>) => {
    requests.push(url)
    const key = url.searchParams.get('key')
    if (key === options.apiKey) return null
    return HttpResponse.json({
      ...empty,
      status: 'REQUEST_DENIED',
      error_message: key ? 'The provided API key is invalid. ' : 'You must use an API key to authenticate each request to Google Maps Platform APIs.',
    })
  }
  const invalid = (empty: Record<string, unknown>) => HttpResponse.json({ ...empty, status: 'INVALID_REQUEST' })

  const handlers = [
    http.get(`${base}/place/autocomplete/json`, ({ request }) => {
      const url = new URL(request.url)
      const empty = { predictions: [] }
      const refused = denied(url, empty)
      if (refused) return refused
      const input = url.searchParams.get('input')?.trim().toLowerCase() ?? ''
      if (!input) return invalid(empty)
      // The fixture holds US cities only: honour the restriction the caller must send.
      const citiesOnly = url.searchParams.get('types') === '(cities)'
      const usOnly = url.searchParams.get('components') === 'country:us'
      if (!citiesOnly || !usOnly) return invalid(empty)
      const typed = input.split(',')[0]?.trim() ?? ''
      const near = parseLocation(url.searchParams.get('location'))
      const matches = GOOGLE_CITIES.filter((city) => city.name.toLowerCase().startsWith(typed)).sort(
        (a, b) => (near ? distanceMeters(near, a) - distanceMeters(near, b) : 0),
      )
      if (matches.length === 0) return HttpResponse.json({ ...empty, status: 'ZERO_RESULTS' })
      return HttpResponse.json({
        status: 'OK',
        predictions: matches.map((city) => ({
          description: `${city.name}, ${city.state}, USA`,
          place_id: city.placeId,
          reference: city.placeId,
          matched_substrings: [{ length: typed.length, offset: 0 }],
          structured_formatting: {
            main_text: city.name,
            main_text_matched_substrings: [{ length: typed.length, offset: 0 }],
            secondary_text: `${city.state}, USA`,
          },
          terms: [
            { offset: 0, value: city.name },
            { offset: city.name.length + 2, value: city.state },
            { offset: city.name.length + 6, value: 'USA' },
          ],
          types: ['locality', 'political', 'geocode'],
        })),
      })
    }),

    http.get(`${base}/place/details/json`, ({ request }) => {
      const url = new URL(request.url)
      const refused = denied(url, {})
      if (refused) return refused
      const placeId = url.searchParams.get('place_id')
      if (!placeId) return invalid({})
      const city = GOOGLE_CITIES.find((c) => c.placeId === placeId)
      const venue = GOOGLE_VENUES.find((v) => v.place_id === placeId)
      if (!city && !venue) return HttpResponse.json({ html_attributions: [], status: 'NOT_FOUND' })
      return HttpResponse.json({ html_attributions: [], result: city ? cityResult(city) : venue, status: 'OK' })
    }),

    http.get(`${base}/place/nearbysearch/json`, ({ request }) => {
      const url = new URL(request.url)
      const empty = { html_attributions: [], results: [] }
      const refused = denied(url, empty)
      if (refused) return refused
      const location = parseLocation(url.searchParams.get('location'))
      const radius = Number(url.searchParams.get('radius'))
      if (!location || !(radius > 0 && radius <= 50_000)) return invalid(empty)
      const keyword = url.searchParams.get('keyword')?.toLowerCase()
      const results = GOOGLE_VENUES.filter(
        (v) =>
          distanceMeters(location, v.geometry.location) <= radius &&
          (!keyword || v.name.toLowerCase().includes(keyword) || v.types.some((t) => t.includes(keyword))),
      ).map(({ formatted_address: _omitted, ...venue }) => venue)
      return HttpResponse.json({ ...empty, results, status: results.length ? 'OK' : 'ZERO_RESULTS' })
    }),

    http.get(`${base}/place/textsearch/json`, ({ request }) => {
      const url = new URL(request.url)
      const empty = { html_attributions: [], results: [] }
      const refused = denied(url, empty)
      if (refused) return refused
      const query = url.searchParams.get('query')?.toLowerCase()
      if (!query) return invalid(empty)
      const location = parseLocation(url.searchParams.get('location'))
      const radius = Number(url.searchParams.get('radius') || 50_000)
      const results = GOOGLE_VENUES.filter(
        (v) =>
          query.split(/\s+/).some((word) => v.name.toLowerCase().includes(word)) &&
          (!location || distanceMeters(location, v.geometry.location) <= radius),
      ).map(({ vicinity: _omitted, ...venue }) => venue)
      return HttpResponse.json({ ...empty, results, status: results.length ? 'OK' : 'ZERO_RESULTS' })
    }),

    http.get(`${base}/timezone/json`, ({ request }) => {
      const url = new URL(request.url)
      const refused = denied(url, {})
      if (refused) return refused
      const location = parseLocation(url.searchParams.get('location'))
      if (!location || !url.searchParams.get('timestamp')) return invalid({})
      const city = GOOGLE_CITIES.find((c) => distanceMeters(location, c) < 100_000)
      if (!city) return HttpResponse.json({ status: 'ZERO_RESULTS' })
      return HttpResponse.json({
        dstOffset: city.dstOffset,
        rawOffset: city.rawOffset,
        status: 'OK',
        timeZoneId: city.timeZoneId,
        timeZoneName: city.timeZoneName,
      })
    }),
  ]
  return { handlers, requests }
}
