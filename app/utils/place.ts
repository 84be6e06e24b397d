/** A US city from the places API (built-in gazetteer or Google), for the browser; the schema is contract/places.ts. */
export interface Place {
  id: string
  name: string
  state: string
  label: string
  latitude: number
  longitude: number
  timeZone: string
  population?: number | null | undefined
}

/**
 * The places of a `v1/places` answer, for the browser: the fields the city search shows, checked
 * by hand so that zod stays out of the browser bundle. Anything malformed is left out.
 */
export function placesFromJson(json: unknown): Place[] {
  const data = (json as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return []
  return data.filter((item): item is Place => {
    const place = item as Partial<Record<keyof Place, unknown>> | null
    return (
      typeof place?.id === 'string' &&
      typeof place.label === 'string' &&
      typeof place.name === 'string' &&
      typeof place.state === 'string' &&
      typeof place.latitude === 'number' &&
      typeof place.longitude === 'number' &&
      typeof place.timeZone === 'string'
    )
  })
}
