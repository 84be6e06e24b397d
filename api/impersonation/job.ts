import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { endExpired } from './service.ts'

/**
 * Viewing as a member ends by itself after 30 minutes (decision 078): every five minutes, those
 * run out are ended and each member told, even when the staff member never made another call.
 * (A call made after the end is refused at once, whether or not this ran.)
 */
export const impersonationsJob = defineJob({
  name: 'impersonations.expire',
  payload: z.object({}),
  schedule: { cron: '*/5 * * * *' },
  retryLimit: 2,
  async handler(_, services: { db: DB; notify: Notify; logger: Logger }) {
    const ended = await services.db.transaction().execute((trx) => endExpired(trx, services.notify))
    if (ended > 0) services.logger.info({ job: 'impersonations.expire', ended }, 'Viewing as members ended')
  },
})
