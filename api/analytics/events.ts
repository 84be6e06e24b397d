import type { DB } from '../db/database.ts'
import { findExperience } from '../experiences/service.ts'

/**
 * What the routes that record events read before they act (decision 081), so that an event counts
 * what changed: a seat taken again (attending is idempotent) or a mark given again is not a new
 * RSVP or a new attendance.
 */

/** Whether `userId` holds a seat at the activity `idOrSlug` now. */
export async function holdsSeat(db: DB, idOrSlug: string, userId: string): Promise<boolean> {
  const experience = await findExperience(db, idOrSlug)
  if (!experience) return false
  const seat = await db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).where('user_id', '=', userId).executeTakeFirst()
  return seat !== undefined
}

/** The marks the host has given at the activity `idOrSlug`: member → came. */
export async function attendanceMarksOf(db: DB, idOrSlug: string): Promise<Map<string, boolean>> {
  const experience = await findExperience(db, idOrSlug)
  if (!experience) return new Map()
  const rows = await db.selectFrom('attendance_marks').select(['user_id', 'present']).where('experience_id', '=', experience.id).execute()
  return new Map(rows.map((row) => [row.user_id, row.present]))
}
