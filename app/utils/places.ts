import { z } from 'zod'

/** A US city from the places API (built-in gazetteer or Google). */
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
export type Place = z.infer<typeof placeSchema>
export const placeList = z.object({ data: z.array(placeSchema) })
