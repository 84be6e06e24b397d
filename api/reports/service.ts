import type { ReportInput } from '#contract/reports.ts'
import type { ReportSnapshot } from '#contract/moderation.ts'
import { blockInTransaction, type BlockDeps } from '../blocks/service.ts'
import { readableChannel } from '../chat/service.ts'
import type { Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { requirePermission } from '../policy/permissions.ts'
import {
  experienceSnapshot,
  lastReadableMessages,
  memberSnapshot,
  messageChannelId,
  reportableExperience,
  reportableMember,
  snapshotMessages,
  visibleMessage,
} from './queries.ts'

/** How many of a channel's last messages its snapshot keeps. */
export const channelSnapshotMessages = 20

/** What a report is about, resolved: the snapshot, the member behind it (if any) and the ids to store. */
interface Resolved {
  snapshot: ReportSnapshot
  /** The member the report is about: the member, the message's sender, the direct channel's other member, the activity's host. */
  memberId: string | null
  experienceId: string | null
  messageId: string | null
  channelId: string | null
}

/**
 * A channel the caller may read, or 404: reporting never reveals a channel (an activity's chat
 * answers 403 to outsiders when read; here it is 404 like everything else one cannot see).
 */
async function channelForReport(db: Trx, caller: User, channelId: string, what = 'Channel not found') {
  try {
    return await readableChannel(db, caller, channelId)
  } catch (error) {
    if (error instanceof ApiProblem && (error.status === 403 || error.status === 404)) throw problems.notFound(what)
    throw error
  }
}

async function resolveTarget(trx: Trx, caller: User, input: ReportInput): Promise<Resolved> {
  const none = { experienceId: null, messageId: null, channelId: null }
  if (input.message_id) {
    const channelId = await messageChannelId(trx, input.message_id)
    if (!channelId) throw problems.notFound('Message not found')
    const { row } = await channelForReport(trx, caller, channelId, 'Message not found')
    const message = await visibleMessage(trx, channelId, input.message_id, row.read_until)
    // Product messages have no author to report; a removed or hidden message is gone.
    if (!message || !message.user_id) throw problems.notFound('Message not found')
    if (message.user_id === caller.id) throw problems.invalid({ message_id: ['cannot_report_self'] })
    const [kept] = await snapshotMessages(trx, [message])
    return {
      ...none,
      snapshot: { kind: 'message', channel_id: channelId, message: kept! },
      memberId: message.user_id,
      messageId: message.id,
      channelId,
    }
  }
  if (input.channel_id) {
    const { row } = await channelForReport(trx, caller, input.channel_id)
    const messages = await snapshotMessages(trx, await lastReadableMessages(trx, caller.id, row.id, row.read_until, channelSnapshotMessages))
    return {
      ...none,
      snapshot: {
        kind: 'channel',
        channel_id: row.id,
        channel_kind: row.kind,
        experience_title: row.e_title,
        messages,
      },
      memberId: row.kind === 'direct' ? row.other_id : null,
      channelId: row.id,
      experienceId: row.experience_id,
    }
  }
  if (input.user_id) {
    if (input.user_id === caller.id) throw problems.invalid({ user_id: ['cannot_report_self'] })
    const member = await reportableMember(trx, input.user_id)
    if (!member) throw problems.notFound('User not found')
    return { ...none, snapshot: memberSnapshot(member), memberId: member.id }
  }
  if (input.experience_id) {
    const experience = await reportableExperience(trx, input.experience_id)
    if (!experience) throw problems.notFound('Activity not found')
    return { ...none, snapshot: experienceSnapshot(experience), memberId: experience.host_id, experienceId: experience.id }
  }
  throw problems.invalid({ target: ['target_required'] })
}

/**
 * Records a member's report of an activity, a member, a message or a channel for the moderators
 * (decision 037): exactly one target, which the caller can see (404 otherwise, never revealing a
 * channel); a snapshot of it is kept with the report. With `block`, the caller also blocks the
 * member behind it, in the same transaction.
 */
export async function createReport({ db, chatMirror }: BlockDeps, caller: User, input: ReportInput) {
  requirePermission(caller, 'create:report')
  const targets = [input.experience_id, input.user_id, input.message_id, input.channel_id].filter(Boolean)
  if (targets.length === 0) throw problems.invalid({ target: ['target_required'] })
  if (targets.length > 1) throw problems.invalid({ target: ['target_ambiguous'] })

  return db.transaction().execute(async (trx) => {
    const target = await resolveTarget(trx, caller, input)
    if (input.block) {
      if (!target.memberId || target.memberId === caller.id) throw problems.invalid({ block: ['nothing_to_block'] })
      await blockInTransaction(trx, chatMirror, caller, target.memberId)
    }
    const report = await trx
      .insertInto('reports')
      .values({
        reporter_id: caller.id,
        reason: input.reason,
        details: input.details ?? '',
        experience_id: target.experienceId,
        reported_user_id: target.memberId,
        message_id: target.messageId,
        channel_id: target.channelId,
        snapshot: JSON.stringify(target.snapshot),
      })
      .returning(['id', 'reason', 'created_at'])
      .executeTakeFirstOrThrow()
    return { id: report.id, reason: report.reason, created_at: report.created_at.toISOString() }
  })
}
