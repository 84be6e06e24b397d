import { z } from 'zod'
import { impersonationHeader } from '#contract/staff.ts'
import { errorBodySchema, oneOf } from '#contract/common.ts'
import type { Language } from './i18n.ts'

/**
 * A failed API call as spec §8 names it: the status, its message (`Unauthorized`, `Conflict`,
 * `Parse Error`…), the API's error code and its field errors (decision 015).
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | null
  readonly fields: Record<string, string[]>
  /** A 429's Retry-After, in seconds: how long until the limit lets the member through again. */
  readonly retryAfterSeconds: number | null

  constructor(status: number, message: string, code: string | null = null, fields: Record<string, string[]> = {}, retryAfterSeconds: number | null = null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A Retry-After in seconds (the API sends no dates); null when absent or not a number. */
function secondsOf(header: string | null) {
  const seconds = Number(header)
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds : null
}

/** Spec §8: the message for a failed status. */
export function messageForStatus(status: number) {
  if (status === 401) return 'Unauthorized'
  if (status === 409) return 'Conflict'
  if (status === 502) return 'Bad Gateway'
  return `Request failed with status ${status}`
}

export type Query = Record<string, string | number | boolean | null | undefined>

interface SendOptions {
  query?: Query
  body?: unknown
  formData?: FormData
  /** Overrides the member's token (for example right after sign-in). */
  token?: string | null
  /** Headers of the call itself (a stream's `Last-Event-ID`). */
  headers?: Record<string, string>
  /** Ends the call (and a stream's body) when the browser goes away. */
  signal?: AbortSignal
}

export const readRetries = 2

/** Spec §8's error body, read so that a code this web app does not know yet still comes through. */
const errorBody = z.object({ error: errorBodySchema.shape.error.extend({ code: z.string() }) })

/**
 * The HTTP layer under the resource clients (`app/utils/api/*.server.ts`): bearer token, JSON
 * bodies (multipart for media), reads retried twice, the §8 error table. It knows no paths and
 * returns nothing unchecked: `json` parses with the contract's schema, `empty` expects 204,
 * `text` is for the calendar and CSV files, `bytes` for photos, `stream` for the live chat's
 * events (passed on as they are). Only the resource clients call it.
 */
export function createApiTransport(options: {
  apiFetch: (request: Request) => Promise<Response>
  baseUrl: string
  getToken: () => Promise<string | null>
  /** Read when each call is sent: the language may be settled after the client is made. */
  language: () => Language
  requestId: string
  /** The impersonation this session is under (decision 078), sent with every call; none by default. */
  impersonation?: () => Promise<string | null>
  /** The browser's privacy signals (`sec-gpc`, `dnt`), passed on so the API honours them too (decision 081). */
  privacyHeaders?: Record<string, string>
}) {
  function urlFor(path: string, query: Query = {}) {
    const url = new URL(path.replace(/^\//, ''), options.baseUrl)
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
    }
    return url
  }

  async function send(method: string, path: string, opts: SendOptions, accept: string) {
    const url = urlFor(path, opts.query)
    const token = opts.token === undefined ? await options.getToken() : opts.token
    const headers = new Headers({
      accept,
      'accept-language': options.language(),
      'x-request-id': options.requestId,
    })
    if (token) headers.set('authorization', `Bearer ${token}`)
    for (const [name, value] of Object.entries(options.privacyHeaders ?? {})) headers.set(name, value)
    const impersonation = token ? await options.impersonation?.() : null
    if (impersonation) headers.set(impersonationHeader, impersonation)
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers.set(name, value)
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
        response = await options.apiFetch(new Request(url, { method, headers, body, signal: opts.signal }))
        // A 503 with Retry-After already waited out the database's timeouts: retrying at once
        // would only make the member wait that long again.
        if (response.status < 500 || attempt === attempts || (response.status === 503 && response.headers.has('retry-after'))) break
      } catch (error) {
        if (attempt === attempts) throw new ApiError(503, messageForStatus(503), 'network_error')
        void error
      }
    }
    if (!response) throw new ApiError(503, messageForStatus(503), 'network_error')
    if (!response.ok) {
      const parsed = errorBody.safeParse(await readJson(response).catch(() => undefined))
      throw new ApiError(
        response.status,
        messageForStatus(response.status),
        parsed.success ? parsed.data.error.code : null,
        parsed.success ? (parsed.data.error.fields ?? {}) : {},
        secondsOf(response.headers.get('retry-after')),
      )
    }
    return response
  }

  /** A call answered with JSON: the body checked with the contract's `schema`, or Parse Error. */
  async function json<T extends z.ZodType>(method: string, path: string, schema: T, opts: SendOptions = {}): Promise<z.infer<T>> {
    const response = await send(method, path, opts, 'application/json')
    const checked = schema.safeParse(await readJson(response))
    if (!checked.success) throw parseError(response.status)
    return checked.data
  }

  /** A call answered with 204 (§8: returns no data); any other answer does not match the contract. */
  async function empty(method: string, path: string, opts: SendOptions = {}): Promise<void> {
    const response = await send(method, path, opts, 'application/json')
    if (response.status !== 204) throw parseError(response.status)
  }

  /** A one-item answer (`{ data: [item] }`, spec §7): the item, checked with the contract's `item` schema. */
  async function one<T extends z.ZodType>(method: string, path: string, item: T, opts: SendOptions = {}): Promise<z.infer<T>> {
    const [value] = (await json(method, path, oneOf(item), opts)).data
    // Parsed already; the tuple's type only loses track of `T` being required.
    return value as z.infer<T>
  }

  /** A read whose body is a file (calendar, CSV) of the given media type. */
  async function text(path: string, mediaType: string, query: Query = {}): Promise<string> {
    const response = await send('GET', path, { query }, mediaType)
    if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith(mediaType)) throw parseError(response.status)
    return response.text()
  }

  /** A read whose body is a binary file (a photo) of the given media type. */
  async function bytes(path: string, mediaType: string): Promise<Uint8Array> {
    const response = await send('GET', path, {}, mediaType)
    if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith(mediaType)) throw parseError(response.status)
    return new Uint8Array(await response.arrayBuffer())
  }

  /**
   * A read answered with Server-Sent Events: the open response, its body not read, for the web
   * tier to pass on to the browser (decision 032). `signal` ends it when the browser goes away.
   */
  async function stream(path: string, opts: Pick<SendOptions, 'query' | 'headers' | 'signal'> = {}): Promise<Response> {
    const response = await send('GET', path, opts, 'text/event-stream')
    if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')) {
      await response.body?.cancel()
      throw parseError(response.status)
    }
    return response
  }

  return { json, one, empty, text, bytes, stream }
}
export type ApiTransport = ReturnType<typeof createApiTransport>

/** The body as JSON; undefined when empty; Parse Error (§8) when it is not JSON. */
async function readJson(response: Response): Promise<unknown> {
  const body = await response.text()
  try {
    return body ? (JSON.parse(body) as unknown) : undefined
  } catch {
    throw parseError(response.status)
  }
}

function parseError(status: number) {
  return new ApiError(status, 'Parse Error', 'parse_error')
}
