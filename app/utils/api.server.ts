import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import type { Language } from './i18n.ts'

/**
 * The one typed client for the product API (spec §7 and §8). Every loader and action goes
 * through it: bearer token, JSON bodies (multipart for media), reads retried twice, responses
 * checked with zod, and the §8 error table applied in one place.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | null
  readonly fields: Record<string, string[]>

  constructor(status: number, message: string, code: string | null = null, fields: Record<string, string[]> = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
  }
}

/** Spec §8: the message for a failed status. */
export function messageForStatus(status: number) {
  if (status === 401) return 'Unauthorized'
  if (status === 409) return 'Conflict'
  if (status === 502) return 'Bad Gateway'
  return `Request failed with status ${status}`
}

const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
})

type Query = Record<string, string | number | boolean | null | undefined>

interface RequestOptions<T extends z.ZodType> {
  query?: Query
  body?: unknown
  formData?: FormData
  schema?: T
  /** Overrides the member's token (for example right after sign-in). */
  token?: string | null
}

export const readRetries = 2

export function createApiClient(options: {
  apiFetch: (request: Request) => Promise<Response>
  baseUrl: string
  getToken: () => Promise<string | null>
  language: Language
  requestId: string
}) {
  async function send<T extends z.ZodType>(method: string, path: string, opts: RequestOptions<T> = {}) {
    const url = new URL(path.replace(/^\//, ''), options.baseUrl)
    for (const [key, value] of Object.entries(opts.query ?? {})) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
    }
    const token = opts.token === undefined ? await options.getToken() : opts.token
    const headers = new Headers({
      accept: 'application/json',
      'accept-language': options.language,
      'x-request-id': options.requestId,
    })
    if (token) headers.set('authorization', `Bearer ${token}`)
    let body: BodyInit | undefined
    if (opts.formData) body = opts.formData
    else if (opts.body !== undefined) {
      headers.set('content-type', 'application/json')
      body = JSON.stringify(opts.body)
    }

    const attempts = method === 'GET' ? readRetries + 1 : 1
    let response: Response | undefined
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        response = await options.apiFetch(new Request(url, { method, headers, body }))
        // A 503 with Retry-After already waited out the database's timeouts: retrying at once
        // would only make the member wait that long again.
        if (response.status < 500 || attempt === attempts || (response.status === 503 && response.headers.has('retry-after'))) break
      } catch (error) {
        if (attempt === attempts) throw new ApiError(503, messageForStatus(503), 'network_error')
        void error
      }
    }
    if (!response) throw new ApiError(503, messageForStatus(503), 'network_error')
    if (response.status === 204) return undefined as z.infer<T>

    const text = await response.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      throw new ApiError(response.status, 'Parse Error', 'parse_error')
    }
    if (!response.ok) {
      const parsed = errorBody.safeParse(json)
      throw new ApiError(
        response.status,
        messageForStatus(response.status),
        parsed.success ? parsed.data.error.code : null,
        parsed.success ? (parsed.data.error.fields ?? {}) : {},
      )
    }
    if (!opts.schema) return json as z.infer<T>
    const checked = opts.schema.safeParse(json)
    if (!checked.success) throw new ApiError(response.status, 'Parse Error', 'parse_error')
    return checked.data
  }

  /** A read whose body is not JSON (calendar files, CSV): the raw response, or the §8 error. */
  async function raw(path: string, query: Query = {}) {
    const url = new URL(path.replace(/^\//, ''), options.baseUrl)
    for (const [key, value] of Object.entries(query)) if (value != null && value !== '') url.searchParams.set(key, String(value))
    const token = await options.getToken()
    const headers = new Headers({ 'accept-language': options.language, 'x-request-id': options.requestId })
    if (token) headers.set('authorization', `Bearer ${token}`)
    const response = await options.apiFetch(new Request(url, { headers }))
    if (!response.ok) throw new ApiError(response.status, messageForStatus(response.status))
    return response
  }

  return {
    raw,
    get: <T extends z.ZodType>(path: string, opts?: RequestOptions<T>) => send('GET', path, opts),
    post: <T extends z.ZodType>(path: string, opts?: RequestOptions<T>) => send('POST', path, opts),
    put: <T extends z.ZodType>(path: string, opts?: RequestOptions<T>) => send('PUT', path, opts),
    delete: <T extends z.ZodType>(path: string, opts?: RequestOptions<T>) => send('DELETE', path, opts),
  }
}
export type ApiClient = ReturnType<typeof createApiClient>

/** Paged list envelope of spec §7. */
const pageMetadata = z.object({ page: z.number(), total_pages: z.number(), total_count: z.number().optional() })
const pageSchemas = new WeakMap<z.ZodType, z.ZodType>()

/**
 * The schema of a paged list of `item`. Made once per item schema: zod compiles a schema on its
 * first use, which costs far more than parsing with it, so schemas must not be made per request.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  const make = () => z.object({ data: z.array(item), metadata: pageMetadata })
  let schema = pageSchemas.get(item) as ReturnType<typeof make> | undefined
  if (!schema) {
    schema = make()
    pageSchemas.set(item, schema)
  }
  return schema
}

/** The schema of a one-item list (`{ data: [item] }`), made once per item schema. */
export function listOf<T extends z.ZodType>(item: T) {
  const make = () => z.object({ data: z.array(item) })
  let schema = listSchemas.get(item) as ReturnType<typeof make> | undefined
  if (!schema) {
    schema = make()
    listSchemas.set(item, schema)
  }
  return schema
}
const listSchemas = new WeakMap<z.ZodType, z.ZodType>()

export function contextLanguage(context: AppLoadContext): Language {
  return (context.cache.get('language') as Language | undefined) ?? 'en'
}
