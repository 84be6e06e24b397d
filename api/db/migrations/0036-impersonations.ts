import { sql, type Kysely } from 'kysely'

/**
 * Viewing Circle 55 as a member (issue 32 §2, decision 078).
 * - `impersonations`: who (a staff member with `impersonate:user`) views as whom, why, since when
 *   and until when (30 minutes, never extended), whether support switched to acting on the
 *   member's behalf and why, how it ended, and when the member was told. One open per staff member.
 * - `media.impersonator_id`: a photo uploaded while a staff member acted as its owner.
 * `audit_log.impersonator_id` (0001) names the staff member of every change made as the member.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE impersonations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      actor_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      subject_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
      acting_reason text CHECK (length(acting_reason) BETWEEN 1 AND 500),
      acting_since timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      ended_at timestamptz,
      end_reason text CHECK (end_reason IN ('stopped', 'expired', 'revoked')),
      member_told_at timestamptz
    );
    CREATE UNIQUE INDEX impersonations_one_open ON impersonations (actor_id) WHERE ended_at IS NULL;
    CREATE INDEX impersonations_subject ON impersonations (subject_id, started_at);
    CREATE INDEX impersonations_expiring ON impersonations (expires_at) WHERE ended_at IS NULL;
    ALTER TABLE media ADD COLUMN impersonator_id uuid REFERENCES users(id) ON DELETE SET NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE media DROP COLUMN impersonator_id;
    DROP TABLE impersonations`.execute(db)
}
