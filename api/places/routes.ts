import { createRoute, type RouteConfig } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { z } from 'zod'
import { listOf, oneOf } from '#contract/common.ts'
import { nearestPlaceQuerySchema, placeSchema, placeSearchQuerySchema } from '#contract/places.ts'
import type { ApiEnv } from '../http/context.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { auth, errors, jsonContent, pathParams, querySchemaOf, serve, type ApiRoutes, type QuerySchema } from '../http/openapi.ts'
import type { PlacesProvider } from '../providers/maps/provider.ts'

function placesProvider(c: Context<ApiEnv>): PlacesProvider {
  return c.var.services.places
}

/** Query strings are the client's mistake: 400 with the offending fields (issue codes). */
function parseQuery<R extends RouteConfig>(c: Context<ApiEnv>, route: R): z.output<QuerySchema<R>> {
  const result = querySchemaOf(route).safeParse(c.req.query())
  if (result.success) return result.data
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) (fields[issue.path.join('.') || '_'] ??= []).push(issue.code)
  throw new ApiProblem(400, 'invalid_query', 'The query string is invalid.', fields)
}

export function placeRoutes(routes: ApiRoutes) {
  const tags = ['places']

  const searchRoute = createRoute({
    method: 'get',
    path: '/v1/places',
    tags,
    security: auth.optional,
    summary:
      'Search US cities by name ("portland", "Portland, OR", misspellings) or 5-digit ZIP, best match first; `latitude`/`longitude` favour nearby cities.',
    request: { query: placeSearchQuerySchema },
    responses: {
      200: jsonContent('The places found, best first', listOf(placeSchema)),
      ...errors(auth.optional, { 400: 'Missing or too short query, or invalid numbers (code invalid_query)' }),
    },
  })
  serve(routes, searchRoute, async (c) => {
    const input = parseQuery(c, searchRoute)
    const near =
      input.latitude !== undefined && input.longitude !== undefined
        ? { lat: input.latitude, lng: input.longitude }
        : undefined
    const data = await placesProvider(c).search(input.query, { limit: input.limit, near })
    return c.json({ data })
  })

  // Before /v1/places/:id so that "nearest" is not taken for an id.
  const nearestRoute = createRoute({
    method: 'get',
    path: '/v1/places/nearest',
    tags,
    security: auth.optional,
    summary: 'The city nearest to a point; `data` holds one item, or none far from any US city.',
    request: { query: nearestPlaceQuerySchema },
    responses: {
      200: jsonContent('The nearest city, if any', listOf(placeSchema)),
      ...errors(auth.optional, { 400: 'Missing or invalid coordinates (code invalid_query)' }),
    },
  })
  serve(routes, nearestRoute, async (c) => {
    const { latitude, longitude } = parseQuery(c, nearestRoute)
    const place = await placesProvider(c).nearestCity(latitude, longitude)
    return c.json({ data: place ? [place] : [] })
  })

  const placeRoute = createRoute({
    method: 'get',
    path: '/v1/places/{id}',
    tags,
    security: auth.optional,
    summary: 'One place by id (`us-or-portland`, `zip-97201`, or a Google place id); `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The place', oneOf(placeSchema)),
      ...errors(auth.optional, { 404: 'No such place (code not_found)' }),
    },
  })
  serve(routes, placeRoute, async (c) => {
    const id = c.req.param('id')
    // No place id runs on for pages (control characters are refused before any route, decision 066).
    const place = id.length <= 300 ? await placesProvider(c).details(id) : null
    if (!place) throw problems.notFound('Place not found')
    return c.json({ data: [place] })
  })
}
