import type pg from 'pg'
import type { Env } from '../env.ts'
import type { Logger } from '../logger.ts'
import { createDatabase, migrateToLatest, type DB } from './database.ts'
import { checkBinariesReachable, startEmbeddedPostgres } from './embedded.ts'

export interface OpenDatabase {
  db: DB
  pool: pg.Pool
  url: string
  embedded: boolean
  close: () => Promise<void>
}

/** DATABASE_URL when set, otherwise the embedded server; migrations applied on open. */
export async function openDatabase(env: Env, logger: Logger, options: { migrate?: boolean } = {}): Promise<OpenDatabase> {
  let url = env.DATABASE_URL
  let stopEmbedded: (() => Promise<void>) | undefined
  if (!url) {
    checkBinariesReachable()
    const started = Date.now()
    const embedded = await startEmbeddedPostgres({
      dataDir: env.EMBEDDED_PG_DIR,
      log: (message) => logger.debug({ message }, 'embedded postgres'),
    })
    url = embedded.url
    stopEmbedded = embedded.stop
    logger.info({ ms: Date.now() - started }, 'Embedded PostgreSQL started')
  }
  const timeouts = { connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS }
  const { db, pool } = createDatabase(url, { ...timeouts, preparedStatements: env.DATABASE_PREPARED_STATEMENTS })
  if (options.migrate !== false) {
    // A migration may build an index over a large table: no statement limit for it, on a
    // connection of its own (requests keep theirs).
    const migrations = createDatabase(url, { ...timeouts, max: 1, statementTimeoutMs: 0 })
    try {
      const applied = await migrateToLatest(migrations.db)
      if (applied.length > 0) logger.info({ applied }, 'Migrations applied')
    } finally {
      await migrations.db.destroy()
    }
  }
  return {
    db,
    pool,
    url,
    embedded: Boolean(stopEmbedded),
    async close() {
      await db.destroy()
      await stopEmbedded?.()
    },
  }
}
