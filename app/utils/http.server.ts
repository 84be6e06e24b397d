import { data } from '@remix-run/node'
import { ApiError } from './api.server.ts'

/**
 * API failures that a loader cannot recover from become the right error page, in one place:
 * 404 and 403 keep their status, the API being down becomes a 503, the rest a 500.
 */
export function notFoundOnMissing(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) throw data(null, { status: error.status })
  return unavailableOnServerError(error)
}

/** A call the page needs: the API being down (any 5xx) becomes the 503 page, the rest a 500. */
export function unavailableOnServerError(error: unknown): never {
  if (error instanceof ApiError && error.status >= 500) throw data(null, { status: 503 })
  throw error
}

/**
 * A call the page can do without (a guess, a banner): its failure is ignored, except the API
 * saying it is unavailable. Then the page's next call would only wait out the same database
 * timeouts again, so the 503 page comes at once.
 */
export function ignoreUnlessUnavailable(error: unknown): null {
  if (error instanceof ApiError && error.status === 503) throw data(null, { status: 503 })
  return null
}
