import { sql } from 'kysely'
import { postProductMessages, type ProductMessageKey } from '../chat/product-messages.ts'
import type { DB, Trx } from '../db/database.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { ChatMirror } from '../chat/mirror.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { requirePermission } from '../policy/permissions.ts'
import { realName } from '../reports/queries.ts'
import { memberHistory, moderationMembers, openReports, reportById, type ModerationMemberRow, type ReportRow } from './queries.ts'
import { pageMetadata, type Page, type PageQuery } from '#contract/common.ts'
import {
  reportSnapshotSchema,
  type ModerationActionInput,
  type ModerationReport,
  type ModerationReportDetail,
  type ModerationResult,
  type ReportOutcome,
  type ReportSnapshot,
} from '#contract/moderation.ts'

/**
 * Moderation (issue 14 §5, decision 037): the admins' report queue and the actions that resolve
 * reports. Admins holding `review:reports` only (403 for members, 401 for anonymous callers).
 * Admins do not read chats (decision 029): they see the snapshot each report keeps.
 */

const defaultPerPage = 20

// Reading ---------------------------------------------------------------------------------------

function snapshotOf(row: ReportRow): ReportSnapshot {
  const parsed = reportSnapshotSchema.safeParse(row.snapshot)
  return parsed.success ? parsed.data : { kind: 'none' }
}

function targetOf(row: ReportRow, snapshot: ReportSnapshot): ModerationReport['target'] {
  if (snapshot.kind !== 'none') return snapshot.kind
  if (row.message_id) return 'message'
  if (row.channel_id) return 'channel'
  if (row.experience_id) return 'experience'
  return 'member'
}

function serializeMember(member: ModerationMemberRow | undefined) {
  if (!member) return null
  return {
    id: member.id,
    slug: member.slug,
    display_name: realName(member),
    joined_at: member.created_at.toISOString(),
    verification: member.verification ?? ('not_verified' as const),
    is_suspended: member.is_suspended || member.state === 'suspended',
    suspended_until: member.suspended_until?.toISOString() ?? null,
    banned: member.banned,
  }
}

async function serializeReports(db: DB, rows: ReportRow[]): Promise<ModerationReport[]> {
  const members = await moderationMembers(
    db,
    rows.flatMap((row) => [row.reporter_id, row.reported_user_id].filter((id): id is string => id !== null)),
  )
  return rows.map((row) => {
    const snapshot = snapshotOf(row)
    const reporter = row.reporter_id ? members.get(row.reporter_id) : undefined
    return {
      id: row.id,
      reason: row.reason,
      details: row.details,
      created_at: row.created_at.toISOString(),
      target: targetOf(row, snapshot),
      message_id: row.message_id,
      channel_id: row.channel_id,
      experience_id: row.experience_id,
      reporter: reporter ? { id: reporter.id, display_name: realName(reporter) } : null,
      reported_member: serializeMember(row.reported_user_id ? members.get(row.reported_user_id) : undefined),
      snapshot,
      open_reports: row.open_reports,
      resolved_at: row.resolved_at?.toISOString() ?? null,
      outcome: row.outcome,
      message_removed: row.message_removed,
    }
  })
}

/** `GET v1/admin/reports`: the open reports, most-reported first, then newest. */
export async function listOpenReports(db: DB, caller: User, query: PageQuery): Promise<Page<ModerationReport>> {
  requirePermission(caller, 'review:reports')
  const page = query.page ?? 1
  const perPage = query.per_page ?? defaultPerPage
  const { rows, total } = await openReports(db, perPage, (page - 1) * perPage)
  return { data: await serializeReports(db, rows), metadata: pageMetadata(page, perPage, total) }
}

async function findReport(db: DB | Trx, id: string) {
  if (!isUuid(id)) throw problems.notFound('Report not found')
  const row = await reportById(db, id)
  if (!row) throw problems.notFound('Report not found')
  return row
}

/** `GET v1/admin/reports/{id}`: one report with its snapshot and the reported member's history. */
export async function getReport(db: DB, caller: User, id: string): Promise<ModerationReportDetail> {
  requirePermission(caller, 'review:reports')
  const row = await findReport(db, id)
  const [report] = await serializeReports(db, [row])
  const history = row.reported_user_id ? await memberHistory(db, row.reported_user_id, row.id) : []
  return {
    ...report!,
    history: history.map((item) => ({
      id: item.id,
      reason: item.reason,
      created_at: item.created_at.toISOString(),
      resolved_at: item.resolved_at?.toISOString() ?? null,
      outcome: item.outcome,
    })),
  }
}

// Acting ----------------------------------------------------------------------------------------

/** The first day a suspension may end on: tomorrow (UTC). */
function isAfterToday(date: string, now: Date) {
  return date > now.toISOString().slice(0, 10)
}

const outcomes: Record<ModerationActionInput['action'], ReportOutcome> = {
  dismiss: 'dismissed',
  remove_message: 'message_removed',
  warn: 'warned',
  suspend: 'suspended',
  ban: 'banned',
}

/** Ends every web session of the member now (the API's gate refuses their token from now on too). */
async function endSessions(trx: Trx, userId: string) {
  await trx.deleteFrom('web_sessions').where('user_id', '=', userId).execute()
}

/**
 * `POST v1/admin/reports/{id}/actions`: one action on an open report, with a reason for the audit
 * log. Dismiss resolves this report; removing the message resolves every open report about that
 * message; warning, suspending and banning resolve every open report about the member. Each
 * reporter is told their report was handled (not the outcome).
 */
export async function actOnReport(
  { db, notify, chatMirror }: { db: DB } & AfterCommit,
  caller: User,
  id: string,
  input: ModerationActionInput,
  options: { requestId?: string; now?: Date } = {},
): Promise<ModerationResult> {
  requirePermission(caller, 'review:reports')
  const now = options.now ?? new Date()
  if (input.action === 'suspend') {
    if (!input.suspended_until) throw problems.invalid({ suspended_until: ['suspended_until_required'] })
    if (!isAfterToday(input.suspended_until, now)) throw problems.invalid({ suspended_until: ['suspended_until_past'] })
  }
  if (!isUuid(id)) throw problems.notFound('Report not found')
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom('reports').select(['id', 'resolved_at']).where('id', '=', id).forUpdate().executeTakeFirst()
    if (!locked) throw problems.notFound('Report not found')
    if (locked.resolved_at) throw problems.conflict('report_resolved', 'This report has already been handled.')
    const report = await findReport(trx, id)
    const memberId = report.reported_user_id
    const outcome = outcomes[input.action]
    let resolving = trx.updateTable('reports').where('resolved_at', 'is', null)
    const auditData: Record<string, string | null> = { reason: input.reason, report_id: report.id, user_id: memberId }

    /** The product messages this action sends, posted together at the end. */
    const notices: Array<{ userId: string; key: ProductMessageKey }> = []
    switch (input.action) {
      case 'dismiss':
        resolving = resolving.where('id', '=', report.id)
        break
      case 'remove_message': {
        if (!report.message_id || snapshotOf(report).kind !== 'message') throw problems.invalid({ action: ['no_message'] })
        await trx.updateTable('messages').set({ deleted_at: now }).where('id', '=', report.message_id).where('deleted_at', 'is', null).execute()
        // With Stream as the chat service, the message goes from it too (decision 036).
        await chatMirror.record(trx, { type: 'message.removed', message_id: report.message_id })
        resolving = resolving.where('message_id', '=', report.message_id)
        auditData.message_id = report.message_id
        break
      }
      case 'warn':
      case 'suspend':
      case 'ban': {
        if (!memberId) throw problems.invalid({ action: ['no_member'] })
        if (memberId === caller.id) throw problems.invalid({ action: ['cannot_act_on_self'] })
        if (input.action === 'warn') {
          notices.push({ userId: memberId, key: 'moderationWarning' })
        } else if (input.action === 'suspend') {
          const until = new Date(`${input.suspended_until}T00:00:00Z`)
          await trx.updateTable('users').set({ is_suspended: true, suspended_until: until }).where('id', '=', memberId).execute()
          await endSessions(trx, memberId)
          auditData.suspended_until = until.toISOString()
        } else {
          await trx.updateTable('users').set({ banned: true }).where('id', '=', memberId).execute()
          await endSessions(trx, memberId)
        }
        // With Stream, a suspended or banned member is banned there and leaves their channels (decision 042).
        if (input.action !== 'warn') await chatMirror.record(trx, { type: 'member', user_id: memberId })
        resolving = resolving.where('reported_user_id', '=', memberId)
        break
      }
    }

    const resolved = await resolving
      .set({ resolved_at: now, resolved_by: caller.id, outcome })
      .returning(['id', 'reporter_id'])
      .execute()
    const reporters = new Set(resolved.flatMap((row) => (row.reporter_id && row.reporter_id !== memberId ? [row.reporter_id] : [])))
    for (const reporterId of reporters) notices.push({ userId: reporterId, key: 'reportHandled' })
    await postProductMessages(trx, chatMirror, notices)
    // And a notification (issue 15 §1): one per reporter, however many of their reports this resolved.
    for (const reporterId of reporters) {
      const report = resolved.find((row) => row.reporter_id === reporterId)!
      await notify({ type: 'report.handled', to: [reporterId], data: { report_id: report.id } }, trx)
    }
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: caller.id,
        action: `report.${input.action}`,
        target_type: input.action === 'remove_message' ? 'message' : memberId && input.action !== 'dismiss' ? 'user' : 'report',
        target_id: input.action === 'remove_message' ? report.message_id : memberId && input.action !== 'dismiss' ? memberId : report.id,
        data: JSON.stringify({ ...auditData, resolved_report_ids: resolved.map((row) => row.id) }),
        request_id: options.requestId ?? null,
      })
      .execute()
    return { outcome, resolved_reports: resolved.length }
  })
}

/** The audit log's reason for a suspension lifted at its end (no admin acted: the actor is the system). */
export const suspensionEndedReason = 'suspension ended'

/**
 * Lifts the suspensions whose end date has passed (`is_suspended` and `suspended_until <= now`),
 * of one member or of everyone, and writes one audit-log row per member lifted (action
 * `suspension.end`, no actor: the system). The rows are locked as they are read, so two instances
 * (or the job and a member's own request) lifting at once lift each member once; running it again
 * lifts nobody. Returns the members lifted.
 */
export async function liftEndedSuspensions(db: DB, chatMirror: ChatMirror, options: { now?: Date; userId?: string } = {}): Promise<string[]> {
  const now = options.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    // Locked as read: an instance that finds a row locked waits, then sees it no longer matches.
    let ended = trx
      .selectFrom('users')
      .select(['id', 'suspended_until'])
      .where('is_suspended', '=', true)
      .where('suspended_until', '<=', sql<Date>`${now}`)
    if (options.userId) ended = ended.where('id', '=', options.userId)
    const lifted = await ended.forUpdate().execute()
    if (lifted.length === 0) return []
    await trx
      .updateTable('users')
      .set({ is_suspended: false, suspended_until: null })
      .where('id', 'in', lifted.map((row) => row.id))
      .execute()
    await trx
      .insertInto('audit_log')
      .values(
        lifted.map((row) => ({
          actor_id: null,
          action: 'suspension.end',
          target_type: 'user',
          target_id: row.id,
          data: JSON.stringify({ reason: suspensionEndedReason, user_id: row.id, suspended_until: row.suspended_until?.toISOString() ?? null }),
        })),
      )
      .execute()
    // With Stream, their ban there is lifted too and they are back in their channels (decision 042).
    for (const row of lifted) await chatMirror.record(trx, { type: 'member', user_id: row.id })
    return lifted.map((row) => row.id)
  })
}

/**
 * A suspension whose end date has passed is lifted when the member next signs in or calls the
 * API (decision 037), before the gate looks at it, even if the job (decision 042) has not run
 * yet. Returns the member as they are now, and whether this call lifted the suspension.
 */
export async function liftEndedSuspension<U extends Pick<User, 'id' | 'is_suspended' | 'suspended_until'>>(
  db: DB,
  chatMirror: ChatMirror,
  user: U,
  now = new Date(),
): Promise<{ user: U; lifted: boolean }> {
  if (!user.is_suspended || !user.suspended_until || user.suspended_until > now) return { user, lifted: false }
  const lifted = await liftEndedSuspensions(db, chatMirror, { now, userId: user.id })
  if (lifted.length > 0) return { user: { ...user, is_suspended: false, suspended_until: null }, lifted: true }
  // Changed meanwhile (the job lifted it, or an admin suspended them again): as it is now.
  const current = await db.selectFrom('users').select(['is_suspended', 'suspended_until']).where('id', '=', user.id).executeTakeFirst()
  return { user: current ? { ...user, ...current } : user, lifted: false }
}
