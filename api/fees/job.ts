import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import type { PaymentsProvider } from '../providers/payments/provider.ts'
import { assessFees, chargeDueFees, waiveUnpaidFees } from './service.ts'

/**
 * The no-show fee's clock (decision 075), every ten minutes on the PostgreSQL queue: fees worked
 * out a day after the host confirmed who came (and their notices sent), charged once their notice
 * has run, dropped after 14 days unpaid. Each step is idempotent (row locks, unique fees, the
 * charge's idempotency key), so a run repeated, overlapping or cut short charges nobody twice.
 */
export const feesJob = defineJob({
  name: 'fees.sweep',
  payload: z.object({}),
  schedule: { cron: '*/10 * * * *' },
  retryLimit: 2,
  async handler(_, services: { db: DB; notify: Notify; payments: PaymentsProvider; logger: Logger }) {
    const assessed = await assessFees(services)
    const charged = await chargeDueFees(services)
    const dropped = await waiveUnpaidFees(services)
    if (assessed + charged + dropped > 0) services.logger.info({ job: 'fees.sweep', assessed, charged, dropped }, 'No-show fees moved on')
  },
})
