import { z } from 'zod'

/** A US city from the places API, for loaders (the browser uses place.ts, without zod). */
export const placeSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string(),
  label: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timeZone: z.string(),
  population: z.number().nullable().optional(),
})
export type { Place } from './place.ts'
export const placeList = z.object({ data: z.array(placeSchema) })
