import { zonedParts, zonedTime } from '#contract/zoned-time.ts'

/**
 * Quiet hours (issue 15 §2, decision 047): no push and no text between 21:00 and 08:00 in the
 * member's time zone, unless the activity the news is about starts before 10:00 and soon (a 2-hour
 * reminder at 06:30 for an 08:30 walk is wanted). What is held back goes out at 08:00.
 */
export const QUIET_FROM_HOUR = 21
export const QUIET_UNTIL_HOUR = 8
/** An activity starting before this hour may be announced during quiet hours… */
const EARLY_START_HOUR = 10
/** …when it starts within this many hours (the morning after, not next week's early walk). */
const EARLY_START_WITHIN_HOURS = 14

const HOUR = 3_600_000

/**
 * When push and text may go out for news reaching a member in `timeZone` at `now`: `null` at
 * once, else the end of the quiet hours. `activity`: the activity the news is about, if any.
 */
export function quietUntil(now: Date, timeZone: string, activity?: { startAt: Date; timeZone: string } | null): Date | null {
  const local = zonedParts(now.getTime(), timeZone)
  const quiet = local.hour >= QUIET_FROM_HOUR || local.hour < QUIET_UNTIL_HOUR
  if (!quiet) return null
  if (activity) {
    const untilStart = activity.startAt.getTime() - now.getTime()
    const startsEarly = zonedParts(activity.startAt.getTime(), activity.timeZone).hour < EARLY_START_HOUR
    if (startsEarly && untilStart > 0 && untilStart <= EARLY_START_WITHIN_HOURS * HOUR) return null
  }
  // 08:00 today when it is past midnight, else 08:00 tomorrow (the calendar day after `local`).
  const day = local.hour < QUIET_UNTIL_HOUR ? local : zonedParts(now.getTime() + 12 * HOUR, timeZone)
  return zonedTime(day.year, day.month, day.day, QUIET_UNTIL_HOUR, 0, timeZone)
}
