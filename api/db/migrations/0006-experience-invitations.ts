import { sql, type Kysely } from 'kysely'

/**
 * Invitations to an activity (issue 12 §3, decision 019): adding a member by email no longer
 * seats them; it records an invitation they accept or decline from the activity page. One per
 * member and activity (inviting again neither duplicates nor emails again); `invited_by` is the
 * host or the admin who sent it, for the invitation's "who invited you".
 *
 * Numbered 0006: 0005 (who cancelled) may already be applied where this arrives.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE experience_invitations (
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'declined')),
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz,
      PRIMARY KEY (experience_id, user_id),
      CHECK ((state = 'pending') = (answered_at IS NULL))
    );
    CREATE INDEX experience_invitations_user ON experience_invitations (user_id) WHERE state = 'pending';
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE IF EXISTS experience_invitations`.execute(db)
}
