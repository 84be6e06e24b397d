import { sql, type Kysely } from 'kysely'

/**
 * Push and email delivery that neither starves nor drops (issue 29 §5, decision pushjobs):
 * - `devices.failures` and `devices.retry_after`: a browser's consecutive failed pushes and the
 *   time before which none is tried again (its backoff, and the claim of the one push in flight);
 *   it is dropped after repeated failures. `devices (user_id)` serves the per-member cap.
 * - `email_outbox.attempts`, `last_error` and `failed_at`: how a queued email is doing, so a mail
 *   server that stays down shows in the outbox (and the logs) rather than an email vanishing.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE devices ADD COLUMN failures integer NOT NULL DEFAULT 0;
    ALTER TABLE devices ADD COLUMN retry_after timestamptz;
    CREATE INDEX devices_user ON devices (user_id, last_seen_at);

    ALTER TABLE email_outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;
    ALTER TABLE email_outbox ADD COLUMN last_error text;
    ALTER TABLE email_outbox ADD COLUMN failed_at timestamptz;
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE email_outbox DROP COLUMN failed_at;
    ALTER TABLE email_outbox DROP COLUMN last_error;
    ALTER TABLE email_outbox DROP COLUMN attempts;
    DROP INDEX devices_user;
    ALTER TABLE devices DROP COLUMN retry_after;
    ALTER TABLE devices DROP COLUMN failures;
  `.execute(db)
}
