/**
 * Invitations (issue 12 §3, decision 019). Any member can host, and members are targeted by
 * scammers: a host who types someone's email address no longer seats them. Each member found
 * gets one invitation to the activity (`experience.invited`, emailed in their language through
 * the outbox) and is seated only when they accept it, under the same rules as attending (never
 * over capacity). One invitation per member and activity: inviting again sends nothing more.
 */
import { isFull } from '#contract/experience-rules.ts'
import { maxInvitationsPerDay } from '#contract/limits.ts'
import type { AddByEmailsResult } from '#contract/experiences.ts'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requireWithinLimit } from '../http/security.ts'
import { visibleMembers } from '../policy/members.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { checkOpen } from './attendance.ts'
import { answerInvitation, fullProblem, takeSeat } from './seats.ts'
import { getExperience, serializeExperience, type NotifyingDeps } from './service.ts'

const invitationLimit = { name: 'invitations', max: maxInvitationsPerDay, windowSeconds: 24 * 60 * 60 }

const noInvitation = () => problems.notFound('You have no invitation to this activity.')

/**
 * Invites the members with these addresses (host or admin). The answer is the same whether or not
 * an address belongs to a member, or to one already going (issue 29 §5, decision 066): every
 * address is `invited_if_member`; all are `full` when the activity has no seat (nobody is invited,
 * nothing looked up). A host may not learn from it who is a member. At most `maxInvitationsPerDay`
 * addresses a day per inviting member (429 `too_many_invitations`). An invitation is recorded and
 * emailed once, in the transaction that records it; a member invited before, whatever they
 * answered, is not emailed again.
 */
export async function inviteByEmail({ db, notify }: NotifyingDeps, caller: User, idOrSlug: string, emails: string[]): Promise<AddByEmailsResult> {
  const experience = await getExperience(db, idOrSlug)
  requirePermission(caller, 'add:attendees', experience)
  checkOpen(experience)
  const unique = [...new Set(emails.filter(Boolean))]
  if (unique.length === 0) return { invited_if_member: [], full: [] }
  // Full: nobody is invited, and nothing is looked up.
  if (isFull(experience)) return { invited_if_member: [], full: unique }
  // Every address typed counts, found or not: a host cannot test thousands of addresses a day.
  const tooMany = (retryAfter: number) => problems.tooMany('too_many_invitations', `You can invite at most ${maxInvitationsPerDay} addresses a day.`, retryAfter)
  await requireWithinLimit(db, invitationLimit, caller.id, tooMany, unique.length)
  await db.transaction().execute(async (trx) => {
    const invitees = await trx
      .selectFrom('users as u')
      .select('u.id')
      .where('u.email', 'in', unique)
      .where(visibleMembers('u'))
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('experience_attendees as a').select('a.user_id').whereRef('a.user_id', '=', 'u.id').where('a.experience_id', '=', experience.id))),
      )
      .execute()
    if (invitees.length === 0) return
    const created = await trx
      .insertInto('experience_invitations')
      .values(invitees.map(({ id }) => ({ experience_id: experience.id, user_id: id, invited_by: caller.id })))
      .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute()
    await notify({ type: 'experience.invited', to: created.map((row) => row.user_id), data: { experience_id: experience.id, invited_by: caller.id } }, trx)
  })
  return { invited_if_member: unique, full: [] }
}

/** The caller's invitation to the activity, locked until the transaction ends; 404 when none. */
async function lockInvitation(trx: Trx, caller: User, experienceId: string) {
  const invitation = await trx
    .selectFrom('experience_invitations')
    .select(['user_id', 'state'])
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', caller.id)
    .forUpdate()
    .executeTakeFirst()
  if (!invitation) throw noInvitation()
  requirePermission(caller, 'respond:invitation', invitation)
  return invitation
}

/**
 * The invited member accepts: seated as attending would seat them (never over capacity; full →
 * 409 `experience_full`, the invitation still open and the notify list offered), unless they
 * declined it (409 `invitation_declined`) or the activity has started or been cancelled.
 * Accepting again while seated changes nothing.
 */
export async function acceptInvitation(db: DB, media: MediaStorage, caller: User, idOrSlug: string) {
  const experience = await getExperience(db, idOrSlug)
  await db.transaction().execute(async (trx) => {
    // The activity's row lock first, as every seat change takes it (no deadlock with attending).
    await trx.selectFrom('experiences').select('id').where('id', '=', experience.id).forNoKeyUpdate().execute()
    const invitation = await lockInvitation(trx, caller, experience.id)
    if (invitation.state === 'declined') throw problems.conflict('invitation_declined', 'You declined this invitation.')
    checkOpen(experience)
    const seat = await takeSeat(trx, experience.id, caller.id)
    // A full activity throws, which rolls the seat back and leaves the invitation open.
    if (seat === 'full') throw fullProblem()
    // A seat taken answers the invitation (takeSeat); one already held is answered here.
    if (seat === 'attending') await answerInvitation(trx, experience.id, caller.id, 'accepted')
  })
  return serializeExperience(db, media, await getExperience(db, experience.id), caller)
}

/**
 * The invited member declines (idempotent; also once the activity has started or been
 * cancelled). An accepted invitation is not declined: the member cancels their seat instead
 * (409 `invitation_accepted`). The host is not told.
 */
export async function declineInvitation(db: DB, caller: User, idOrSlug: string) {
  const experience = await getExperience(db, idOrSlug)
  await db.transaction().execute(async (trx) => {
    const invitation = await lockInvitation(trx, caller, experience.id)
    if (invitation.state === 'accepted') {
      throw problems.conflict('invitation_accepted', 'You accepted this invitation: cancel your seat instead.')
    }
    await answerInvitation(trx, experience.id, caller.id, 'declined')
  })
}
