import { sql, type Kysely } from 'kysely'

/**
 * `notifications.experience_id` (decision 055): the activity a notification names, kept as a
 * uuid when it is written (a stored generated column, so every writer fills it) instead of being
 * read out of `data` with a pattern match on every row each time the list is shown. Null when
 * the data names no activity, or not as a uuid.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE notifications ADD COLUMN experience_id uuid GENERATED ALWAYS AS (
      CASE WHEN data->>'experience_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        THEN (data->>'experience_id')::uuid END
    ) STORED`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE notifications DROP COLUMN experience_id`.execute(db)
}
