import { sql } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { ReportOutcome, ReportSnapshot } from '#contract/moderation.ts'
import type { ReportReason } from '#contract/enums.ts'

type Db = DB | Trx

/** A report with what the queue shows of it (decision 037). */
export interface ReportRow {
  id: string
  reporter_id: string | null
  reported_user_id: string | null
  experience_id: string | null
  message_id: string | null
  channel_id: string | null
  reason: ReportReason
  details: string
  snapshot: ReportSnapshot | Record<string, never>
  outcome: ReportOutcome | null
  resolved_at: Date | null
  created_at: Date
  /** Open reports in the same group: about the same member, or the same content when no member. */
  open_reports: number
  message_removed: boolean
}

/** What groups reports: the member they are about, else the content. */
const groupKey = (alias: string) =>
  sql`coalesce(${sql.ref(`${alias}.reported_user_id`)}, ${sql.ref(`${alias}.channel_id`)}, ${sql.ref(`${alias}.experience_id`)}, ${sql.ref(`${alias}.message_id`)}, ${sql.ref(`${alias}.id`)})`

const reportColumns = sql`r.id, r.reporter_id, r.reported_user_id, r.experience_id, r.message_id, r.channel_id, r.reason, r.details,
  r.snapshot, r.outcome, r.resolved_at, r.created_at,
  ((r.snapshot->>'kind') IS NOT DISTINCT FROM 'message' AND (m.id IS NULL OR m.deleted_at IS NOT NULL)) AS message_removed,
  (SELECT count(*)::int FROM reports o WHERE o.resolved_at IS NULL AND ${groupKey('o')} = ${groupKey('r')}) AS open_reports`

/**
 * The open reports, most-reported first: groups (a member, or content with no member) with more
 * open reports first, then the group whose newest report is newest, then each group's reports
 * newest first.
 */
export async function openReports(db: Db, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    sql<ReportRow & { group_newest: Date }>`SELECT * FROM (
        SELECT ${reportColumns}, max(r.created_at) OVER (PARTITION BY ${groupKey('r')}) AS group_newest, ${groupKey('r')} AS group_key
        FROM reports r LEFT JOIN messages m ON m.id = r.message_id
        WHERE r.resolved_at IS NULL
      ) q
      ORDER BY q.open_reports DESC, q.group_newest DESC, q.group_key, q.created_at DESC, q.id
      LIMIT ${limit} OFFSET ${offset}`.execute(db),
    db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('count')).where('resolved_at', 'is', null).executeTakeFirstOrThrow(),
  ])
  return { rows: rows.rows, total: Number(total.count) }
}

/** One report (open or resolved). */
export async function reportById(db: Db, id: string) {
  const rows = await sql<ReportRow>`SELECT ${reportColumns} FROM reports r LEFT JOIN messages m ON m.id = r.message_id WHERE r.id = ${id}`.execute(db)
  return rows.rows[0]
}

/** The member's other reports, newest first. */
export async function memberHistory(db: Db, userId: string, exceptId: string) {
  return db
    .selectFrom('reports')
    .select(['id', 'reason', 'created_at', 'resolved_at', 'outcome'])
    .where('reported_user_id', '=', userId)
    .where('id', '<>', exceptId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(50)
    .execute()
}

/** Members by id, with their latest verification status. */
export async function moderationMembers(db: Db, ids: Iterable<string>) {
  const unique = [...new Set(ids)]
  if (unique.length === 0) unique.push('00000000-0000-0000-0000-000000000000')
  const rows = await db
    .selectFrom('users')
    .select([
      'users.id',
      'users.slug',
      'users.first_name',
      'users.last_name',
      'users.formatted_name',
      'users.name',
      'users.created_at',
      'users.is_suspended',
      'users.suspended_until',
      'users.banned',
      'users.state',
      (eb) =>
        eb
          .selectFrom('verifications')
          .select('verifications.status')
          .whereRef('verifications.user_id', '=', 'users.id')
          .orderBy('verifications.created_at', 'desc')
          .orderBy('verifications.id', 'desc')
          .limit(1)
          .as('verification'),
    ])
    .where('users.id', 'in', unique)
    .execute()
  return new Map(rows.map((row) => [row.id, row]))
}
export type ModerationMemberRow = NonNullable<ReturnType<Awaited<ReturnType<typeof moderationMembers>>['get']>>
