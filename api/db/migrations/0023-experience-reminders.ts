import { sql, type Kysely } from 'kysely'

/**
 * Automatic reminders (issue 15 §2, decision 050):
 * - `experience_reminders`: one row per member per activity per slot per start, written in the
 *   transaction that notifies them, so a retried or duplicated job reminds nobody twice.
 * - `experience_reminder_schedules`: the start each activity's reminder jobs were queued for; the
 *   sweep queues them for activities whose row is missing or names another start (rows made
 *   before this code, or by a path that queued nothing).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE experience_reminders (
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      slot text NOT NULL CHECK (slot = ANY (ARRAY['24h'::text, '2h'::text])),
      start_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (experience_id, user_id, slot, start_at)
    )`.execute(db)
  await sql`CREATE INDEX experience_reminders_user_id_idx ON experience_reminders (user_id)`.execute(db)
  await sql`
    CREATE TABLE experience_reminder_schedules (
      experience_id uuid PRIMARY KEY REFERENCES experiences(id) ON DELETE CASCADE,
      start_at timestamptz NOT NULL
    )`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE experience_reminder_schedules`.execute(db)
  await sql`DROP TABLE experience_reminders`.execute(db)
}
