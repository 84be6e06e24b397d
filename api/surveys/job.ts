import type { DB } from '../db/database.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { askAttendance } from './service.ts'

/**
 * "Did you go to …?" notifications (decision 046): a recurring job on the PostgreSQL queue finds
 * activities that have ended and notifies each attendee once. The popup itself needs no job: it is
 * computed when the member's popups are read, so it shows the moment the activity ends.
 */
export const askAttendanceJob = 'survey.ask-attendance'
const askAttendanceCron = '*/10 * * * *'

export async function scheduleAttendanceSurveys(services: {
  db: DB
  queue: JobQueue
  notify: Notify
  logger: Logger
}) {
  // A run cut short (its instance died) or failed is tried again shortly, then at the next tick;
  // the popups rows make it idempotent.
  await services.queue.define(askAttendanceJob, { retryLimit: 2 })
  await services.queue.work(askAttendanceJob, async () => {
    const asked = await askAttendance(services.db, services.notify)
    if (asked > 0) services.logger.info({ job: askAttendanceJob, asked }, 'Attendance surveys sent')
  })
  await services.queue.schedule(askAttendanceJob, askAttendanceCron)
}
