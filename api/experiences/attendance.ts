/**
 * Attendance and the notify list: seats taken and given back, the host's attendee list and CSV.
 * The seat itself (row lock, never over capacity, freed seats offered to the notify list) is in
 * seats.ts; invitations (seated only when the member accepts) are in invitations.ts.
 */
import { sql } from 'kysely'
import { pageMetadata } from '#contract/common.ts'
import { displayName } from '#contract/display-name.ts'
import { isFull, isLateCancel, isLimited } from '#contract/experience-rules.ts'
import { maxPerPage as MAX_PER_PAGE } from '#contract/limits.ts'
import { leaveExperienceChannel } from '../chat/queries.ts'
import type { DB, Trx } from '../db/database.ts'
import type { Experience, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import type { AfterCommit } from '../after-commit.ts'
import { membersInHistory, visibleMembers } from '../policy/members.ts'
import { can, isHostOf, requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { verifiedUserIds } from '../verification/service.ts'
import { bindFeeConsent, feeCardOrRefuse } from '../fees/consent.ts'
import { hasPremium } from '../subscriptions/queries.ts'
import { holdsSeat } from './holds-seat.ts'
import { fullProblem, offerFreedSeats, takeSeat, tellHost } from './seats.ts'
import { refuseFeeConsentWhileImpersonating } from '../impersonation/service.ts'
import {
  canceledProblem,
  pastProblem,
  getExperience,
  getReadableExperience,
  hasStarted,
  serializeExperience,
  showsVerified,
  premiumProblem,
  type ExperienceDeps,
  type NotifyingDeps,
} from './service.ts'

/** Seats are taken only at an activity that is still on and has not started. */
export function checkOpen(experience: Experience) {
  if (experience.canceled_at) throw canceledProblem()
  if (hasStarted(experience, Date.now())) throw pastProblem()
}

/** The member's agreement to the activity's no-show fee, when they save their own seat at one (decision 075). */
export interface FeeConsentInput {
  fee_consent?: boolean | undefined
  fee_consent_language?: string | undefined
}

export async function attend({ db, media, notify, env }: NotifyingDeps & Pick<ExperienceDeps, 'env'>, caller: User, idOrSlug: string, userId: string, consent: FeeConsentInput = {}) {
  requirePermission(caller, 'create:attendance', { user_id: userId })
  const experience = await getExperience(db, idOrSlug)
  checkOpen(experience)
  if (userId !== caller.id) {
    const target = await db.selectFrom('users').select('id').where('id', '=', userId).where(visibleMembers()).executeTakeFirst()
    if (!target) throw problems.notFound('User not found')
  }
  if (experience.is_premium && userId === caller.id && !(await hasPremium(db, userId))) throw premiumProblem()
  // A seat at an activity with a fee is saved by its member only with their agreement and a card
  // to charge; a seat someone else gives them (an admin, the notify list) is never bound by it.
  const asksFee = experience.no_show_fee_cents !== null && env.PAYMENTS === 'on' && userId === caller.id
  if (asksFee && consent.fee_consent !== true) throw problems.invalid({ fee_consent: ['fee_consent_required'] })
  // The member's own agreement, never a staff member's on their behalf (decision 078).
  if (asksFee) refuseFeeConsentWhileImpersonating(caller, consent.fee_consent)
  await db.transaction().execute(async (trx) => {
    const card = asksFee ? await feeCardOrRefuse(trx, userId) : null
    // A full activity throws, which rolls the attendee row back with the transaction.
    const outcome = await takeSeat(trx, experience.id, userId)
    if (outcome === 'full') throw fullProblem()
    if (outcome === 'added') await tellHost(trx, notify, experience, userId, 'experience.attendee_joined')
    if (card && !(await seatIsBound(trx, experience.id, userId))) {
      await bindFeeConsent(trx, { userId, experience, language: consent.fee_consent_language ?? caller.locale ?? 'en', card })
    }
  })
  const fresh = await getExperience(db, experience.id)
  return serializeExperience(db, media, fresh, caller)
}

async function seatIsBound(trx: Trx, experienceId: string, userId: string) {
  const seat = await trx
    .selectFrom('experience_attendees')
    .select('fee_consent_id')
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return seat?.fee_consent_id != null
}

/**
 * Gives `userId`'s seat back inside `trx`: the count goes down, the cancellation is recorded (late
 * within the no-show window) and the notify list is offered the seat by its rules. Null when
 * they held no seat. Deleting an account releases its member's seats with it (api/users/account.ts).
 */
export async function releaseSeat(trx: Trx, { notify, chatMirror }: AfterCommit, experienceId: string, userId: string): Promise<{ late: boolean } | null> {
  await trx.selectFrom('experiences').select('id').where('id', '=', experienceId).forNoKeyUpdate().execute()
  const removed = await trx
    .deleteFrom('experience_attendees')
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', userId)
    .returning(['user_id', 'fee_consent_id'])
    .executeTakeFirst()
  if (!removed) return null
  const row = await trx
    .updateTable('experiences')
    .set({ attendees_count: sql`greatest(attendees_count - 1, 0)`, updated_at: new Date() })
    .where('id', '=', experienceId)
    .returningAll()
    .executeTakeFirstOrThrow()
  const late = isLateCancel(row.start_at)
  await trx
    .insertInto('attendance_cancellations')
    .values({
      experience_id: row.id,
      user_id: userId,
      is_late: late,
      no_show_fee_cents: late ? row.no_show_fee_cents : null,
      fee_consent_id: removed.fee_consent_id,
    })
    .execute()
  // Their activity chat: they keep what was posted until now, and nothing new (decision 029).
  await leaveExperienceChannel(trx, row.id, userId)
  await chatMirror.recordActivityChat(trx, row.id)
  if (!row.canceled_at) await tellHost(trx, notify, row, userId, 'experience.attendee_left')
  if (isLimited(row)) await offerFreedSeats(trx, notify, row, 1)
  return { late }
}

export async function cancelAttendance(deps: NotifyingDeps, caller: User, idOrSlug: string, userId: string) {
  const { db, media } = deps
  const experience = await getExperience(db, idOrSlug)
  // Not an id at all (a NUL byte, a name): nobody is attending under it.
  if (!isUuid(userId)) throw problems.notFound('This member is not attending.')
  requirePermission(caller, 'delete:attendance', { user_id: userId, experience })
  if (experience.canceled_at) throw canceledProblem()
  if (hasStarted(experience, Date.now())) throw pastProblem()
  const late = await db.transaction().execute(async (trx) => {
    const released = await releaseSeat(trx, deps, experience.id, userId)
    if (!released) throw problems.notFound('This member is not attending.')
    return released.late
  })
  const fresh = await getExperience(db, experience.id)
  return { data: [await serializeExperience(db, media, fresh, caller)], metadata: { late_cancellation: late } }
}

export async function listAttendees(db: DB, media: MediaStorage, caller: User, idOrSlug: string, page: number, perPageInput: number) {
  requirePermission(caller, 'read:attendees')
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const perPage = Math.min(perPageInput, MAX_PER_PAGE)
  const [rows, count] = await Promise.all([
    db
      .selectFrom('experience_attendees as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('media as m', 'm.id', 'u.avatar_media_id')
      .select([
        'u.id',
        'u.first_name',
        'u.last_name',
        'u.formatted_name',
        'u.name',
        'u.banned',
        'u.is_suspended',
        'u.state',
        'm.storage_key as avatar_key',
      ])
      .where('a.experience_id', '=', experience.id)
      .where(membersInHistory('u'))
      .orderBy('a.created_at')
      .orderBy('u.id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    db
      .selectFrom('experience_attendees as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('a.experience_id', '=', experience.id)
      .where(membersInHistory('u'))
      .executeTakeFirstOrThrow(),
  ])
  // One query for the whole page; `showsVerified` leaves out those under the generic label.
  const verified = await verifiedUserIds(db, rows.map((row) => row.id))
  return {
    data: rows.map((row) => ({
      id: row.id,
      display_name: row.state === 'deleted' ? null : displayName(row),
      avatar: row.avatar_key && !row.banned && !row.is_suspended ? { url: media.publicUrl(row.avatar_key) } : null,
      is_host: row.id === experience.host_id,
      is_verified: showsVerified(row, verified),
    })),
    metadata: pageMetadata(page, perPage, Number(count.count)),
  }
}

function csvCell(value: string) {
  // Leading formula characters are neutralised so spreadsheets do not evaluate them.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/**
 * The host's attendee CSV (decision 019): display names (spec §3's rule), when each member last
 * answered and what they answered, never an email address or a phone number. Everyone going,
 * in the order they saved their seat (`going`), then those who gave their seat back and have
 * not taken one since (`cancelled`, or `cancelled_late` within the no-show window), at their
 * latest cancellation. Members others may not see (suspended, banned, deleted) are left out.
 */
export async function attendeesCsv(db: DB, caller: User, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  requirePermission(caller, 'export:attendees', experience)
  const named = ['u.first_name', 'u.last_name', 'u.formatted_name', 'u.name', 'u.banned', 'u.is_suspended'] as const
  const [going, cancelled] = await Promise.all([
    db
      .selectFrom('experience_attendees as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select([...named, 'a.created_at'])
      .where('a.experience_id', '=', experience.id)
      .where(visibleMembers('u'))
      .orderBy('a.created_at')
      .orderBy('u.id')
      .execute(),
    db
      .selectFrom('attendance_cancellations as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .distinctOn('c.user_id')
      .select([...named, 'c.created_at', 'c.is_late'])
      .where('c.experience_id', '=', experience.id)
      .where(visibleMembers('u'))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('experience_attendees as a').select('a.user_id').whereRef('a.user_id', '=', 'c.user_id').where('a.experience_id', '=', experience.id),
          ),
        ),
      )
      .orderBy('c.user_id')
      .orderBy('c.created_at', 'desc')
      .execute(),
  ])
  const lines = [['name', 'rsvp_at', 'attendance']]
  for (const row of going) lines.push([displayName(row) ?? '', row.created_at.toISOString(), 'going'])
  const byCancellation = [...cancelled].sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
  for (const row of byCancellation) lines.push([displayName(row) ?? '', row.created_at.toISOString(), row.is_late ? 'cancelled_late' : 'cancelled'])
  return { slug: experience.slug, csv: lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n' }
}

// ---------------------------------------------------------------------------------------------
// Notify list

export async function joinWaitlist(db: DB, media: MediaStorage, caller: User, idOrSlug: string) {
  requirePermission(caller, 'join:waitlist')
  const experience = await getExperience(db, idOrSlug)
  checkOpen(experience)
  if (isHostOf(caller, experience)) throw problems.conflict('already_hosting', 'You host this activity: there is no seat to wait for.')
  if (await holdsSeat(db, experience.id, caller.id)) throw problems.conflict('already_attending', 'You are already attending this activity.')
  if (!isFull(experience)) throw problems.conflict('experience_not_full', 'A seat is free: attend instead.')
  if (experience.is_premium && !(await hasPremium(db, caller.id))) throw premiumProblem()
  await db
    .insertInto('waitlist_entries')
    .values({ experience_id: experience.id, user_id: caller.id })
    .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
    .execute()
  return serializeExperience(db, media, experience, caller)
}

export async function leaveWaitlist(db: DB, caller: User, idOrSlug: string) {
  const experience = await getExperience(db, idOrSlug)
  await db.deleteFrom('waitlist_entries').where('experience_id', '=', experience.id).where('user_id', '=', caller.id).execute()
}

export async function listWaitlist(db: DB, caller: User, idOrSlug: string, page: number, perPageInput: number) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const perPage = Math.min(perPageInput, MAX_PER_PAGE)
  const entries = await sql<{
    user_id: string
    position: number
    created_at: Date
    first_name: string | null
    last_name: string | null
    formatted_name: string | null
    name: string | null
    banned: boolean
    is_suspended: boolean
  }>`
    SELECT w.user_id, row_number() OVER (ORDER BY w.created_at, w.user_id)::int AS position, w.created_at,
      u.first_name, u.last_name, u.formatted_name, u.name, u.banned, u.is_suspended
    FROM waitlist_entries w JOIN users u ON u.id = w.user_id
    WHERE w.experience_id = ${experience.id} AND ${visibleMembers('u')}
    ORDER BY w.created_at, w.user_id
  `.execute(db)
  const all = entries.rows.map((row) => ({
    user_id: row.user_id,
    position: Number(row.position),
    display_name: displayName(row),
    joined_at: row.created_at.toISOString(),
  }))
  if (can(caller, 'read:waitlist', experience)) {
    return {
      data: all.slice((page - 1) * perPage, page * perPage),
      metadata: pageMetadata(page, perPage, all.length),
    }
  }
  const own = all.filter((entry) => entry.user_id === caller.id)
  return { data: own, metadata: { page: 1, total_pages: 1, total_count: all.length } }
}
