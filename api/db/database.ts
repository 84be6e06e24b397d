import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, PostgresDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import pg from 'pg'
import type { Database } from './schema.ts'

export type DB = Kysely<Database>

// Dates come back as JS Date for timestamptz; `date` columns stay ISO strings (no time zone shift).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value)
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value))

export function createDatabase(connectionString: string, options: { max?: number } = {}) {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
  })
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { db, pool }
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
