import { z } from 'zod'
import type { ChatMirror } from '../chat/mirror.ts'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import { liftEndedSuspensions } from './service.ts'

interface LiftServices {
  db: DB
  chatMirror: ChatMirror
  logger: Logger
}

/**
 * Suspensions end on time (decision 042): a recurring job on the PostgreSQL queue lifts every
 * suspension whose end date has passed, writes the audit log (the system as the actor) and, with
 * Stream as the chat service, lifts the member's ban there and puts them back in their channels.
 * Before it, a suspension ended only at the member's next request (decision 037), and meanwhile
 * other members still saw them as suspended (chat search left them out, messaging them was refused).
 */
export const liftSuspensionsJob = defineJob({
  name: 'moderation.lift-ended-suspensions',
  payload: z.object({}),
  // Every 5 minutes (UTC). A suspension ends at midnight UTC of its end date, so members are back
  // within minutes of it; the look is one indexed query over suspended members only (migration 0019).
  schedule: { cron: '*/5 * * * *' },
  // A run cut short (its instance died) or failed is tried again shortly, then at the next tick.
  retryLimit: 2,
  async handler(_, services: LiftServices) {
    const lifted = await liftEndedSuspensions(services.db, services.chatMirror)
    if (lifted.length > 0) services.logger.info({ job: 'moderation.lift-ended-suspensions', lifted: lifted.length }, 'Ended suspensions lifted')
  },
})
