import { lateCancelWindowHours } from './limits.ts'

/**
 * The activity rules of spec §4 that the API applies and states in its answers (`is_full`,
 * `is_past`, `viewer.cancel_is_late`). Plain functions with no zod, so they may ship in browser
 * bundles; the web reads the API's answer rather than calling them.
 */

const lateCancelWindowMs = lateCancelWindowHours * 3_600_000

type Instant = Date | string | null | undefined
const time = (instant: Instant) => (instant === null || instant === undefined ? null : new Date(instant).getTime())

/** Spec §4/§9: a capacity above 0 is a limit; empty or 0 means unlimited. */
export function isLimited(experience: { max_attendees: number | null }) {
  return (experience.max_attendees ?? 0) > 0
}

/** Spec §4: full when max_attendees is above 0 and attendees_count has reached it. */
export function isFull(experience: { max_attendees: number | null; attendees_count: number }) {
  return isLimited(experience) && experience.attendees_count >= (experience.max_attendees ?? 0)
}

/** An activity is past once it has started; an undated one ("Coming soon") never is. */
export function hasStarted(startAt: Instant, now = Date.now()) {
  const start = time(startAt)
  return start !== null && start <= now
}

/**
 * Spec §4/§9: cancelling a seat within 12 hours before the start is late (the no-show fee
 * applies). An undated activity is never late to cancel.
 */
export function isLateCancel(startAt: Instant, now = Date.now()) {
  const start = time(startAt)
  return start !== null && start - now < lateCancelWindowMs
}
