import { sql, type Kysely } from 'kysely'

/**
 * Delivery by the member's settings (issue 15, decision 047):
 * - `notifications.in_app`: whether the notification shows in the member's list (decided when it
 *   is recorded, from the member's in-app switches); one turned off is still kept for delivery.
 * - `email_outbox.headers` and `.attachments`: the one-click unsubscribe headers of RFC 8058 and
 *   calendar files travel with the email from the outbox to the mail server.
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE notifications ADD COLUMN in_app boolean NOT NULL DEFAULT true`.execute(db)
  await sql`ALTER TABLE email_outbox ADD COLUMN headers jsonb, ADD COLUMN attachments jsonb`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE email_outbox DROP COLUMN headers, DROP COLUMN attachments`.execute(db)
  await sql`ALTER TABLE notifications DROP COLUMN in_app`.execute(db)
}
