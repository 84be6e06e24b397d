import { sql, type Kysely } from 'kysely'

/**
 * Telling the agency at once that a member stopped its calls (issue 33 §2, decision 086).
 *
 * - `medicare_partners.notices_email`: where the agency receives stop notices. Null only for an
 *   agency named before this migration: the team is asked for it when it next saves the agency,
 *   and until then a stop is recorded but no notice can go (a warning is logged, the team's page
 *   says so).
 * - `medicare_stop_notices`: one row per consent whose end was sent to its agency, written in the
 *   revocation's own transaction with the email's outbox row and its delivery job: the address it
 *   went to and when it was queued. Delivery itself is the outbox's `sent_at` (or `failed_at`),
 *   found by `email_id` while the outbox keeps the email (a month, api/jobs/cleanup.ts): the
 *   outbox has no callback, so this row says when the agency was told, not when its server took
 *   the mail. Append-only like the consents: PostgreSQL refuses UPDATE, DELETE and TRUNCATE.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE medicare_partners
      ADD COLUMN notices_email text CHECK (notices_email IS NULL OR (length(notices_email) BETWEEN 3 AND 320 AND notices_email LIKE '%_@_%'));

    CREATE TABLE medicare_stop_notices (
      consent_id uuid PRIMARY KEY REFERENCES medicare_consent_revocations(consent_id) ON DELETE RESTRICT,
      partner_id uuid NOT NULL REFERENCES medicare_partners(id) ON DELETE RESTRICT,
      to_address text NOT NULL,
      email_id uuid NOT NULL,
      queued_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX medicare_stop_notices_queued ON medicare_stop_notices (partner_id, queued_at);

    CREATE TRIGGER medicare_stop_notices_append_only BEFORE UPDATE OR DELETE ON medicare_stop_notices
      FOR EACH ROW EXECUTE FUNCTION medicare_records_append_only();
    CREATE TRIGGER medicare_stop_notices_no_truncate BEFORE TRUNCATE ON medicare_stop_notices
      FOR EACH STATEMENT EXECUTE FUNCTION medicare_records_append_only()`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TABLE medicare_stop_notices;
    ALTER TABLE medicare_partners DROP COLUMN notices_email`.execute(db)
}
