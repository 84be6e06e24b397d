import { sql, type Kysely } from 'kysely'

/**
 * When a member last signed in (issue 12 §4): after a long absence the web app greets them on
 * /welcome-back, otherwise a sign-in goes straight back to where they were (decision 020).
 * Members who signed in before this migration have none until their next sign-in.
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS last_sign_in_at`.execute(db)
}
