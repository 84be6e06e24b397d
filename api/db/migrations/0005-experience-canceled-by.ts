import { sql, type Kysely } from 'kysely'

/**
 * Who cancelled an activity (issue 12 §2): its host, or an admin for the team. The activity page
 * and My activities say it ("cancelled by the host", "by the Circle 55 team"). Activities
 * cancelled before this migration have none: their host cancelled them (only hosts could then).
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE experiences ADD COLUMN canceled_by uuid REFERENCES users(id) ON DELETE SET NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE experiences DROP COLUMN IF EXISTS canceled_by`.execute(db)
}
