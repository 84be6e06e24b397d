import { sql } from 'kysely'
import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { visibleMembers } from '../policy/members.ts'

/**
 * The weekly "activities near you" (issue 15 §1, decision 051): once a week, every member who
 * turned the `recommendations` topic on for at least one channel and has a home location hears of
 * up to five upcoming activities within 25 miles, soonest first, that they neither host nor hold
 * a seat at (nor wait for), with a seat still free, whose host is a member others may see and is
 * in no block relation with them. Members are read in batches (keyset on their id), so however
 * many there are, one batch is in memory at a time. A member told in the last 6 days is skipped:
 * running twice in the same week tells nobody twice.
 */
/** Mondays at 15:00 UTC: the morning in the Americas, the afternoon in Europe. */
export const recommendCron = '0 15 * * 1'

export const RECOMMEND_RADIUS_MILES = 25
export const RECOMMEND_LIMIT = 5
const METERS_PER_MILE = 1609.344
const BATCH_SIZE = 500
/** Less than a week, so a run a little early next Monday still goes out. */
const ONCE_PER_DAYS = 6

/** One batch of opted-in members after `after` (by id), each with the activities to suggest (possibly none). */
async function recommendationBatch(db: DB, after: string | null, now: Date, batchSize: number) {
  const meters = RECOMMEND_RADIUS_MILES * METERS_PER_MILE
  const since = new Date(now.getTime() - ONCE_PER_DAYS * 86_400_000)
  const { rows } = await sql<{ id: string; experience_ids: string[] }>`
    SELECT u.id, ARRAY(
      SELECT e.id FROM experiences e
      LEFT JOIN users h ON h.id = e.host_id
      WHERE e.canceled_at IS NULL
        AND e.start_at > ${now}
        AND e.latitude IS NOT NULL AND e.longitude IS NOT NULL
        AND earth_box(ll_to_earth(u.lat, u.long), ${meters}::float8) @> ll_to_earth(e.latitude, e.longitude)
        AND earth_distance(ll_to_earth(u.lat, u.long), ll_to_earth(e.latitude, e.longitude)) <= ${meters}::float8
        AND (e.max_attendees IS NULL OR e.attendees_count < e.max_attendees)
        AND e.host_id IS DISTINCT FROM u.id
        AND (e.host_id IS NULL OR ${visibleMembers('h')})
        AND NOT EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.experience_id = e.id AND w.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM blocks b
          WHERE (b.blocker_id = u.id AND b.blocked_id = e.host_id) OR (b.blocker_id = e.host_id AND b.blocked_id = u.id))
      ORDER BY e.start_at, e.id
      LIMIT ${RECOMMEND_LIMIT}
    )::text[] AS experience_ids
    FROM users u
    WHERE ${visibleMembers('u')}
      AND u.lat IS NOT NULL AND u.long IS NOT NULL
      AND (${after}::uuid IS NULL OR u.id > ${after}::uuid)
      AND EXISTS (SELECT 1 FROM notification_workflow_settings s
        WHERE s.user_id = u.id AND s.template_id = 'recommendations' AND s.enabled)
      AND NOT EXISTS (SELECT 1 FROM notifications n
        WHERE n.user_id = u.id AND n.type = 'experience.recommended' AND n.created_at > ${since})
    ORDER BY u.id
    LIMIT ${batchSize}`.execute(db)
  return rows
}

/**
 * Sends this week's `experience.recommended` to every member it is for (see above), one
 * notification each (delivery then picks the channels by the member's settings and quiet hours).
 * Answers how many members were told. Safe to run again: whoever was told in the last 6 days is
 * not told again.
 */
export async function recommendActivities(db: DB, notify: Notify, options: { now?: Date; batchSize?: number } = {}) {
  const now = options.now ?? new Date()
  const batchSize = options.batchSize ?? BATCH_SIZE
  let after: string | null = null
  let told = 0
  for (;;) {
    const batch = await recommendationBatch(db, after, now, batchSize)
    for (const member of batch) {
      if (member.experience_ids.length === 0) continue
      await notify({ type: 'experience.recommended', to: [member.id], data: { experience_ids: member.experience_ids } })
      told++
    }
    if (batch.length < batchSize) return told
    after = batch[batch.length - 1]!.id
  }
}

/**
 * The weekly run on the PostgreSQL queue; a failed run, or one cut short by its instance dying, is
 * tried again shortly (whoever was told is skipped).
 */
export const recommendJob = defineJob({
  name: 'recommendations.weekly',
  payload: z.object({}),
  schedule: { cron: recommendCron },
  retryLimit: 3,
  retryDelaySeconds: 15,
  retryDelayMaxSeconds: 600,
  async handler(_, { db, notify, logger }: { db: DB; notify: Notify; logger: Logger }) {
    const told = await recommendActivities(db, notify)
    logger.info({ job: 'recommendations.weekly', told }, 'Weekly activity suggestions sent')
  },
})
export const RECOMMEND_JOB = recommendJob.name
