import { sql, type Kysely } from 'kysely'

/**
 * "Contact the product" (issue 14 §1, decision 039): each member's conversation with Circle 55
 * support is a channel of its own kind (`support`, `direct_key` `support:<user id>`), with the
 * member as its only member. Admins answer as "Circle 55 support": `answered_by` records which
 * admin wrote an answer (never shown to the member); `support_handled_at` is when an admin last
 * answered or marked the conversation done, so a member's message after it is waiting.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TYPE channel_kind ADD VALUE IF NOT EXISTS 'support';
    ALTER TABLE messages ADD COLUMN answered_by uuid REFERENCES users(id) ON DELETE SET NULL;
    ALTER TABLE message_channels ADD COLUMN support_handled_at timestamptz;
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  // PostgreSQL cannot drop an enum value; the channels of that kind go.
  await sql`
    DELETE FROM message_channels WHERE kind::text = 'support';
    ALTER TABLE message_channels DROP COLUMN IF EXISTS support_handled_at;
    ALTER TABLE messages DROP COLUMN IF EXISTS answered_by;
  `.execute(db)
}
