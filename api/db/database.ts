import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import pg from 'pg'
import { withinDeadline } from '../deadline.ts'
import type { Database } from './schema.ts'

export type DB = Kysely<Database>

/** A transaction on the database: what a function that runs inside one takes (or `DB | Trx`). */
export type Trx = Transaction<Database>

// Dates come back as JS Date for timestamptz; `date` columns stay ISO strings (no time zone shift).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value)
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value))

export interface DatabaseOptions {
  max?: number
  /** Waiting for a connection, from the pool or a new one (0: no limit). Default 5 s. */
  connectTimeoutMs?: number
  /** One statement, enforced by the server and by this process (0: no limit). Default 10 s. */
  statementTimeoutMs?: number
  /**
   * Statements run often become named prepared statements, planned once per connection
   * (`preparedStatementNames`, decision 054). Default true; false for a connection pooler that
   * cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean
}

/** How long the health checks wait for `select 1`: well under any load balancer's own timeout. */
export const healthCheckTimeoutMs = 2_000

const pools = new WeakMap<DB, pg.Pool>()

/**
 * A pool and its Kysely instance. The statement timeout is enforced twice: PostgreSQL's own
 * `statement_timeout` stops a slow statement, and pg's `query_timeout` gives up on a server that
 * does not answer at all (stopped, frozen, or cut off by the network), which cannot enforce its
 * own. See docs/decisions/006-database-timeouts.md.
 */
export function createDatabase(connectionString: string, options: DatabaseOptions = {}) {
  const statementTimeout = options.statementTimeoutMs ?? 10_000
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout,
  })
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {})
  const nameOf = options.preparedStatements === false ? undefined : preparedStatementNames()
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guardedPool(pool, nameOf) }) })
  pools.set(db, pool)
  return { db, pool }
}

/**
 * The pool as Kysely sees it, with two duties on each client:
 * - a client whose statement this process gave up on is closed when released instead of going
 *   back to the pool. Kysely releases it as healthy, but its statement is still in flight (or the
 *   server is frozen): the next request would queue behind it.
 * - statements `nameOf` names run as named prepared statements. When a migration has changed a
 *   table under one since this connection prepared it (PostgreSQL refuses: "cached plan must not
 *   change result type"), the statement, which did not run, runs again unprepared unless a
 *   transaction was open, and the client is closed when released, taking its stale plans along.
 */
function guardedPool(pool: pg.Pool, nameOf?: (text: string) => string | undefined): PostgresPool {
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect()
      let timedOut = false
      let stale = false
      let inTransaction = false
      const guarded: PostgresPoolClient = {
        processID: (client as { processID?: number }).processID,
        // Only the (sql, parameters) form: the dialect has no cursor configured.
        query: (async (text: string, parameters: unknown[]) => {
          // A transaction's ROLLBACK would otherwise wait out a second timeout behind the first.
          if (timedOut) throw new Error(`${clientTimeout} (an earlier statement on this connection)`)
          if (transactionStart.test(text)) inTransaction = true
          else if (transactionEnd.test(text)) inTransaction = false
          // Without parameters, a text may hold several commands (a migration): those run as simple queries.
          const name = parameters.length > 0 ? nameOf?.(text) : undefined
          try {
            return await client.query(name ? { name, text, values: parameters } : { text, values: parameters })
          } catch (error) {
            if (isClientTimeout(error)) timedOut = true
            if (name && isStalePreparedStatement(error)) {
              stale = true
              if (!inTransaction) return await client.query({ text, values: parameters })
            }
            throw error
          }
        }) as unknown as PostgresPoolClient['query'],
        release: (destroy) => client.release(destroy === true || timedOut || stale),
      }
      return guarded
    },
  }
}

/** How Kysely opens and ends a transaction; `rollback to` a savepoint keeps it open. */
const transactionStart = /^\s*(begin|start\s+transaction)\b[^;]*;?\s*$/i
const transactionEnd = /^\s*(commit|rollback|end|abort)\s*;?\s*$/i

/**
 * Which statement texts run as named prepared statements (decision 054). PostgreSQL parses and
 * plans an unnamed statement each time it runs; for the shell's statement (the member's profile
 * and unread totals) planning cost more than running it. A text is named once it has run
 * `minUses` times, like pgjdbc's `prepareThreshold`, so one-off statements are not kept; at most
 * `max` texts are named, because each connection keeps every statement it prepared until it closes.
 */
export function preparedStatementNames(options: { minUses?: number; max?: number } = {}) {
  const minUses = options.minUses ?? 3
  const max = options.max ?? 256
  const names = new Map<string, string>()
  const uses = new Map<string, number>()
  return (text: string): string | undefined => {
    const name = names.get(text)
    if (name !== undefined || names.size >= max) return name
    const count = (uses.get(text) ?? 0) + 1
    if (count < minUses) {
      // Counting is bounded too: texts built from lists of any length are not counted forever.
      if (uses.size >= 16 * max) uses.clear()
      uses.set(text, count)
      return undefined
    }
    uses.delete(text)
    const named = `circle55_${names.size + 1}`
    names.set(text, named)
    return named
  }
}

/**
 * PostgreSQL's answers when a connection's prepared statement no longer fits: its result type
 * changed under it (0A000), or it is gone (26000, after pg closed it on a value it could not send).
 */
function isStalePreparedStatement(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code
  return (code === '0A000' && error instanceof Error && error.message.includes('cached plan')) || code === '26000'
}

/** pg's message when `query_timeout` expires. */
const clientTimeout = 'Query read timeout'

function isClientTimeout(error: unknown) {
  return error instanceof Error && error.message.startsWith(clientTimeout)
}

/**
 * Whether the database answers `select 1` within `timeoutMs`, for the health checks. A frozen
 * server accepts connections (the kernel does) but never answers, so every step has a deadline.
 */
export async function pingDatabase(db: DB, timeoutMs = healthCheckTimeoutMs): Promise<boolean> {
  const pool = pools.get(db)
  const answered = pool ? pingPool(pool, timeoutMs) : sql`select 1`.execute(db)
  return (await withinDeadline(answered.then(() => true), timeoutMs)) ?? false
}

async function pingPool(pool: pg.Pool, timeoutMs: number) {
  // Waiting for a connection counts against the same deadline (pingDatabase's timer); the
  // client, once there, still gets the statement's own limit so it is never left hanging.
  const client = await pool.connect()
  const query: pg.QueryConfig & { query_timeout: number } = { text: 'select 1', query_timeout: timeoutMs }
  try {
    await client.query(query)
  } catch (error) {
    client.release(true)
    throw error
  }
  client.release()
}

const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

async function loadMigrations() {
  const files = (await fs.readdir(migrationFolder)).filter((name) => /^\d{4}-.*\.ts$/.test(name)).sort()
  const migrations: Record<string, Migration> = {}
  for (const file of files) {
    migrations[file.replace(/\.ts$/, '')] = (await import(path.join(migrationFolder, file))) as Migration
  }
  return migrations
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are untyped
export async function migrateToLatest(db: Kysely<any>) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: loadMigrations },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : 'unknown error'}`, {
      cause: error,
    })
  }
  return results?.filter((result) => result.status === 'Success').map((r) => r.migrationName) ?? []
}

/**
 * The database is down, restarting, frozen or too slow: the request failed through no fault of
 * its own, and the same request may well work in a minute (503, not 500).
 */
export function isDatabaseUnavailable(error: unknown) {
  const code = (error as { code?: string } | null)?.code
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now
    code === '57014' || // query_canceled: the server's statement_timeout
    code === '53300' || // too_many_connections
    code === '08006' ||
    code === '08001' ||
    (error instanceof Error &&
      // pg's own timeouts: waiting for a pool slot, connecting, and a statement (query_timeout).
      /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable/i.test(error.message))
  )
}
