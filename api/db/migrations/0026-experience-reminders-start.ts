import { sql, type Kysely } from 'kysely'

/**
 * The cleanup job removes reminder records a day after the start they were for (decision 050):
 * by this index, not by reading the whole table every 15 minutes.
 */
export async function up(db: Kysely<unknown>) {
  await sql`CREATE INDEX experience_reminders_start_at_idx ON experience_reminders (start_at)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX experience_reminders_start_at_idx`.execute(db)
}
