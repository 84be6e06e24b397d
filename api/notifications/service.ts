import { sql, type Kysely, type Transaction } from 'kysely'
import { z } from 'zod'
import type { Database } from '../db/schema.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import { defaultGlobal, defaultTopics } from './preferences.ts'
import { topicOf } from './topics.ts'

/**
 * Notifications (ARCHITECTURE §1 "Events"): `notify(event)` records one notification per
 * recipient and queues its delivery job, both in the caller's transaction when it passes one,
 * so a rolled-back cancellation notifies nobody and a committed one always has its jobs. The
 * job delivers it by the member's settings (delivery.ts, decision 047).
 */

/**
 * The event types (spec §3: `sample`, `message.new`, `waitlist.selected`), with the data each
 * carries, plus the ones the product sends today: a seat freed within 24 hours of the start
 * (everyone on the notify list hears of it) and an activity cancelled by its organizer.
 */
export interface NotificationData {
  sample: Record<string, never>
  'message.new': { channel_id: string; message_id: string }
  'waitlist.selected': { experience_id: string }
  'waitlist.seat_available': { experience_id: string }
  /** `canceled_by`: the host, or an admin (the email says who); older rows may lack it. */
  'experience.canceled': { experience_id: string; canceled_by: string }
  /** A host invited the member to their activity (`invited_by`: the host's user id). */
  'experience.invited': { experience_id: string; invited_by: string }
  /** An identity verification request was approved or rejected (decision 025); the reason is read from the row. */
  'verification.decided': { verification_id: string; outcome: 'approved' | 'rejected' }
  /** "Did you go to …?" after an activity ended (decision 046): once per attendee per activity. */
  'experience.attendance_survey': { experience_id: string }
  /** A reminder 24 or 2 hours before an activity (`start_at`: the start it was scheduled for, ISO). */
  'experience.reminder': { experience_id: string; slot: '24h' | '2h'; start_at: string }
  /** The host or an admin changed the time or the place of an activity the member attends. */
  'experience.changed': { experience_id: string; changes: ('time' | 'place')[] }
  /** Someone took a seat at, or left, an activity the member hosts. */
  'experience.attendee_joined': { experience_id: string; attendee_id: string }
  'experience.attendee_left': { experience_id: string; attendee_id: string }
  /** A report the member made was handled (never its outcome, issue 14 §5). */
  'report.handled': { report_id: string }
  /** The weekly "activities near you" (opt-in). */
  'experience.recommended': { experience_ids: string[] }
}

export type NotificationType = keyof NotificationData

export const notificationTypes = [
  'sample',
  'message.new',
  'waitlist.selected',
  'waitlist.seat_available',
  'experience.canceled',
  'experience.invited',
  'verification.decided',
  'experience.attendance_survey',
  'experience.reminder',
  'experience.changed',
  'experience.attendee_joined',
  'experience.attendee_left',
  'report.handled',
  'experience.recommended',
] as const satisfies readonly NotificationType[]

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
  retryLimit: 5,
  retryDelaySeconds: 15,
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
    const topic = topicOf[event.type]
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
