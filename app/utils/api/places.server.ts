import { listOf } from '#contract/common.ts'
import { placeSchema, type Place } from '#contract/places.ts'
import type { ApiTransport } from '../api.server.ts'

/** US cities (spec §7 places): the only code that knows their paths. */
export function placesClient(api: ApiTransport) {
  return {
    search: async (query: string, limit: number): Promise<Place[]> =>
      (await api.json('GET', 'v1/places', listOf(placeSchema), { query: { query, limit } })).data,
    get: (id: string): Promise<Place> => api.one('GET', `v1/places/${encodeURIComponent(id)}`, placeSchema),
    /** The city nearest to a point, or null when none is near. */
    nearest: async (point: { latitude: number; longitude: number }): Promise<Place | null> =>
      (await api.json('GET', 'v1/places/nearest', listOf(placeSchema), { query: point })).data[0] ?? null,
  }
}
