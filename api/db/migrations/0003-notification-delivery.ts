import { sql, type Kysely } from 'kysely'

/**
 * When a notification's delivery job ran (api/notifications/service.ts). The row itself is the
 * in-app notification; the notifications issue adds email, push and SMS by the member's settings
 * in the same job, which then also records here that it finished.
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE notifications ADD COLUMN delivered_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE notifications DROP COLUMN IF EXISTS delivered_at`.execute(db)
}
