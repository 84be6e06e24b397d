import { sql, type Kysely } from 'kysely'

/**
 * Identity verification (issue 13 §5, decision 025): who checks (our reviewers or Stripe
 * Identity, with its session id), the two encrypted photos of a built-in request (storage keys,
 * deleted with the decision), when and why it was decided. A rejected or cancelled request is
 * `not_verified` with its reason (none for a cancel), so the member can try again; the unique
 * index of 0001 still allows one pending (`processing`) request per member.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TYPE verification_provider AS ENUM ('builtin', 'stripe');
    ALTER TABLE verifications
      ADD COLUMN provider verification_provider NOT NULL DEFAULT 'builtin',
      ADD COLUMN provider_ref text,
      ADD COLUMN document_key text,
      ADD COLUMN selfie_key text,
      ADD COLUMN rejection_reason text,
      ADD COLUMN decided_at timestamptz;
    CREATE UNIQUE INDEX verifications_provider_ref ON verifications (provider, provider_ref) WHERE provider_ref IS NOT NULL;
    CREATE INDEX verifications_user_created ON verifications (user_id, created_at DESC);
    CREATE INDEX verifications_pending ON verifications (created_at) WHERE status = 'processing';
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP INDEX IF EXISTS verifications_pending;
    DROP INDEX IF EXISTS verifications_user_created;
    DROP INDEX IF EXISTS verifications_provider_ref;
    ALTER TABLE verifications
      DROP COLUMN IF EXISTS provider,
      DROP COLUMN IF EXISTS provider_ref,
      DROP COLUMN IF EXISTS document_key,
      DROP COLUMN IF EXISTS selfie_key,
      DROP COLUMN IF EXISTS rejection_reason,
      DROP COLUMN IF EXISTS decided_at;
    DROP TYPE IF EXISTS verification_provider;
  `.execute(db)
}
