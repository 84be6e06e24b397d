import type { ReportInput } from '#contract/reports.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requirePermission } from '../policy/permissions.ts'
import { experienceExists, memberExists, messageExists } from './queries.ts'

/**
 * Records a member's report of an activity, a member or a message for the moderators. At least
 * one target; each named target must exist; nobody reports themselves.
 */
export async function createReport(db: DB, caller: User, input: ReportInput) {
  requirePermission(caller, 'create:report')
  if (!input.experience_id && !input.user_id && !input.message_id) throw problems.invalid({ target: ['target_required'] })
  if (input.user_id === caller.id) throw problems.invalid({ user_id: ['cannot_report_self'] })

  if (input.experience_id && !(await experienceExists(db, input.experience_id))) throw problems.notFound('Activity not found')
  if (input.user_id && !(await memberExists(db, input.user_id))) throw problems.notFound('User not found')
  if (input.message_id && !(await messageExists(db, input.message_id))) throw problems.notFound('Message not found')

  const report = await db
    .insertInto('reports')
    .values({
      reporter_id: caller.id,
      reason: input.reason,
      details: input.details ?? '',
      experience_id: input.experience_id ?? null,
      reported_user_id: input.user_id ?? null,
      message_id: input.message_id ?? null,
    })
    .returning(['id', 'reason', 'created_at'])
    .executeTakeFirstOrThrow()
  return { id: report.id, reason: report.reason, created_at: report.created_at.toISOString() }
}
