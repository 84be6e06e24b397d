/**
 * Seats under the activity's row lock (never over capacity), the notify list's freed seats and
 * what the host hears of them: the primitives attendance, invitations and the activity's own
 * changes (a capacity raised) share, apart from both so that neither imports the other.
 */
import { sql } from 'kysely'
import { hasStarted } from '#contract/experience-rules.ts'
import type { Trx } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import type { Notify } from '../notifications/service.ts'
import { visibleMembers } from '../policy/members.ts'

/** Notify-list rules: more than 24 h before the start the first member is seated at once. */
export const PROMOTION_WINDOW_MS = 24 * 3_600_000

export const fullProblem = () =>
  problems.conflict('experience_full', 'This activity is full. You can join the notify list to hear when a seat frees up.')

/**
 * Seats `userId` inside `trx`, never over capacity: the attendee row first (a concurrent
 * duplicate waits on the primary key), then a guarded count increment. Answers 'attending'
 * when they already were; 'full' after undoing the row when no seat was left. A seat taken
 * answers the member's pending invitation, if any: they are going (decision 019).
 */
export async function takeSeat(trx: Trx, experienceId: string, userId: string): Promise<'added' | 'attending' | 'full'> {
  // Row lock first, in the same order as seat cancellation and promotion (no deadlocks).
  await trx.selectFrom('experiences').select('id').where('id', '=', experienceId).forNoKeyUpdate().execute()
  const inserted = await trx
    .insertInto('experience_attendees')
    .values({ experience_id: experienceId, user_id: userId })
    .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  if (!inserted) return 'attending'
  const seated = await sql<{ id: string }>`
    UPDATE experiences SET attendees_count = attendees_count + 1, updated_at = now()
    WHERE id = ${experienceId} AND canceled_at IS NULL
      AND (max_attendees IS NULL OR max_attendees = 0 OR attendees_count < max_attendees)
    RETURNING id
  `.execute(trx)
  if (seated.rows.length === 0) {
    await trx.deleteFrom('experience_attendees').where('experience_id', '=', experienceId).where('user_id', '=', userId).execute()
    return 'full'
  }
  await trx.deleteFrom('waitlist_entries').where('experience_id', '=', experienceId).where('user_id', '=', userId).execute()
  await answerInvitation(trx, experienceId, userId, 'accepted')
  return 'added'
}

/** Answers the member's pending invitation to the activity, if they hold one (decision 019). */
export async function answerInvitation(trx: Trx, experienceId: string, userId: string, answer: 'accepted' | 'declined') {
  await trx
    .updateTable('experience_invitations')
    .set({ state: answer, answered_at: new Date() })
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .execute()
}

/**
 * Notify-list rules for `seats` freed seats: more than 24 h before the start (or undated) the
 * first members in join order are seated at once (`waitlist.selected`); within 24 h everyone on
 * the list hears of it (`waitlist.seat_available`) and the first to attend takes the seat.
 */
/** The notify list in join order, members others may see only (a suspended member is not offered a seat). */
function waitingMembers(trx: Trx, experienceId: string) {
  return trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select('w.user_id')
    .where('w.experience_id', '=', experienceId)
    .where(visibleMembers('u'))
    .orderBy('w.created_at')
    .orderBy('w.user_id')
}

export async function offerFreedSeats(trx: Trx, notify: Notify, experience: Experience, seats: number) {
  const now = Date.now()
  if (experience.canceled_at || hasStarted(experience.start_at, now) || seats <= 0) return
  const farAhead = experience.start_at === null || experience.start_at.getTime() - now > PROMOTION_WINDOW_MS
  if (!farAhead) {
    const everyone = await waitingMembers(trx, experience.id).execute()
    await notify({ type: 'waitlist.seat_available', to: everyone.map((entry) => entry.user_id), data: { experience_id: experience.id } }, trx)
    return
  }
  let seated = 0
  while (seated < seats) {
    const next = await waitingMembers(trx, experience.id).limit(1).executeTakeFirst()
    if (!next) return
    const outcome = await takeSeat(trx, experience.id, next.user_id)
    if (outcome === 'full') return
    await trx.deleteFrom('waitlist_entries').where('experience_id', '=', experience.id).where('user_id', '=', next.user_id).execute()
    if (outcome === 'added') {
      seated++
      await notify({ type: 'waitlist.selected', to: [next.user_id], data: { experience_id: experience.id } }, trx)
      await tellHost(trx, notify, experience, next.user_id, 'experience.attendee_joined')
    }
  }
}

/** The host hears that someone took or gave up a seat at their activity (the `hosting` topic), never of their own. */
export async function tellHost(trx: Trx, notify: Notify, experience: Pick<Experience, 'id' | 'host_id'>, attendeeId: string, type: 'experience.attendee_joined' | 'experience.attendee_left') {
  if (!experience.host_id || experience.host_id === attendeeId) return
  await notify({ type, to: [experience.host_id], data: { experience_id: experience.id, attendee_id: attendeeId } }, trx)
}
