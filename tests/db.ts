import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { createDatabase } from '#api/db/database.ts'
import type { Database } from '#api/db/schema.ts'
import { TEMPLATE_DATABASE, databaseUrlFor } from './setup/database-names.ts'

export interface TestDatabase {
  db: Kysely<Database>
  /** Connection URL of this database (for code under test that opens its own pool). */
  url: string
  /** Closes the pool and drops the database. */
  drop(): Promise<void>
}

/** Any number shared by every worker; serialises CREATE DATABASE … TEMPLATE across workers. */
const TEMPLATE_LOCK = 5_505_505

/**
 * A database of its own for the calling test file, cloned from the migrated template that the
 * global setup prepared. Call it in `beforeAll` and `drop()` it in `afterAll`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('databaseUrl')
  const name = `circle55_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await withAdmin(adminUrl, async (client) => {
    // PostgreSQL refuses to copy a template while another session uses it, and a concurrent
    // CREATE DATABASE from the same template counts as such a session: one at a time.
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK])
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`)
          break
        } catch (error) {
          // 55006 object_in_use: someone outside this run still holds the template.
          if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK])
    }
  })

  const url = databaseUrlFor(adminUrl, name)
  const { db } = createDatabase(url, { max: 5 })
  let dropped = false
  return {
    db,
    url,
    async drop() {
      if (dropped) return
      dropped = true
      await db.destroy()
      await withAdmin(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      )
    },
  }
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}
