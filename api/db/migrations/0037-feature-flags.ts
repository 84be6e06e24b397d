import { sql, type Kysely } from 'kysely'

/**
 * Feature flags and variants (issue 32 §3, decision 079): `feature_flags` (0001: a key, on or off,
 * one variant) becomes the built-in provider's store: each flag shown to a share of members (a
 * stable hash of the member and the flag), split into weighted variants, and limited by role,
 * region and language (an empty list: everyone), edited by admins at `/admin/flags`, each change
 * audited. `impersonation` starts on: turning it off stops viewing Circle 55 as members at once
 * (the kill switch research §4 asks for).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE feature_flags
      DROP COLUMN variant,
      ADD COLUMN rollout_percent int NOT NULL DEFAULT 100 CHECK (rollout_percent BETWEEN 0 AND 100),
      ADD COLUMN variants jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN roles text[] NOT NULL DEFAULT '{}',
      ADD COLUMN regions text[] NOT NULL DEFAULT '{}',
      ADD COLUMN languages text[] NOT NULL DEFAULT '{}',
      ADD COLUMN updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
      ADD CONSTRAINT feature_flags_key CHECK (key ~ '^[a-z][a-z0-9-]{1,59}$'),
      ADD CONSTRAINT feature_flags_description CHECK (length(description) <= 500);
    INSERT INTO feature_flags (key, description, enabled)
      VALUES ('impersonation', 'Staff may view Circle 55 as a member (decision 078). Off: nobody may start, and those under way end.', true)
      ON CONFLICT (key) DO NOTHING`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE feature_flags
      DROP CONSTRAINT feature_flags_key,
      DROP CONSTRAINT feature_flags_description,
      DROP COLUMN rollout_percent, DROP COLUMN variants, DROP COLUMN roles, DROP COLUMN regions,
      DROP COLUMN languages, DROP COLUMN updated_by, DROP COLUMN created_at,
      ADD COLUMN variant text`.execute(db)
}
