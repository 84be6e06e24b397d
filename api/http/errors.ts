/**
 * The API's error envelope: `{ error: { code, message, fields? } }` with the HTTP status of
 * spec §8. Services throw `ApiProblem`; the HTTP layer turns it into a response.
 */
export class ApiProblem extends Error {
  readonly status: number
  readonly code: string
  readonly fields: Record<string, string[]> | undefined
  /** For a 429: seconds until the limit lets the client through again, sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined

  constructor(status: number, code: string, message: string, fields?: Record<string, string[]>, retryAfterSeconds?: number) {
    super(message)
    this.status = status
    this.code = code
    this.fields = fields
    this.retryAfterSeconds = retryAfterSeconds
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } }
  }
}

/** The wait a Retry-After of `seconds` means, rounded up: "1 minute", "15 minutes", "an hour", "2 hours". */
export function waitFor(seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`
  const hours = Math.ceil(minutes / 60)
  return hours === 1 ? 'an hour' : `${hours} hours`
}

export const problems = {
  unauthorized: () => new ApiProblem(401, 'unauthorized', 'Unauthorized'),
  forbidden: (message = 'Forbidden') => new ApiProblem(403, 'forbidden', message),
  suspended: () => new ApiProblem(403, 'user_suspended', 'Your account has been suspended.'),
  notFound: (what = 'Not found') => new ApiProblem(404, 'not_found', what),
  conflict: (code: string, message: string) => new ApiProblem(409, code, message),
  /** A limit reached; `retryAfterSeconds` says when it lets the client through again (Retry-After). */
  tooMany: (code: string, message: string, retryAfterSeconds?: number) => new ApiProblem(429, code, message, undefined, retryAfterSeconds),
  /** A limit on attempts reached (a code's 15-minute windows, the hourly caps on card setups, checkouts and plan starts); the message says how long to wait. */
  tooManyAttempts: (retryAfterSeconds: number) =>
    new ApiProblem(429, 'too_many_attempts', `Too many attempts. Please wait ${waitFor(retryAfterSeconds)} and try again.`, undefined, retryAfterSeconds),
  invalid: (fields: Record<string, string[]>) =>
    new ApiProblem(422, 'invalid_input', 'The request has invalid fields.', fields),
}

/** The database is unavailable (spec §8's error body, 503): clients retry after `retryAfterSeconds`. */
export const unavailable = { error: { code: 'service_unavailable', message: 'The service is temporarily unavailable.' } } as const
export const retryAfterSeconds = '30'
