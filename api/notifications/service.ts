import { sql, type Kysely, type Transaction } from 'kysely'
import { z } from 'zod'
import type { Database } from '../db/schema.ts'
import { defineJob, RETRIED_FOR_A_DAY } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { NotificationType } from '#contract/notifications.ts'
import { defaultGlobal, defaultTopics } from './preferences.ts'
import { notificationKind, type NotificationData } from './types/index.ts'

/**
 * Notifications (ARCHITECTURE §1 "Events"): `notify(event)` records one notification per
 * recipient and queues its delivery job, both in the caller's transaction when it passes one,
 * so a rolled-back cancellation notifies nobody and a committed one always has its jobs. The
 * job delivers it by the member's settings (delivery.ts, decision 047). Each type, the data it
 * carries and the topic that governs it are declared in api/notifications/types (decision 070).
 */

export type { NotificationData }

/**
 * One event for its recipients (user ids); nobody to tell is not an error. `deliverAfterSeconds`
 * holds delivery back (a new message: a member reading the chat hears nothing more of it).
 */
export type NotificationEvent = {
  [T in NotificationType]: { type: T; to: readonly string[]; data: NotificationData[T]; deliverAfterSeconds?: number }
}[NotificationType]

/**
 * Delivers one notification by its member's settings (decision 047), queued by `notify` with the
 * row. The work is delivery.ts's `deliverNotification`, handed to the job by the runtime
 * (`deliveryJobServices`): delivery.ts reads this module, so this one does not import it.
 */
export const notificationDeliveryJob = defineJob({
  name: 'notification.deliver',
  payload: z.object({ id: z.guid() }),
  // It puts the email in the outbox: an outage of the database or of a provider must not lose
  // it (issue 29 §5), so it is retried as long as the email itself would be.
  ...RETRIED_FOR_A_DAY,
  timeoutSeconds: 60,
  async handler({ id }, { deliverNotification, logger }: NotificationDeliveryServices) {
    const delivered = await deliverNotification(id)
    if (delivered) logger.debug({ job: 'notification.deliver', type: delivered.type, sent: delivered.sent }, 'Notification delivered')
  },
})
export const NOTIFICATION_DELIVERY_JOB = notificationDeliveryJob.name

export interface NotificationDeliveryServices {
  /** Sends what the member's settings ask for, once; null when the notification is gone. */
  deliverNotification: (id: string) => Promise<{ type: string; sent: readonly string[] } | null>
  logger: Logger
}

/** The PostgreSQL channel that tells every instance whose notifications changed (payload: the member's id), for live badges. */
export const notificationsNotifyChannel = 'notifications'

/**
 * Records `event` and queues its delivery; inside `transaction` when given (both happen only if
 * it commits), else in a transaction of its own. Answers the new notifications' ids.
 */
export type Notify = (event: NotificationEvent, transaction?: Transaction<Database>) => Promise<string[]>

export function createNotifier(options: { db: Kysely<Database>; queue: Pick<JobQueue, 'send'> }): Notify {
  const { db, queue } = options
  async function record(trx: Transaction<Database>, event: NotificationEvent) {
    const recipients = [...new Set(event.to)]
    if (recipients.length === 0) return []
    const topic = notificationKind(event.type)?.topic ?? null
    // Whether it shows in each member's list: their in-app switches (global and the topic's) over
    // the defaults, read in this one statement however many members are told (decision 047).
    const inApp = topic
      ? sql<boolean>`coalesce(g.enabled, ${defaultGlobal(false).in_app}) AND coalesce(w.enabled, ${defaultTopics[topic].in_app})`
      : sql<boolean>`true`
    // Recorded, and the open pages of those who will see it told (their badges, on every
    // instance, once this commits), in one statement (decision 047).
    const { rows } = await sql<{ id: string }>`
      WITH recorded AS (
        INSERT INTO notifications (user_id, type, data, in_app)
        SELECT r.id, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${inApp}
        FROM unnest(${recipients}::uuid[]) AS r(id)
        LEFT JOIN notification_global_settings g ON g.user_id = r.id AND g.channel = 'in_app'
        LEFT JOIN notification_workflow_settings w ON w.user_id = r.id AND w.template_id = ${topic ?? ''} AND w.channel = 'in_app'
        RETURNING id, user_id, in_app
      )
      SELECT id, CASE WHEN in_app THEN pg_notify(${notificationsNotifyChannel}, user_id::text) END AS told FROM recorded`.execute(trx)
    const ids = rows.map((row) => row.id)
    const later = event.deliverAfterSeconds ? { startAfter: new Date(Date.now() + event.deliverAfterSeconds * 1000) } : {}
    await queue.send(notificationDeliveryJob.name, ids.map((id) => ({ id })), { transaction: trx, ...later })
    return ids
  }
  return (event, transaction) => (transaction ? record(transaction, event) : db.transaction().execute((trx) => record(trx, event)))
}
