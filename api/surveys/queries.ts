import { sql, type Expression, type SqlBool } from 'kysely'
import { defaultDurationMinutes, maxDurationMinutes, surveyWindowDays } from '#contract/limits.ts'
import type { DB, Trx } from '../db/database.ts'

/**
 * The SQL the survey shares (decision 046). An activity's end is its `end_at`, or its start plus
 * the default length when it has none (as the calendar file reads it, api/experiences/ical.ts).
 */
export const experienceEnd = sql<Date>`coalesce(experiences.end_at, experiences.start_at + make_interval(mins => ${defaultDurationMinutes}))`

/** The activity has ended (and was not cancelled). */
function hasEnded(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`experiences.canceled_at is null and ${experienceEnd} <= ${now}`
}

/**
 * The activity ended within the survey's window: its attendees are still asked whether they went.
 * An activity lasts at most `maxDurationMinutes`, so one that ended within the window started
 * within the window and that length: the same bound on `start_at` alone changes no result and
 * lets the start index (experiences_start) narrow the rows before the exact end is computed.
 */
function endedWithinWindow(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`${hasEnded(now)} and ${experienceEnd} > ${now}::timestamptz - make_interval(days => ${surveyWindowDays})
    and experiences.start_at > ${now}::timestamptz - make_interval(days => ${surveyWindowDays}, mins => ${maxDurationMinutes})`
}

/** The seats (`experience_attendees` with their `experiences`) at activities that ended within the survey's window. */
export function recentlyEndedSeats(db: DB | Trx, now: Date) {
  return db
    .selectFrom('experience_attendees')
    .innerJoin('experiences', 'experiences.id', 'experience_attendees.experience_id')
    .where(endedWithinWindow(now))
}
