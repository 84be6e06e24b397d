import type { DB } from '../db/database.ts'

/**
 * Whether `userId` holds a seat at the activity (cancelling an activity keeps its seats). Apart,
 * with no other import, so that what decides whether news is still true (api/notifications) reads
 * it without reaching the services that notify (decision 067).
 */
export async function holdsSeat(db: DB, experienceId: string, userId: string) {
  const seat = await db
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return seat !== undefined
}
