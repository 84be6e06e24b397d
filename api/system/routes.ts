import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { pingDatabase } from '../db/database.ts'
import { retryAfterSeconds, unavailable } from '../http/errors.ts'
import { auth, errors, jsonContent, openApiDocument, serve, type ApiRoutes } from '../http/openapi.ts'

/** The API's own routes: its health and its OpenAPI document. */
export function systemRoutes(routes: ApiRoutes) {
  const tags = ['system']

  const healthRoute = createRoute({
    method: 'get',
    path: '/health',
    tags,
    security: auth.optional,
    summary: 'Whether the API and its database answer (the database within a couple of seconds).',
    responses: {
      200: jsonContent('Up', z.object({ status: z.literal('ok') })),
      ...errors(auth.optional),
    },
  })
  serve(routes, healthRoute, async (c) => {
    // 'ok' only when the database really answered, within a couple of seconds.
    if (await pingDatabase(c.var.services.db)) return c.json({ status: 'ok' })
    c.header('retry-after', retryAfterSeconds)
    return c.json(unavailable, 503)
  })

  // Made on first request: generating it costs more than any request should.
  let document: ReturnType<typeof openApiDocument> | undefined
  const documentRoute = createRoute({
    method: 'get',
    path: '/openapi.json',
    tags,
    security: auth.optional,
    summary: 'This document (OpenAPI 3.1), generated from the contract’s schemas that the API validates with.',
    responses: {
      200: jsonContent('The OpenAPI document', z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) })),
      ...errors(auth.optional),
    },
  })
  serve(routes, documentRoute, (c) => {
    document ??= openApiDocument(routes, `${c.var.services.env.PUBLIC_URL}/api`)
    return c.json(document)
  })
}
