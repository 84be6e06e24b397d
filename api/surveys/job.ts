import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { askAttendance } from './service.ts'

/**
 * "Did you go to …?" notifications (decision 046): a recurring job on the PostgreSQL queue finds
 * activities that have ended and notifies each attendee once. The popup itself needs no job: it is
 * computed when the member's popups are read, so it shows the moment the activity ends.
 */
export const askAttendanceJob = defineJob({
  name: 'survey.ask-attendance',
  payload: z.object({}),
  schedule: { cron: '*/10 * * * *' },
  // A run cut short (its instance died) or failed is tried again shortly, then at the next tick;
  // the popups rows make it idempotent.
  retryLimit: 2,
  async handler(_, { db, notify, logger }: { db: DB; notify: Notify; logger: Logger }) {
    const asked = await askAttendance(db, notify)
    if (asked > 0) logger.info({ job: 'survey.ask-attendance', asked }, 'Attendance surveys sent')
  },
})
