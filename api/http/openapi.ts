import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { z } from 'zod'
import { errorBodySchema } from '#contract/common.ts'
import type { ApiEnv } from './context.ts'
import { parseJson, validate } from './request.ts'

/**
 * The API's routes and its OpenAPI document, made from the same definitions (decision 011):
 * each route is a `createRoute` of @hono/zod-openapi whose request and response schemas are the
 * contract's (`contract/*.ts`). `serve` registers the definition in the document and routes the
 * handler; the handler reads its input through `readQuery`/`readJson`, which validate with the
 * route's own schemas. So the document cannot describe another request than the one validated.
 *
 * The library's request validators (`app.openapi`) are not used: they validate before the
 * handler runs (an anonymous call with a bad body would answer 422 instead of 401), answer 415
 * to a JSON body without `application/json`, read a multipart body whole (the photo upload
 * limits its size while it streams), and answer their own error bodies instead of spec §8's.
 */
export type ApiRoutes = OpenAPIHono<ApiEnv>

export function createApiRoutes(): ApiRoutes {
  const routes = new OpenAPIHono<ApiEnv>()
  routes.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
  return routes
}

/** Who may call: members only (a bearer token), anyone (a token adds the caller's view), anyone. */
export const auth: Record<'required' | 'optional' | 'none', Array<Record<string, string[]>>> = {
  required: [{ bearer: [] }],
  optional: [{}, { bearer: [] }],
  none: [],
}

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503

const controlCharacters =
  'A control character (NUL, U+0001–U+001F, DEL or U+0080–U+009F; in a body field tab, line feed and carriage return are allowed) in a path parameter, a query parameter or a body field (code invalid_characters, `fields` naming each one)'

const retryAfterHeader = { description: 'Seconds to wait before trying again', schema: { type: 'integer' as const, minimum: 1 } }

/**
 * The error answers of a route, each with the §8 error body and what it means there. Every route
 * may answer 400 (a control character, decision 066) and 503 (database unavailable); a route that takes a bearer token answers 401 for a bad
 * one and 403 `user_suspended` for a suspended member, so those are added for non-public routes.
 */
export function errors(security: RouteConfig['security'], described: Partial<Record<ErrorStatus, string>> = {}) {
  const all: Partial<Record<ErrorStatus, string>> = { ...described }
  if (security?.length) {
    all[401] ??= security === auth.required ? 'No token, or an invalid one (code unauthorized)' : 'An invalid token (code unauthorized)'
    const suspended = 'a suspended or banned member (code user_suspended)'
    all[403] = all[403] ? `${all[403]}; or ${suspended}` : suspended.replace(/^a/, 'A')
  }
  // Every route: the API refuses control characters before any route reads the request (decision 066).
  all[400] = all[400] ? `${all[400]}; or ${controlCharacters.replace(/^A/, 'a')}` : controlCharacters
  all[503] ??= 'The database is unavailable; retry after the Retry-After header (code service_unavailable)'
  return Object.fromEntries(
    Object.entries(all).map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: errorBodySchema } },
        ...(status === '429' || status === '503' ? { headers: { 'Retry-After': retryAfterHeader } } : {}),
      },
    ]),
  )
}

/** The answers every route with a JSON body can give before its handler runs (readJson, the body limit). */
export const jsonBodyErrors = {
  400: 'The body is not JSON (code invalid_json)',
  413: 'A body over 100 KB (code payload_too_large)',
} as const

/** A JSON request body with its contract schema. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } }
}

/** A JSON answer with its contract schema. */
export function jsonContent<T extends z.ZodType>(description: string, schema: T) {
  return { description, content: { 'application/json': { schema } } }
}

/** Path parameters, all strings (ids or slugs; the services answer 404 for what they do not know). */
export function pathParams<const K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((name) => [name, z.string()])) as Record<K, z.ZodString>)
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
/** `/v1/experiences/{id}` → `/v1/experiences/:id`, so that handlers read typed path parameters. */
type HonoPath<T extends string> = T extends `${infer Start}/{${infer Param}}${infer Rest}` ? `${Start}/:${Param}${HonoPath<Rest>}` : T

/**
 * Documents `route` and serves it with `handler`. `honoPath` overrides the routing path when the
 * OpenAPI path cannot say it (a key with slashes: `/media/*`).
 */
export function serve<R extends RouteConfig>(
  routes: ApiRoutes,
  route: R,
  handler: (c: Context<ApiEnv, HonoPath<R['path']>>) => Response | Promise<Response>,
  options: { honoPath?: string } = {},
) {
  routes.openAPIRegistry.registerPath(route)
  const path = options.honoPath ?? route.path.replace(/\{(\w+)\}/g, ':$1')
  routes.on(route.method.toUpperCase() as Method, path, handler)
}

export type QuerySchema<R> = R extends { request: { query: infer Q extends z.ZodType } } ? Q : never
type JsonSchema<R> = R extends { request: { body: { content: { 'application/json': { schema: infer S extends z.ZodType } } } } }
  ? S
  : never

/** The schema of the route's query string. */
export function querySchemaOf<R extends RouteConfig>(route: R): QuerySchema<R> {
  const schema = route.request?.query
  if (!schema) throw new Error(`${route.method} ${route.path} declares no query`)
  return schema as unknown as QuerySchema<R>
}

/** The route's query string, validated with its schema (422 with field codes otherwise). */
export function readQuery<R extends RouteConfig>(c: Context<ApiEnv>, route: R): z.output<QuerySchema<R>> {
  return validate(querySchemaOf(route), c.req.query())
}

/** The route's JSON body, validated with its schema (400 invalid_json, 422 with field codes). */
export async function readJson<R extends RouteConfig>(c: Context<ApiEnv>, route: R): Promise<z.output<JsonSchema<R>>> {
  const content = route.request?.body?.content['application/json']
  const schema = content && 'schema' in content ? content.schema : undefined
  if (!(schema instanceof z.ZodType)) throw new Error(`${route.method} ${route.path} declares no JSON body`)
  return parseJson(c, schema as JsonSchema<R>)
}

/** The OpenAPI 3.1 document of `routes`, served from `serverUrl` (the API's base, `…/api`). */
export function openApiDocument(routes: ApiRoutes, serverUrl: string) {
  return routes.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Circle 55 API',
      version: '1.0.0',
      description:
        'The product API of spec §7. Errors answer `{ error: { code, message, fields? } }` (spec §8); paged lists answer `{ data, metadata: { page, total_pages, total_count } }`.',
    },
    servers: [{ url: serverUrl }],
  })
}
