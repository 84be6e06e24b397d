import { sql, type Kysely } from 'kysely'

/**
 * The team's audit log read by team member and by member (decision 089): each filter an index, so
 * `/admin/audit?staff=` and `?member=` stay an index scan as the log grows. (`target_type,
 * target_id` has one since 0001.)
 */
export async function up(db: Kysely<unknown>) {
  await sql`CREATE INDEX audit_log_actor ON audit_log (actor_id, id DESC)`.execute(db)
  await sql`CREATE INDEX audit_log_impersonator ON audit_log (impersonator_id, id DESC) WHERE impersonator_id IS NOT NULL`.execute(db)
  await sql`CREATE INDEX audit_log_data_user ON audit_log ((data->>'user_id'))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX audit_log_data_user`.execute(db)
  await sql`DROP INDEX audit_log_impersonator`.execute(db)
  await sql`DROP INDEX audit_log_actor`.execute(db)
}
