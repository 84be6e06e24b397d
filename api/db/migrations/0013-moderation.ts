import { sql, type Kysely } from 'kysely'

/**
 * Reports and moderation (issue 14 §4–5, decision 037): a channel can be reported; every report
 * keeps a snapshot of what was reported, so deleting it later does not destroy the evidence; a
 * resolved report keeps its outcome (shown in the member's history, never to the reporter); a
 * suspension may end on a date.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE reports
      ADD COLUMN channel_id uuid REFERENCES message_channels(id) ON DELETE SET NULL,
      ADD COLUMN snapshot jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN outcome text CHECK (outcome IN ('dismissed', 'message_removed', 'warned', 'suspended', 'banned'));
    CREATE INDEX reports_open ON reports (created_at DESC) WHERE resolved_at IS NULL;
    CREATE INDEX reports_reported_user ON reports (reported_user_id);
    ALTER TABLE users ADD COLUMN suspended_until timestamptz;
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP INDEX IF EXISTS reports_open;
    DROP INDEX IF EXISTS reports_reported_user;
    ALTER TABLE reports DROP COLUMN IF EXISTS channel_id, DROP COLUMN IF EXISTS snapshot, DROP COLUMN IF EXISTS outcome;
    ALTER TABLE users DROP COLUMN IF EXISTS suspended_until;
  `.execute(db)
}
