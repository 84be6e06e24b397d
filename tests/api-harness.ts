import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose'
import type { Kysely } from 'kysely'
import { expect } from 'vitest'
import { createApiApp, type ApiApp, type ApiServices } from '#api/app.ts'
import type { AfterCommit } from '#api/after-commit.ts'
import type { Database } from '#api/db/schema.ts'
import { parseEnv, type Env } from '#api/env.ts'
import { createTokenVerifier } from '#api/providers/identity/token-verifier.ts'
import { createBuiltinPlacesProvider } from '#api/providers/maps/builtin.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createLogger } from '#api/logger.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import type { DeliveryDeps } from '#api/notifications/delivery.ts'
import { createNotifier, type Notify } from '#api/notifications/service.ts'
import { createChatProvider } from '#api/providers.ts'
import { chatMirrorJob, createChatMirror, type ChatMirror } from '#api/chat/mirror.ts'
import type { ChatChange } from '#api/providers/chat/provider.ts'

export { createExperience, createMember, createUser, dobForAge } from './factories.ts'
import { createUser } from './factories.ts'

/**
 * The product API in-process against a real database: requests go straight to the Hono app's
 * `fetch`, and access tokens are signed with a key pair made for the test file, exactly as the
 * built-in identity provider would issue them.
 */
export interface ApiHarness {
  env: Env
  db: Kysely<Database>
  app: ApiApp
  issuer: string
  /** Jobs queued: by `notify` (deliveries) and by the chat mirror; the harness starts no job queue (api/runtime.test.ts does). */
  queuedJobs: QueuedJob[]
  /** Records chat changes for the chat vendor, as the services' own does (for tests that call a service directly). */
  chatMirror: ChatMirror
  /**
   * Works the chat mirror's queued jobs as the queue does at each commit, in order (done after
   * every request): one that fails stays queued and is tried again next time, as a retry would be.
   */
  workJobs: () => Promise<void>
  request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>
  /** The app's `fetch`, then the queued jobs worked (`workJobs`): what the web harness calls the API through. */
  fetch: (request: Request) => Promise<Response>
  /** An access token for `sub` (a user's `auth_subject`); `overrides` replace or add claims. */
  signToken: (
    sub: string,
    overrides?: JWTPayload,
    options?: { key?: CryptoKey; kid?: string },
  ) => Promise<string>
}

export interface RequestOptions {
  token?: string
  /** Sent as JSON; a string is sent as it is (to test malformed bodies). */
  body?: unknown
  headers?: Record<string, string>
}

export interface ApiResponse {
  status: number
  /** The parsed body, or null when the response has none or it is not JSON. */
  json: any
  headers: Headers
}

/**
 * An hourly cap's refusal (decision 073): `429 too_many_attempts`, its message and Retry-After
 * both saying to wait `minutes` (the seconds within that last minute: the test took some).
 */
export function expectWaitOf(refused: ApiResponse, minutes: number) {
  expect(refused.status).toBe(429)
  expect(refused.json.error).toEqual({ code: 'too_many_attempts', message: `Too many attempts. Please wait ${minutes} minutes and try again.` })
  const wait = Number(refused.headers.get('retry-after'))
  expect(wait).toBeGreaterThan((minutes - 1) * 60)
  expect(wait).toBeLessThanOrEqual(minutes * 60)
}

export const TEST_PUBLIC_URL = 'http://localhost:3999'
/** The code secret test harnesses sign unsubscribe links with. */
export const TEST_UNSUBSCRIBE_SECRET = 'a test code secret'

/**
 * What notification delivery needs in tests: the outbox mailer and a queue that records what it
 * was asked to send later (quiet hours), unless `overrides` bring real ones.
 */
export function testDeliveryDeps(db: Kysely<Database>, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps & { later: { name: string; data: unknown; startAfter?: Date | undefined }[] } {
  const later: { name: string; data: unknown; startAfter?: Date | undefined }[] = []
  return {
    db,
    mailer: createMailer({ db }),
    publicUrl: TEST_PUBLIC_URL,
    unsubscribeSecret: TEST_UNSUBSCRIBE_SECRET,
    queue: {
      async send(name, data, options) {
        later.push({ name, data, startAfter: options?.startAfter })
      },
    },
    later,
    ...overrides,
  }
}

export async function createApiHarness(
  db: Kysely<Database>,
  envOverrides: Record<string, string> = {},
  /** Services to use instead of the defaults (built-in places, local media in a temp dir). */
  extraServices: Partial<ApiServices> = {},
): Promise<ApiHarness> {
  const env = parseEnv({
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: 'silent',
    ...envOverrides,
  })
  const issuer = `${env.PUBLIC_URL}/oidc`
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const kid = 'test-key'
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  const verifyToken = createTokenVerifier({
    issuer,
    audience: env.API_AUDIENCE,
    localJwks: { keys: [jwk] },
  })
  const notifications = testNotifier(db)
  const chat = extraServices.chat ?? createChatProvider(env, db)
  const mirrorBacklog: ChatChange[] = []
  const jobs = extraServices.jobs ?? {
    async send(name, data) {
      for (const item of Array.isArray(data) ? data : [data]) {
        notifications.queuedJobs.push({ name, data: item as object })
        if (name === chatMirrorJob.name) mirrorBacklog.push(chatMirrorJob.payload.parse(item))
      }
    },
  }
  async function workJobs() {
    const failed: ChatChange[] = []
    for (const change of mirrorBacklog.splice(0)) await chat.apply(change).catch(() => failed.push(change))
    mirrorBacklog.unshift(...failed)
  }
  const chatMirror = createChatMirror({ chat, jobs })
  const app = createApiApp({
    notify: notifications.notify,
    chatMirror,
    places: createBuiltinPlacesProvider(db),
    media: createLocalStorage(await mkdtemp(join(tmpdir(), 'circle55-media-'))),
    mailer: createMailer({ db }),
    codeSecret: 'a test code secret',
    // Built-in unless the overrides set STREAM_API_KEY and STREAM_API_SECRET (decision 036).
    chat,
    jobs,
    ...extraServices,
    env,
    db,
    logger: extraServices.logger ?? createLogger(env),
    verifyToken,
  })

  async function signToken(
    sub: string,
    overrides: JWTPayload = {},
    options: { key?: CryptoKey; kid?: string } = {},
  ) {
    const now = Math.floor(Date.now() / 1000)
    const claims: JWTPayload = {
      iss: issuer,
      aud: env.API_AUDIENCE,
      sub,
      iat: now,
      exp: now + 10 * 60,
      jti: randomBytes(8).toString('hex'),
      scope: 'openid',
      ...overrides,
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid, typ: 'at+jwt' })
      .sign(options.key ?? privateKey)
  }

  async function fetch(request: Request) {
    const response = await app.fetch(request)
    await workJobs()
    return response
  }

  async function request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> {
    const headers = new Headers(options.headers)
    if (options.token !== undefined) headers.set('authorization', `Bearer ${options.token}`)
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const url = `${env.PUBLIC_URL}${apiPath(path)}`
    const response = await fetch(new Request(url, { method: method.toUpperCase(), headers, body }))
    const text = await response.text()
    let json: unknown = null
    if (text && /json/i.test(response.headers.get('content-type') ?? '')) json = JSON.parse(text)
    return { status: response.status, json, headers: response.headers }
  }

  return { env, db, app, issuer, request, fetch, signToken, queuedJobs: notifications.queuedJobs, chatMirror, workJobs }
}

export interface QueuedJob {
  name: string
  data: object
}

/**
 * `notify` as the runtime builds it, its rows in the real database, with a queue that only lists
 * the delivery jobs sent (the real queue, pg-boss, is tested in api/notifications/ and
 * api/runtime.test.ts).
 */
export function testNotifier(db: Kysely<Database>): { notify: Notify; queuedJobs: QueuedJob[] } {
  const queuedJobs: QueuedJob[] = []
  const notify = createNotifier({
    db,
    queue: {
      async send(name, data) {
        for (const item of Array.isArray(data) ? data : [data]) queuedJobs.push({ name, data: item as object })
      },
    },
  })
  return { notify, queuedJobs }
}

/** What follows a change (`AfterCommit`) with the built-in chat: notifications recorded, no chat vendor to copy to. */
export function builtinAfterCommit(db: Kysely<Database>): AfterCommit {
  return { notify: testNotifier(db).notify, chatMirror: createChatMirror({}) }
}

/** `v1/users/me`, `/v1/users/me` and `/api/v1/users/me` all mean the same route. */
function apiPath(path: string) {
  if (path === '/api' || path.startsWith('/api/')) return path
  return `/api/${path.replace(/^\/+/, '')}`
}


/**
 * A member made with `overrides`, signed in to `api`: their user row, token and `call(method,
 * path, body?, headers?)` with their token.
 */
export async function signedInMember(api: ApiHarness, overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(api.db, overrides)
  const token = await api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.request(method, path, { token, headers, ...(body === undefined ? {} : { body }) })
  return { user, token, call }
}
