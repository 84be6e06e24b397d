import { data } from '@remix-run/node'
import { ApiError } from './api.server.ts'

/**
 * API errors → what the member sees, in one place (decision 015): field errors and form-level
 * messages for a form (`formErrorsFromApi`), and error pages (spec §8) for what a page cannot
 * recover from (`notFoundOnMissing`, `unavailableOnServerError`, `ignoreUnlessUnavailable`).
 */

/**
 * The error page for an API failure: 401, 403 and 404 keep their status, the API being down
 * (any 5xx) becomes a 503, anything else (a Parse Error, a request the web app got wrong) is
 * thrown as it is, a 500 that error reporting sees.
 */
export function notFoundOnMissing(error: unknown): never {
  refusedWhileViewing(error)
  if (error instanceof ApiError && (error.status === 401 || error.status === 404 || error.status === 403)) {
    throw data(null, { status: error.status })
  }
  return unavailableOnServerError(error)
}

/**
 * A call the page needs: the API being down (any 5xx) becomes the 503 page, a value the API refused
 * for its control characters (decision 066: the host refuses them in every page address first, so
 * this is one from elsewhere, a cookie) the 400 page, the rest a 500.
 */
export function unavailableOnServerError(error: unknown): never {
  refusedWhileViewing(error)
  if (error instanceof ApiError && error.status >= 500) throw data(null, { status: 503 })
  if (error instanceof ApiError && error.status === 400 && error.code === 'invalid_characters') throw data(null, { status: 400 })
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

/**
 * The whole minutes a refusal for too many says to wait, for "Please try again in {{count}}
 * minutes": its Retry-After rounded up, an hour when it says nothing (the hourly caps).
 */
export function minutesToWait(error: ApiError) {
  return Math.max(1, Math.ceil((error.retryAfterSeconds ?? 3600) / 60))
}

/**
 * How a form reads the API's field errors. A field is looked up by its full name, then by the
 * name before the first dot: an error on `emails.3` (one address) belongs to the `emails` field.
 */
export interface ApiErrorMapping {
  /** The form's name of an API field (`first_name` → `firstName`); others keep the API's name. */
  fields?: Record<string, string>
  /** The messages for one API field's codes, where the default (`prefix` + code) does not fit. */
  messages?: Record<string, (codes: string[]) => string[]>
  /** The translation key prefix of a field code (`validation.` unless given). */
  prefix?: string
  /** The form-level message of a conflict (409), by the API's error code. */
  conflict?: (code: string | null) => string
  /** The form-level message of a refusal for too many (429), by the API's error code. */
  tooMany?: (code: string | null) => string | undefined
  /** The form-level message of a 503 that is not an outage: an email or a text that could not go out, by its code. */
  notDelivered?: Record<string, string>
}

/** What a form shows for a refused call: conform's `submission.reply(…)` options and the status. */
export interface FormErrors {
  status: 400 | 403 | 409 | 429 | 503
  fieldErrors: Record<string, string[]>
  formErrors: string[]
}

/**
 * A refused write as form errors: a 400 or 422 with field codes → field errors (translation
 * keys), a 409 → the form-level conflict message, a 429 → "too many attempts", a 503 the mapping
 * names (`notDelivered`: the code was not sent) → its form-level message. Anything else is
 * thrown as its error page (`notFoundOnMissing`): 401, 403, 404, the API down (503, which
 * `keepFormOnOutage` turns back into the form with what the member typed), and any other
 * failure as a 500.
 */
export function formErrorsFromApi(error: unknown, mapping: ApiErrorMapping = {}): FormErrors {
  if (error instanceof ApiError) {
    if ((error.status === 400 || error.status === 422) && Object.keys(error.fields).length > 0) {
      const prefix = mapping.prefix ?? 'validation.'
      const fieldErrors: Record<string, string[]> = {}
      for (const [field, codes] of Object.entries(error.fields)) {
        const top = field.split('.')[0] ?? field
        const name = mapping.fields?.[field] ?? mapping.fields?.[top] ?? top
        const messages = (mapping.messages?.[field] ?? mapping.messages?.[top])?.(codes) ?? codes.map((code) => `${prefix}${code}`)
        fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages]
      }
      return { status: 400, fieldErrors, formErrors: [] }
    }
    // Viewing Circle 55 as a member refuses what the member alone may do (decision 078).
    if (error.status === 403 && error.code === 'impersonation_refused') return { status: 403, fieldErrors: {}, formErrors: ['common:impersonation.refused'] }
    if (error.status === 409) {
      return { status: 409, fieldErrors: {}, formErrors: [mapping.conflict?.(error.code) ?? 'common:errors.conflict'] }
    }
    if (error.status === 429) return { status: 429, fieldErrors: {}, formErrors: [mapping.tooMany?.(error.code) ?? 'common:errors.tooManyRequests'] }
    const notDelivered = error.status === 503 && error.code ? mapping.notDelivered?.[error.code] : undefined
    if (notDelivered) return { status: 503, fieldErrors: {}, formErrors: [notDelivered] }
  }
  return notFoundOnMissing(error)
}

/**
 * A change the API refused because it is the member's alone while the team views Circle 55 as
 * them (decision 078): the 403 page saying so, under the banner, never the 500 page.
 */
export function refusedWhileViewing(error: unknown) {
  if (error instanceof ApiError && error.status === 403 && error.code === 'impersonation_refused') {
    throw data({ code: 'impersonation_refused' }, { status: 403 })
  }
}
