import type { Env } from '../env.ts'
import type { Logger } from '../logger.ts'
import { createDatabase, migrateToLatest, type DB } from './database.ts'
import { checkBinariesReachable, startEmbeddedPostgres } from './embedded.ts'

export interface OpenDatabase {
  db: DB
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
  const { db } = createDatabase(url)
  if (options.migrate !== false) {
    const applied = await migrateToLatest(db)
    if (applied.length > 0) logger.info({ applied }, 'Migrations applied')
  }
  return {
    db,
    url,
    embedded: Boolean(stopEmbedded),
    async close() {
      await db.destroy()
      await stopEmbedded?.()
    },
  }
}
