import { createServer } from 'node:net'
import type { AppLoadContext } from '@remix-run/node'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '#api/db/schema.ts'
import { createSessionStore } from '#api/web-sessions.ts'
import { accessTokenCacheMs } from '#app/utils/auth.server.ts'
import type { RequestContext, WebServices } from '#app/utils/load-context.ts'
import { getSessionStorage } from '#app/utils/session.server.ts'
import { createApiHarness, TEST_PUBLIC_URL, type ApiHarness } from './api-harness.ts'
import type { TestDatabase } from './db.ts'

/**
 * The web app's loaders and actions called directly, with the load context the host would
 * build: the real API in-process (the API harness) and the real session store, both on a
 * database that a test can take down. "Down" is the real thing: new connections go to a
 * closed port and are refused (ECONNREFUSED), exactly what the session store and the API
 * meet when PostgreSQL stops.
 */
export interface WebHarness {
  api: ApiHarness
  services: WebServices
  db: Kysely<Database>
  /** From now on every connection attempt is refused, until `bringUp()`. */
  takeDown(): void
  bringUp(): void
  newContext(): AppLoadContext
  /** A signed-in browser's cookie header: a session record holding a fresh access token. */
  signedInCookie(userId: string): Promise<string>
  close(): Promise<void>
}

/** `apiEnv` configures the API (for example a vendor's variables, with its msw handlers). */
export async function createWebHarness(database: TestDatabase, apiEnv: Record<string, string> = {}): Promise<WebHarness> {
  const livePool = new pg.Pool({ connectionString: database.url, max: 5 })
  const deadPool = new pg.Pool({ connectionString: await closedPortUrl(), max: 5, connectionTimeoutMillis: 2_000 })
  livePool.on('error', () => {})
  deadPool.on('error', () => {})
  let down = false
  // Kysely's driver only calls connect() (and reads Client and options) on its pool.
  const pool = {
    connect: () => (down ? deadPool : livePool).connect(),
    end: async () => {
      await Promise.all([livePool.end(), deadPool.end()])
    },
    Client: pg.Client,
    get options() {
      return livePool.options
    },
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  const api = await createApiHarness(db, apiEnv)
  const services = testWebServices(api, db)
  const newContext = () => testContext(services)
  return {
    api,
    services,
    db,
    takeDown: () => {
      down = true
    },
    bringUp: () => {
      down = false
    },
    newContext,
    signedInCookie: (userId) => sessionCookie(api, services, userId),
    close: () => db.destroy(),
  }
}

/** A PostgreSQL URL on a port nothing listens on: connecting is refused at once. */
async function closedPortUrl() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 1
  await new Promise((resolve) => server.close(resolve))
  return `postgres://circle55@127.0.0.1:${port}/circle55`
}

/**
 * The web app's services as the host builds them, for a test: the API harness in-process, the
 * real session store on `db`, no identity provider, outbox or outside services. `overrides`
 * replace any of them.
 */
export function testWebServices(api: ApiHarness, db: Kysely<Database>, overrides: Partial<WebServices> = {}): WebServices {
  return {
    config: {
      publicUrl: TEST_PUBLIC_URL,
      apiBaseUrl: `${TEST_PUBLIC_URL}/api/`,
      isProduction: false,
      secureCookies: false,
      sessionSecret: 'a test session secret that is long enough',
      supportEmail: 'help@example.test',
      devOutbox: 'off',
      sentryDsn: null,
      auth: { kind: 'builtin', issuer: api.issuer, clientId: 'web', clientSecret: 'secret', audience: api.env.API_AUDIENCE },
    },
    apiFetch: (request) => api.fetch(request),
    locate: async () => null,
    sessions: createSessionStore(db),
    identity: null,
    outbox: null,
    reportError: () => {},
    log: () => {},
    ...overrides,
  }
}

/** A request's load context as server.ts builds it; `overrides` set the addresses and so on. */
export function testContext(services: WebServices, overrides: Partial<RequestContext> = {}): AppLoadContext {
  const context: RequestContext = { cspNonce: 'n', requestId: 'test', clientAddress: '127.0.0.1', peerAddress: '127.0.0.1', services, ...overrides }
  return context as unknown as AppLoadContext
}

/**
 * A signed-in browser's cookie header: a session record holding a fresh access token for
 * `userId`, renewed after `renewAfterMs` (the web app's token cache by default).
 */
export async function sessionCookie(api: ApiHarness, services: WebServices, userId: string, renewAfterMs = accessTokenCacheMs) {
  const storage = getSessionStorage(testContext(services))
  const session = await storage.getSession()
  session.set('userId', userId)
  session.set('subject', userId)
  session.set('accessToken', await api.signToken(userId))
  session.set('accessTokenRenewAt', Date.now() + renewAfterMs)
  return (await storage.commitSession(session)).split(';')[0] ?? ''
}
