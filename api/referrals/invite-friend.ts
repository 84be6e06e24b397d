import { maxFriendInvitationsPerDay } from '#contract/referral-code.ts'
import type { InviteFriendResult } from '#contract/referrals.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { Trx } from '../db/database.ts'
import type { Experience, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requireWithinLimit } from '../http/security.ts'
import { emailT } from '../i18n.ts'
import type { Notify } from '../notifications/service.ts'
import { visibleMembers } from '../policy/members.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { Mailer, OutgoingEmail } from '../providers/email/mailer.ts'
import { checkOpen } from '../experiences/attendance.ts'
import { getExperience } from '../experiences/service.ts'
import { codeOf, keyedHash, normalizeEmail, referralsOn, type AttributionDeps } from './service.ts'
import type { DB } from '../db/database.ts'

/**
 * "Invite a friend" from an activity (issue 33 §1, decision 087): its host and whoever holds a
 * seat may invite one address at a time. A member there gets an invitation to the activity as a
 * host's would (`experience.invited`, accepted or declined by them); anyone else an email from
 * Circle 55, in the inviter's language, naming the inviter's first name and the activity, whose
 * link (the inviter's invite link with the activity) leads to the activity after signing up.
 * The answer is the same either way (no membership oracle, decision 066), and an address is
 * emailed at most once per inviter and activity, however often it is typed (AFFiNE #6889).
 */

export interface InviteFriendDeps extends AttributionDeps {
  mailer: Mailer
  publicUrl: string
}

const friendLimit = {
  name: 'friend-invitations',
  max: maxFriendInvitationsPerDay,
  windowSeconds: 24 * 60 * 60,
}

export async function inviteFriend(
  deps: InviteFriendDeps,
  caller: User,
  idOrSlug: string,
  email: string,
): Promise<InviteFriendResult> {
  const { db } = deps
  // Referrals off for the caller (the `referrals` flag): this address does not exist for them.
  if (!(await referralsOn(db, caller))) throw problems.notFound('Not found.')
  const experience = await getExperience(db, idOrSlug)
  const seat = await db
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', experience.id)
    .where('user_id', '=', caller.id)
    .executeTakeFirst()
  requirePermission(caller, 'invite:friend', {
    host_id: experience.host_id,
    holds_seat: seat !== undefined,
  })
  checkOpen(experience)
  // Every address typed counts, sent or not: an inviter cannot test addresses for membership.
  const tooMany = (retryAfter: number) =>
    problems.tooMany(
      'too_many_invitations',
      `You can invite at most ${maxFriendInvitationsPerDay} friends a day.`,
      retryAfter,
    )
  await requireWithinLimit(db, friendLimit, caller.id, tooMany)
  const address = email.trim()
  await db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('friend_invitations')
      .values({
        inviter_id: caller.id,
        experience_id: experience.id,
        email_hash: keyedHash(deps.secret, 'invitee', normalizeEmail(address)),
      })
      .onConflict((oc) => oc.doNothing())
      .returning('email_hash')
      .executeTakeFirst()
    // Invited before by this member to this activity: nothing more is sent.
    if (!first) return
    const member = await trx
      .selectFrom('users as u')
      .select(['u.id', 'u.state'])
      .where('u.email', '=', address)
      .where('u.state', '<>', 'deleted')
      .executeTakeFirst()
    if (member) {
      await inviteMember(trx, deps.notify, caller, experience, member.id)
      return
    }
    await deps.mailer.send(await joinInvitation(trx, deps.publicUrl, caller, experience, address), {
      transaction: trx,
    })
  })
  return { email: address }
}

/** A member is invited as a host would invite them (once per activity), unless it is the inviter, they hold a seat, or others may not see them. */
async function inviteMember(
  trx: Trx,
  notify: Notify,
  caller: User,
  experience: Experience,
  memberId: string,
) {
  if (memberId === caller.id) return
  const visible = await trx
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', '=', memberId)
    .where(visibleMembers('u'))
    .executeTakeFirst()
  if (!visible) return
  const seated = await trx
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', experience.id)
    .where('user_id', '=', memberId)
    .executeTakeFirst()
  if (seated) return
  const created = await trx
    .insertInto('experience_invitations')
    .values({
      experience_id: experience.id,
      user_id: memberId,
      invited_by: caller.id,
      by_friend: true,
    })
    .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  if (created)
    await notify(
      {
        type: 'experience.invited',
        to: [memberId],
        data: { experience_id: experience.id, invited_by: caller.id, by_friend: true },
      },
      trx,
    )
}

/**
 * The email to someone who is not a member: from Circle 55, in the inviter's language, with the
 * inviter's first name, the activity (its city only: the address is for members) and the invite
 * link that brings them back to it once their account is made.
 */
async function joinInvitation(
  db: DB | Trx,
  publicUrl: string,
  caller: User,
  experience: Experience,
  to: string,
): Promise<OutgoingEmail> {
  const language = caller.locale ?? 'en'
  const t = emailT(language)
  const { code } = await codeOf(db, caller.id)
  const name = caller.first_name?.trim() || t('friendInvitation.someone')
  const when = experience.start_at
    ? formatZonedDateTime(experience.start_at, experience.timezone, language)
    : null
  const where =
    experience.venue_type === 'online'
      ? t('online')
      : [experience.city, experience.region].filter(Boolean).join(', ')
  const vars = { name, title: experience.title, when: when ?? '', where }
  const link = `${publicUrl}/i/${code}?activity=${experience.id}`
  const paragraphs = [
    t('greetingNoName'),
    t('friendInvitation.body', vars),
    [when ? t('when', vars) : t('noDate'), ...(where ? [t('where', { where })] : [])].join('\n'),
    t('friendInvitation.about'),
    `${t('friendInvitation.action')}\n${link}`,
    t('friendInvitation.ifUnknown', vars),
    t('signature'),
  ]
  return {
    to,
    kind: 'friendInvitation',
    locale: language,
    subject: t('friendInvitation.subject', vars),
    text: paragraphs.join('\n\n'),
  }
}
