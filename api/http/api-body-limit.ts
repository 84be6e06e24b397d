import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ApiEnv } from './context.ts'
import { ApiProblem } from './errors.ts'

/** JSON bodies: far more than any call of the API needs (docs/decisions/009). */
export const API_BODY_LIMIT = 100 * 1024

/** Photo uploads, which stream and limit their own bodies (media, identity verification). */
const ownLimits = new Set(['/api/v1/medias', '/api/v1/verification/initiate'])

/**
 * The API's limit (in-process, mounted under /api and alone): hono's bodyLimit refuses a
 * declared Content-Length over the limit without reading and counts a chunked body as it
 * arrives, answering 413 `payload_too_large` (§8 error shape). The photo upload streams and
 * limits its own body at 15 MB (api/media/routes.ts), so it is not read twice.
 */
export function limitApiBodies(): MiddlewareHandler<ApiEnv> {
  const limit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: (context) => {
      const c = context as Context<ApiEnv>
      c.var.services.logger.warn(
        { requestId: c.var.requestId, method: c.req.method, path: c.req.path, limit: API_BODY_LIMIT },
        'Request body over the limit refused',
      )
      throw new ApiProblem(
        413,
        'payload_too_large',
        `The request body is larger than ${API_BODY_LIMIT / 1024} KB.`,
      )
    },
  })
  return async (c, next) => {
    if (hasOwnBodyLimit(c.req.method, c.req.path)) return next()
    return limit(c, next)
  }
}

/** Whether the route streams and limits its own body (a photo upload): nothing else may read it first. */
export function hasOwnBodyLimit(method: string, path: string) {
  return method === 'POST' && ownLimits.has(path)
}
