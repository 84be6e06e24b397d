/** The activity as an iCalendar file (RFC 5545), for "Add to calendar". */
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { problems } from '../http/errors.ts'
import { can } from '../policy/permissions.ts'
import { activityIcal } from './calendar-file.ts'
import { getReadableExperience } from './service.ts'

/** The file itself (also what the change and cancellation emails carry) is calendar-file.ts. */
export { foldLine } from './calendar-file.ts'

export async function experienceIcal(env: Env, db: DB, caller: User | null, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const { start_at: start } = experience
  if (!start) throw problems.conflict('experience_undated', 'This activity has no date yet.')
  return { slug: experience.slug, ics: activityIcal({ ...experience, start_at: start }, env.PUBLIC_URL, { details: can(caller, 'read:experience:details') }) }
}
