import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Database } from '../db/schema.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import { composeNotificationEmail } from './emails.ts'

/**
 * Notifications (ARCHITECTURE §1 "Events"): `notify(event)` records one notification per
 * recipient and queues its delivery job, both in the caller's transaction when it passes one,
 * so a rolled-back cancellation notifies nobody and a committed one always has its jobs.
 * Delivery by the member's settings (email, push, SMS) comes with the notifications issue;
 * until then the job emails the events a page promises to tell (emails.ts, decision 018) and
 * records that it ran (`delivered_at`).
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

/** One event for its recipients (user ids); nobody to tell is not an error. */
export type NotificationEvent = {
  [T in NotificationType]: { type: T; to: readonly string[]; data: NotificationData[T] }
}[NotificationType]

export const NOTIFICATION_DELIVERY_JOB = 'notification.deliver'

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
    const rows = await trx
      .insertInto('notifications')
      .values(recipients.map((userId) => ({ user_id: userId, type: event.type, data: JSON.stringify(event.data) })))
      .returning('id')
      .execute()
    const ids = rows.map((row) => row.id)
    await queue.send(NOTIFICATION_DELIVERY_JOB, ids.map((id) => ({ id })), { transaction: trx })
    return ids
  }
  return (event, transaction) => (transaction ? record(transaction, event) : db.transaction().execute((trx) => record(trx, event)))
}

/** What delivery needs: the mailer (outbox, and SMTP when configured) and the published address. */
export interface DeliveryDeps {
  db: DB
  mailer: Pick<Mailer, 'send'>
  /** PUBLIC_URL: links in emails come from configuration, never a Host header. */
  publicUrl: string
}

/**
 * Delivers one notification, exactly once (decision 018): in one transaction, stamps
 * `delivered_at` where it is still null and queues its email (outbox row and send job). A
 * retried job finds it stamped and does nothing; a failure rolls both back and the retry starts
 * over. A notification deleted with its member, or with no email to send, is only stamped.
 */
export async function deliverNotification(deps: DeliveryDeps, id: string) {
  return deps.db.transaction().execute(async (trx) => {
    const notification = await trx
      .updateTable('notifications')
      .set({ delivered_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('delivered_at', 'is', null)
      .returning(['id', 'type', 'user_id', 'data'])
      .executeTakeFirst()
    if (!notification) return null
    const email = await composeNotificationEmail(trx, notification, deps.publicUrl)
    if (email) await deps.mailer.send(email, { transaction: trx })
    return { id: notification.id, type: notification.type, emailed: email !== null }
  })
}

/** Defines the delivery queue and works it here; safe on every instance. */
export async function startNotificationDelivery(options: DeliveryDeps & { queue: JobQueue; logger: Logger }) {
  await options.queue.define(NOTIFICATION_DELIVERY_JOB, { retryLimit: 5, retryDelaySeconds: 15 })
  await options.queue.work<{ id: string }>(NOTIFICATION_DELIVERY_JOB, async ({ id }) => {
    const delivered = await deliverNotification(options, id)
    if (delivered) options.logger.debug({ job: NOTIFICATION_DELIVERY_JOB, type: delivered.type, emailed: delivered.emailed }, 'Notification delivered')
  })
}
