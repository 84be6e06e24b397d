import { sql, type Kysely } from 'kysely'

/**
 * The scam shield's limits (issue 14 §6, decision 038): `contact_reminder_seen_at` records that a
 * member saw, once, the reminder before sharing a phone number or email in a first message; the
 * index on the direct channels a member opened counts the conversations they started in the
 * last 24 hours.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE users ADD COLUMN contact_reminder_seen_at timestamptz;
    CREATE INDEX message_channels_direct_created_by ON message_channels (created_by, created_at DESC) WHERE kind = 'direct';
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP INDEX IF EXISTS message_channels_direct_created_by;
    ALTER TABLE users DROP COLUMN IF EXISTS contact_reminder_seen_at;
  `.execute(db)
}
