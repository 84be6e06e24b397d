import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#api/env.ts'
import { createLogger } from '#api/logger.ts'
import { loader as rootLoader } from '#app/root.tsx'
import { loader as exploreLoader } from '#app/routes/activities+/_index.tsx'
import { accessTokenCacheMs } from '#app/utils/auth.server.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import { createDatabase, isDatabaseUnavailable, migrateToLatest, pingDatabase } from './database.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts'
import { openDatabase, type OpenDatabase } from './open.ts'

/**
 * Issue 10 §6: PostgreSQL stopped with SIGSTOP for 15 s. A frozen server still accepts TCP
 * connections (the kernel does) but never answers, so without client-side deadlines every
 * request waited for the whole outage and the health check then said "ok". This file freezes a
 * PostgreSQL of its own (never the shared test server) and checks that the API, the health
 * checks and the pages answer 503 within seconds, and that everything works again once it
 * resumes, without restarting anything.
 */
const freezeMs = 15_000
/** Shorter than the defaults so that every probe ends well inside the freeze. */
const short = { connectTimeoutMs: 2_000, statementTimeoutMs: 3_000 }
/** How late an answer may come after its timeout on this 2-core machine, under a full run. */
const slack = 2_000

let dataDir: string
let server: EmbeddedDatabase | undefined
let fast: ReturnType<typeof createDatabase>
let production: OpenDatabase
let api: ApiHarness
let services: WebServices
let memberCookie: string
let frozen: number[] = []

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `circle55-frozen-pg-${process.pid}-${randomBytes(4).toString('hex')}`)
  server = await startEmbeddedPostgres({ dataDir })
  // A run killed mid-freeze must not leave a stopped PostgreSQL behind (prepended: Vitest's
  // own 'exit' listener calls process.exit(), which skips later ones).
  process.prependListener('exit', stopOnExit)
  const migrations = createDatabase(server.url, { max: 1, statementTimeoutMs: 0 })
  try {
    await migrateToLatest(migrations.db)
  } finally {
    await migrations.db.destroy()
  }
  fast = createDatabase(server.url, short)
  // The pool exactly as the server opens it, with the configuration's defaults.
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: server.url })
  production = await openDatabase(env, createLogger(env), { migrate: false })

  api = await createApiHarness(fast.db)
  services = testWebServices(api, fast.db, {
    // Chicago: the page also asks the API for the nearest city before listing activities.
    locate: async () => ({ lat: 41.88, lng: -87.63 }),
  })

  const member = await createUser(fast.db)
  // Its access token outlives the test: the page must not need a renewal while frozen.
  memberCookie = await sessionCookie(api, services, member.id, 10 * accessTokenCacheMs)
})

afterAll(async () => {
  thaw()
  process.removeListener('exit', stopOnExit)
  await fast?.db.destroy()
  await production?.close()
  await server?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('a frozen database (SIGSTOP)', () => {
  it('answers 503 within seconds, reports the database down, and recovers when it resumes', { timeout: 60_000 }, async () => {
    // Before: two connections idle in the production pool, for the health check and for one
    // of the two statements below (the other one has to connect).
    await Promise.all([sql`select pg_sleep(0.1)`.execute(production.db), sql`select pg_sleep(0.1)`.execute(production.db)])
    expect(production.pool.idleCount).toBe(2)
    expect(await pingDatabase(production.db)).toBe(true)
    expect((await api.request('GET', 'v1/experiences')).status).toBe(200)
    expect((await pageStatus('/activities')).status).toBe(200)

    const frozenAt = freeze()
    // Resumed after 15 s whatever happens, as in the report: a request that waits for the
    // database then answers late instead of never.
    const resumed = new Promise((resolve) => setTimeout(resolve, freezeMs)).then(thaw)
    try {
      const [apiCall, apiHealth, healthz, explore, memberPage, ...statements] = await Promise.all([
        timed(() => api.request('GET', 'v1/experiences')),
        timed(() => api.request('GET', 'health')),
        // What /healthz runs, on the pool the server opens.
        timed(() => pingDatabase(production.db)),
        // Anonymous Explore: asks for the nearest city, then lists activities.
        timed(() => pageStatus('/activities')),
        // A signed-in page: the session store is read first.
        timed(() => pageStatus('/', memberCookie)),
        // The defaults: a statement on an idle connection gives up after 10 s, and one that needs
        // a new connection (the frozen server accepts it, never answers) after 5 s.
        timed(() => sql`select 1`.execute(production.db).then(() => 'answered', (error: unknown) => error)),
        timed(() => sql`select 2`.execute(production.db).then(() => 'answered', (error: unknown) => error)),
      ])

      expect(apiCall.value.status).toBe(503)
      expect(apiCall.value.json.error.code).toBe('service_unavailable')
      expect(apiCall.value.headers.get('retry-after')).toBeTruthy()
      expect(apiCall.ms).toBeLessThan(short.statementTimeoutMs + slack)

      expect(apiHealth.value.status).toBe(503)
      expect(apiHealth.value.json.error.code).toBe('service_unavailable')
      expect(apiHealth.ms).toBeLessThan(2_000 + slack)
      expect(healthz.value).toBe(false)
      expect(healthz.ms).toBeLessThan(2_000 + slack)

      // The 503 page ("Nothing is lost…"), not the generic 500 page, and without waiting out
      // a timeout for each call the page makes.
      expect(explore.value.status).toBe(503)
      expect(explore.ms).toBeLessThan(short.statementTimeoutMs + slack)
      expect(memberPage.value.status).toBe(503)
      expect(memberPage.ms).toBeLessThan(short.statementTimeoutMs + slack)

      for (const statement of statements) expect(isDatabaseUnavailable(statement.value)).toBe(true)
      const [connectWait, statementWait] = statements.map((statement) => statement.ms).sort((a, b) => a - b)
      expect(connectWait).toBeGreaterThanOrEqual(5_000 - 100)
      expect(connectWait).toBeLessThan(5_000 + slack)
      expect(statementWait).toBeGreaterThanOrEqual(10_000 - 100)
      expect(statementWait).toBeLessThan(10_000 + slack)
      // The connection whose statement timed out was closed, not handed to the next request.
      expect(production.pool.totalCount).toBe(0)

      expect(Date.now() - frozenAt).toBeLessThan(freezeMs)
      await resumed
    } finally {
      thaw()
    }

    // Resumed: the same pools, the same API and pages work again at once.
    const [apiCall, apiHealth, healthz, explore, memberPage, statement] = await Promise.all([
      timed(() => api.request('GET', 'v1/experiences')),
      timed(() => api.request('GET', 'health')),
      timed(() => pingDatabase(production.db)),
      timed(() => pageStatus('/activities')),
      timed(() => pageStatus('/', memberCookie)),
      timed(() => sql<{ answer: number }>`select 42 as answer`.execute(production.db)),
    ])
    expect(apiCall.value.status).toBe(200)
    expect(apiHealth.value).toMatchObject({ status: 200, json: { status: 'ok' } })
    expect(healthz.value).toBe(true)
    expect(explore.value.status).toBe(200)
    expect(memberPage.value).toMatchObject({ status: 200, signedIn: true })
    expect(statement.value.rows).toEqual([{ answer: 42 }])
    for (const probe of [apiCall, apiHealth, healthz, explore, memberPage, statement]) expect(probe.ms).toBeLessThan(2_000)
  })
})

const newContext = () => testContext(services, { clientAddress: '203.0.113.7', peerAddress: '203.0.113.7' })

/**
 * A page load as Remix runs it: the root loader and the route's loader in parallel, the status
 * being the first thrown one's (the root ErrorBoundary turns 503 into the "unavailable" page).
 */
async function pageStatus(pathname: string, cookie?: string) {
  const request = new Request(`${TEST_PUBLIC_URL}${pathname}`, { headers: cookie ? { cookie } : {} })
  const context = newContext()
  const root = rootLoader({ request, context, params: {} })
  const route = pathname === '/activities' ? exploreLoader({ request, context, params: {} }) : null
  try {
    const [rootData] = await Promise.all([root, route])
    return { status: 200, signedIn: Boolean(rootData.data.user) }
  } catch (thrown) {
    if (thrown && typeof thrown === 'object' && 'init' in thrown) {
      return { status: (thrown as { init: { status?: number } | null }).init?.status ?? 200, signedIn: false }
    }
    if (thrown instanceof Response) return { status: thrown.status, signedIn: false }
    // Anything else is what Remix answers with its generic 500 page.
    return { status: 500, signedIn: false }
  }
}

async function timed<T>(run: () => Promise<T>) {
  const started = Date.now()
  const value = await run()
  return { value, ms: Date.now() - started }
}

/**
 * Stops the postmaster first (so that it forks nothing new), then every process it started:
 * backends, checkpointer, WAL writer… Not the process group: the server shares it with Vitest.
 */
function freeze() {
  const postmaster = postmasterPid()
  process.kill(postmaster, 'SIGSTOP')
  frozen = [postmaster]
  for (const child of childrenOf(postmaster)) {
    try {
      process.kill(child, 'SIGSTOP')
      frozen.push(child)
    } catch {
      // Exited meanwhile.
    }
  }
  return Date.now()
}

function postmasterPid() {
  return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
}

/** For the 'exit' event, where nothing asynchronous runs any more: resume, then fast shutdown. */
function stopOnExit() {
  thaw()
  try {
    process.kill(postmasterPid(), 'SIGINT')
  } catch {
    // Already stopped.
  }
}

function thaw() {
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT')
    } catch {
      // Gone.
    }
  }
  frozen = []
}

function childrenOf(parent: number) {
  const children: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // pid (comm) state ppid …; the command name may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === parent) children.push(Number(entry))
    } catch {
      // Exited while listing.
    }
  }
  return children
}
