import { hasStarted } from '#contract/experience-rules.ts'
import type { DB } from '../db/database.ts'

/**
 * What the declarations of api/notifications/types read to decide whether news is still true
 * for a member when its delivery runs (their `stillFor`, decision 070). Reads only: this module
 * never reaches a service that notifies (decision 067).
 */

/** The activity, if it still takes place: not cancelled, not started. */
export async function upcomingActivity(db: DB, experienceId: string) {
  const experience = await db.selectFrom('experiences').select(['id', 'start_at', 'canceled_at']).where('id', '=', experienceId).executeTakeFirst()
  return experience && !experience.canceled_at && !hasStarted(experience.start_at) ? experience : null
}
