import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { ApiEnv } from '../app.ts'
import { hasControlCharacters, queryDecimal, queryInteger } from '#contract/input-validation.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import type { OpenApiRegistry } from '../http/openapi.ts'
import { MAX_LIMIT, MIN_QUERY_LENGTH, type PlacesProvider } from '../providers/maps/provider.ts'

function placesProvider(c: Context<ApiEnv>): PlacesProvider {
  return c.var.services.places
}

const placeSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string(),
  label: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timeZone: z.string(),
  population: z.number().int().nullable(),
})
const placeList = z.object({ data: z.array(placeSchema) })

// Numbers in plain decimal only: `Number()` would read `0x10` as 16 and '' as 0.
const latitude = queryDecimal('latitude_invalid', (degrees) => degrees.min(-90).max(90))
const longitude = queryDecimal('longitude_invalid', (degrees) => degrees.min(-180).max(180))
const searchQuery = z.object({
  // Control characters are harmless here: the search folds the name to letters and digits.
  query: z.string().trim().min(MIN_QUERY_LENGTH).max(100),
  limit: queryInteger('limit_invalid', (limit) => limit.min(1).max(MAX_LIMIT)).optional(),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
})
const nearestQuery = z.object({ latitude, longitude })

/** Query strings are the client's mistake: 400 with the offending fields. */
function parseQuery<T extends z.ZodType>(c: Context<ApiEnv>, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.query())
  if (result.success) return result.data
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) (fields[issue.path.join('.') || '_'] ??= []).push(issue.code)
  throw new ApiProblem(400, 'invalid_query', 'The query string is invalid.', fields)
}

export function placeRoutes(app: Hono<ApiEnv>, registry: OpenApiRegistry) {
  registry.add({
    method: 'get',
    path: '/v1/places',
    tag: 'places',
    auth: 'optional',
    summary:
      'Search US cities by name ("portland", "Portland, OR", misspellings) or 5-digit ZIP, best match first; `latitude`/`longitude` favour nearby cities.',
    query: searchQuery,
    response: placeList,
    errors: { 400: 'Missing or too short query (code invalid_query)' },
  })
  app.get('/v1/places', async (c) => {
    const input = parseQuery(c, searchQuery)
    const near =
      input.latitude !== undefined && input.longitude !== undefined
        ? { lat: input.latitude, lng: input.longitude }
        : undefined
    const data = await placesProvider(c).search(input.query, { limit: input.limit, near })
    return c.json({ data })
  })

  // Before /v1/places/:id so that "nearest" is not taken for an id.
  registry.add({
    method: 'get',
    path: '/v1/places/nearest',
    tag: 'places',
    auth: 'optional',
    summary: 'The city nearest to a point; `data` holds one item, or none far from any US city.',
    query: nearestQuery,
    response: placeList,
    errors: { 400: 'Missing or invalid coordinates (code invalid_query)' },
  })
  app.get('/v1/places/nearest', async (c) => {
    const { latitude, longitude } = parseQuery(c, nearestQuery)
    const place = await placesProvider(c).nearestCity(latitude, longitude)
    return c.json({ data: place ? [place] : [] })
  })

  registry.add({
    method: 'get',
    path: '/v1/places/{id}',
    tag: 'places',
    auth: 'optional',
    summary: 'One place by id (`us-or-portland`, `zip-97201`, or a Google place id); `data` holds one item.',
    response: placeList,
    errors: { 404: 'No such place' },
  })
  app.get('/v1/places/:id', async (c) => {
    const id = c.req.param('id')
    // A NUL byte would make the lookup fail (500); no place id holds a control character.
    const place = id.length <= 300 && !hasControlCharacters(id) ? await placesProvider(c).details(id) : null
    if (!place) throw problems.notFound('Place not found')
    return c.json({ data: [place] })
  })
}
