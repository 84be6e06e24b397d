import { sql, type Kysely } from 'kysely'

/**
 * Spec §6 (decision 034): chat user search leaves out the members one blocked, unless the member
 * opts out. The choice is the member's own (privacy section of `/account/edit`); off by default.
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE users ADD COLUMN show_blocked_in_chat_search boolean NOT NULL DEFAULT false`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS show_blocked_in_chat_search`.execute(db)
}
