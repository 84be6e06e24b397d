import { z } from 'zod'
import { queryDecimal, queryInteger } from './input-validation.ts'
import { maxPlaceResults, minPlaceQueryLength } from './limits.ts'

/** US cities and ZIP codes (`v1/places`, spec §5 "place search is limited to US cities"). */

export const placeSchema = z
  .object({
    id: z.string().meta({ description: '`us-or-portland`, `zip-97201`, or a Google place id.' }),
    name: z.string(),
    state: z.string(),
    label: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    timeZone: z.string(),
    population: z.number().int().nullable(),
  })
  .meta({ id: 'Place' })
export type Place = z.infer<typeof placeSchema>

// Numbers in plain decimal only: `Number()` would read `0x10` as 16 and '' as 0.
export const latitude = queryDecimal('latitude_invalid', (degrees) => degrees.min(-90).max(90)).meta({ type: 'number', minimum: -90, maximum: 90 })
export const longitude = queryDecimal('longitude_invalid', (degrees) => degrees.min(-180).max(180)).meta({ type: 'number', minimum: -180, maximum: 180 })

/** `GET v1/places`: a search by name or ZIP; `latitude`/`longitude` favour nearby cities. */
export const placeSearchQuerySchema = z.object({
  // Control characters are harmless here: the search folds the name to letters and digits.
  query: z.string().trim().min(minPlaceQueryLength).max(100),
  limit: queryInteger('limit_invalid', (limit) => limit.min(1).max(maxPlaceResults))
    .optional()
    .meta({ type: 'integer', minimum: 1, maximum: maxPlaceResults }),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
})

/** `GET v1/places/nearest`. */
export const nearestPlaceQuerySchema = z.object({ latitude, longitude })
