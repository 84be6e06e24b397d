import { z } from 'zod'
import { channelKinds } from './chat.ts'
import { reportReasons, verificationStatuses } from './enums.ts'
import { isCalendarDate, memberText, memberTextCodes } from './input-validation.ts'

/**
 * Moderation (issue 14 §5, decision 037): the admins' report queue, one report with its snapshot
 * and the reported member's history, and the actions that resolve reports. Admins holding
 * `review:reports` only.
 */

const nullableString = z.string().nullable()

/** The reason an admin gives for an action (kept in the audit log). */
export const maxModerationReasonLength = 1000

/** What an admin did about a report (kept on the report; the reporter is told only that it was handled). */
export const reportOutcomes = ['dismissed', 'message_removed', 'warned', 'suspended', 'banned'] as const
export type ReportOutcome = (typeof reportOutcomes)[number]

/** The actions of `POST v1/admin/reports/{id}/actions`; each one's outcome has the same name but `remove_message`. */
export const moderationActions = ['dismiss', 'remove_message', 'warn', 'suspend', 'ban'] as const
export type ModerationAction = (typeof moderationActions)[number]

// Snapshots: what was reported, as it was when it was reported ----------------------------------

const snapshotMemberSchema = z.object({ id: nullableString, display_name: nullableString })

const snapshotMessageSchema = z.object({
  id: z.string(),
  body: z.string(),
  sender: snapshotMemberSchema.nullable().meta({ description: 'Null for a message from the product.' }),
  created_at: z.string(),
})
export type SnapshotMessage = z.infer<typeof snapshotMessageSchema>

/** The reported content, copied when the report was made (deleting it later keeps this). */
export const reportSnapshotSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), channel_id: z.string(), message: snapshotMessageSchema }),
    z.object({
      kind: z.literal('channel'),
      channel_id: z.string(),
      channel_kind: z.enum(channelKinds),
      experience_title: nullableString,
      messages: z.array(snapshotMessageSchema).meta({ description: 'The last messages (up to 20) the reporter could read, oldest first.' }),
    }),
    z.object({
      kind: z.literal('member'),
      member: snapshotMemberSchema.extend({ slug: z.string(), city: nullableString, region: nullableString, about: nullableString }),
    }),
    z.object({
      kind: z.literal('experience'),
      experience: z.object({
        id: z.string(),
        slug: z.string(),
        title: z.string(),
        description: z.string(),
        start_at: nullableString,
        host: snapshotMemberSchema.nullable(),
      }),
    }),
    z.object({ kind: z.literal('none') }),
  ])
  .meta({ id: 'ReportSnapshot' })
export type ReportSnapshot = z.infer<typeof reportSnapshotSchema>

// The queue and one report ----------------------------------------------------------------------

const reportedMemberSchema = z.object({
  id: z.string(),
  slug: z.string(),
  display_name: nullableString.meta({ description: 'The real display name, even for a suspended or banned member (admins only).' }),
  joined_at: z.string(),
  verification: z.enum(verificationStatuses),
  is_suspended: z.boolean(),
  suspended_until: nullableString,
  banned: z.boolean(),
})

/** A report as the queue lists it. */
export const moderationReportSchema = z
  .object({
    id: z.string(),
    reason: z.enum(reportReasons),
    details: z.string(),
    created_at: z.string(),
    target: z.enum(['message', 'channel', 'member', 'experience']),
    message_id: nullableString,
    channel_id: nullableString,
    experience_id: nullableString,
    reporter: snapshotMemberSchema.nullable().meta({ description: 'Null when the reporter deleted their account.' }),
    reported_member: reportedMemberSchema.nullable(),
    snapshot: reportSnapshotSchema,
    open_reports: z.number().int().meta({ description: 'Open reports about the same member (or the same content when no member): the queue is ordered by it.' }),
    resolved_at: nullableString,
    outcome: z.enum(reportOutcomes).nullable(),
    message_removed: z.boolean().meta({ description: 'The reported message has been removed (or deleted).' }),
  })
  .meta({ id: 'ModerationReport' })
export type ModerationReport = z.infer<typeof moderationReportSchema>

const historyItemSchema = z.object({
  id: z.string(),
  reason: z.enum(reportReasons),
  created_at: z.string(),
  resolved_at: nullableString,
  outcome: z.enum(reportOutcomes).nullable(),
})

/** One report for its review page: the report, and the reported member's other reports. */
export const moderationReportDetailSchema = moderationReportSchema
  .extend({ history: z.array(historyItemSchema).meta({ description: 'Other reports about the reported member, newest first (up to 50).' }) })
  .meta({ id: 'ModerationReportDetail' })
export type ModerationReportDetail = z.infer<typeof moderationReportDetailSchema>

// Acting on a report ----------------------------------------------------------------------------

/**
 * `POST v1/admin/reports/{id}/actions`: what the admin does and why (recorded in the audit log).
 * `suspended_until` (a calendar date, `YYYY-MM-DD`, after today in UTC) only for `suspend`.
 */
export const moderationActionInputSchema = z
  .object({
    action: z.enum(moderationActions, { error: 'action_invalid' }),
    reason: memberText(z.string({ error: 'reason_required' }).trim(), memberTextCodes, { multiline: true })
      .min(1, 'reason_required')
      .max(maxModerationReasonLength, 'reason_too_long'),
    suspended_until: z
      .string({ error: 'suspended_until_invalid' })
      .refine(isCalendarDate, 'suspended_until_invalid')
      .nullish(),
  })
  .meta({ id: 'ModerationActionInput' })
export type ModerationActionInput = z.infer<typeof moderationActionInputSchema>

/** What an action did: the outcome and how many open reports it resolved. */
export const moderationResultSchema = z
  .object({ outcome: z.enum(reportOutcomes), resolved_reports: z.number().int() })
  .meta({ id: 'ModerationResult' })
export type ModerationResult = z.infer<typeof moderationResultSchema>
