import { sql, type Kysely } from 'kysely'

/**
 * Suspensions end on time (decision 042): a recurring job looks for suspended members whose end
 * date has passed. A partial index keeps that look cheap however many members there are (only
 * suspended members are in it).
 */
export async function up(db: Kysely<unknown>) {
  await sql`CREATE INDEX users_suspended_until ON users (suspended_until) WHERE is_suspended`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX IF EXISTS users_suspended_until`.execute(db)
}
