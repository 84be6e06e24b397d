import { sql } from 'kysely'
import { z } from 'zod'
import type { NotificationChannel } from '#contract/notification-settings.ts'
import type { DB } from '../db/database.ts'
import type { PushPayload } from './push.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { visibleMembers } from '../policy/members.ts'
import { timeZoneAt } from '../providers/maps/gazetteer.ts'
import type { Mailer, OutgoingEmail } from '../providers/email/mailer.ts'
import { smsReplyHint } from '../sms/service.ts'
import { describeNotification } from './inbox.ts'
import type { AnyNotificationKind } from './kind.ts'
import { channelsFor, globalSwitches } from './preferences.ts'
import { quietUntil } from './quiet-hours.ts'
import type { NotificationDeliveryServices } from './service.ts'
import { notificationKind } from './types/index.ts'
import { unsubscribeHeaders, unsubscribeToken } from './unsubscribe.ts'

/**
 * Delivery by the member's settings (issue 15 §1 and §3, decision 047), by the type's declaration
 * (api/notifications/types, decision 070). The notification row is the in-app channel (recorded by
 * `notify`, shown when the member's in-app switches allow it); its delivery job then sends, once,
 * to a member who may still receive it (`stillFor`), what the type declares and the member's
 * settings for its topic ask for:
 * - email: the type's own email or one written from the in-app text, with the topic's one-click
 *   unsubscribe (RFC 8058);
 * - push and text: the in-app title, body and link, held back during quiet hours and sent at
 *   08:00 by a later job (which checks the news is still true then).
 * Everything is queued in the transaction that stamps `delivered_at`: a retried job finds the
 * stamp and does nothing; a failed one rolls back and starts over.
 */

export type { PushPayload }

/** Web push (api/providers/push): queues one push per device of the member, in `trx`. */
export interface PushChannel {
  queue(trx: DB, userId: string, payload: PushPayload): Promise<void>
}

/** Text messages (api/providers/sms): false when the member has no confirmed phone. */
export interface SmsChannel {
  send(message: { userId: string; text: string; kind: string; locale: string; experienceId?: string }, options: { transaction: DB }): Promise<boolean>
}

export interface DeliveryDeps {
  db: DB
  mailer: Pick<Mailer, 'send'>
  /** PUBLIC_URL: links come from configuration, never a Host header. */
  publicUrl: string
  /** Signs the unsubscribe links (derived from the code secret). */
  unsubscribeSecret: string
  queue: Pick<JobQueue, 'send'>
  push?: PushChannel | undefined
  sms?: SmsChannel | undefined
  now?: () => Date
}

const outside = ['push', 'sms'] as const satisfies NotificationChannel[]

/** What the notification row holds (its `data` is JSON: read, never trusted). */
export interface NotificationRow {
  user_id: string
  type: string
  data: unknown
}

/** Whether the member may still receive it (the type's `stillFor`); a row whose data does not read is not delivered. */
async function stillFor(db: DB, kind: AnyNotificationKind, row: NotificationRow) {
  if (!kind.stillFor) return true
  const data = kind.data.safeParse(row.data)
  return data.success && kind.stillFor(db, row.user_id, data.data)
}

/** The type's own email now, or null (it has none, or sends none now). */
async function ownEmail(db: DB, kind: AnyNotificationKind, row: NotificationRow, publicUrl: string) {
  if (typeof kind.email !== 'object' || kind.email === null) return null
  const data = kind.data.safeParse(row.data)
  return data.success ? kind.email.compose(db, { user_id: row.user_id, data: data.data }, publicUrl) : null
}

/** The email of its own `notification` sends now (before the topic's unsubscribe), or null when it sends none. */
export async function composeNotificationEmail(db: DB, notification: NotificationRow, publicUrl: string): Promise<OutgoingEmail | null> {
  const kind = notificationKind(notification.type)
  if (!kind || !(await stillFor(db, kind, notification))) return null
  return ownEmail(db, kind, notification, publicUrl)
}

interface Stamped {
  id: string
  type: string
  user_id: string
  data: unknown
  experience_id: string | null
}

/** Sends `id` by the member's settings, exactly once; answers what it sent (null: already done). */
export async function deliverNotification(deps: DeliveryDeps, id: string) {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('notifications')
      .set({ delivered_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('delivered_at', 'is', null)
      .returning(['id', 'type', 'user_id', 'data', 'experience_id'])
      .executeTakeFirst()
    if (!row) return null
    const sent: NotificationChannel[] = []
    const { type } = row
    const kind = notificationKind(type)
    if (!kind) return { id, type, sent }
    if (!(await stillFor(trx, kind, row))) {
      // A new message read before its delivery (the chat was open): nothing to hear of it either.
      if (kind.seenWhenStale) await trx.updateTable('notifications').set({ seen_at: sql<Date>`coalesce(seen_at, now())` }).where('id', '=', id).execute()
      return { id, type, sent }
    }
    const member = await recipient(trx, row.user_id)
    if (!member) return { id, type, sent }

    const { topic } = kind
    const channels = topic
      ? await channelsFor(trx, row.user_id, topic)
      : (['in_app', ...((await globalSwitches(trx, row.user_id)).email ? (['email'] as const) : [])] as NotificationChannel[])

    if (channels.includes('email') && member.email) {
      const email = await emailFor(trx, deps, kind, row, { ...member, email: member.email })
      if (email) {
        await deps.mailer.send(email, { transaction: trx })
        sent.push('email')
      }
    }
    const wanted = outside.filter((channel) => channels.includes(channel) && declares(kind, channel))
    if (wanted.length > 0) {
      const now = deps.now?.() ?? new Date()
      const activity = await activityOf(trx, row.experience_id)
      const timeZone = member.lat !== null && member.long !== null ? timeZoneAt(member.lat, member.long) : (activity?.timeZone ?? 'America/New_York')
      const later = quietUntil(now, timeZone, activity)
      if (later) await deps.queue.send(notificationLaterJob.name, { id, channels: wanted }, { transaction: trx, startAfter: later })
      else sent.push(...(await sendOutside(trx, deps, kind, row, member.locale, wanted)))
    }
    return { id, type, sent }
  })
}

/** Whether the type goes by push, or by text message, at all. */
const declares = (kind: AnyNotificationKind, channel: (typeof outside)[number]) => (channel === 'push' ? kind.push : kind.sms !== null)

/** Push and text held back by quiet hours, at 08:00: only if the news is still true. */
export async function deliverLater(deps: DeliveryDeps, job: { id: string; channels: (typeof outside)[number][] }) {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('notifications').select(['id', 'type', 'user_id', 'data', 'experience_id']).where('id', '=', job.id).executeTakeFirst()
    const kind = row && notificationKind(row.type)
    if (!row || !kind || !(await stillFor(trx, kind, row))) return []
    const activity = await activityOf(trx, row.experience_id)
    if (activity && activity.startAt.getTime() <= (deps.now?.() ?? new Date()).getTime()) return []
    const member = await recipient(trx, row.user_id)
    if (!member) return []
    // The member may have changed their settings overnight: only what they still want.
    const wanted = kind.topic ? await channelsFor(trx, row.user_id, kind.topic) : []
    return sendOutside(trx, deps, kind, row, member.locale, job.channels.filter((channel) => wanted.includes(channel) && declares(kind, channel)))
  })
}

async function sendOutside(trx: DB, deps: DeliveryDeps, kind: AnyNotificationKind, row: Stamped, locale: string | null, channels: readonly (typeof outside)[number][]) {
  const text = await describeNotification(trx, row, locale)
  const url = `${deps.publicUrl}${text.link}`
  const sent: NotificationChannel[] = []
  if (channels.includes('push') && deps.push) {
    await deps.push.queue(trx, row.user_id, { title: text.title, body: text.body, url, tag: row.id })
    sent.push('push')
  }
  if (channels.includes('sms') && deps.sms) {
    const language = locale ?? 'en'
    // Only texts that offer "reply C to cancel" name their activity: a "C" cancels the seat at
    // the activity of the latest text that offered it, never one a later change notice named.
    const cancellable = kind.sms?.cancelReply === true
    const experienceId = cancellable ? row.experience_id : null
    const reply = cancellable ? [smsReplyHint(language)] : []
    const texted = await deps.sms.send(
      { userId: row.user_id, text: [text.title, text.body, url, ...reply].join('\n'), kind: row.type, locale: language, ...(experienceId ? { experienceId } : {}) },
      { transaction: trx },
    )
    if (texted) sent.push('sms')
  }
  return sent
}

/** The member told, if others may still see them (never a suspended or deleted member). */
function recipient(db: DB, userId: string) {
  return db.selectFrom('users').select(['email', 'first_name', 'locale', 'lat', 'long']).where('id', '=', userId).where(visibleMembers()).executeTakeFirst()
}

/** The activity the news is about (`notifications.experience_id`), for quiet hours (its start and time zone). */
async function activityOf(db: DB, id: string | null) {
  if (!id) return null
  const experience = await db.selectFrom('experiences').select(['start_at', 'timezone']).where('id', '=', id).executeTakeFirst()
  return experience?.start_at ? { startAt: experience.start_at, timeZone: experience.timezone } : null
}

/**
 * The email the type declares: its own (a seat, a cancellation, an invitation, a verification, a
 * reminder), or one written from the in-app text. Emails about a topic end with its one-click
 * unsubscribe.
 */
async function emailFor(
  trx: DB,
  deps: DeliveryDeps,
  kind: AnyNotificationKind,
  row: Stamped,
  member: { email: string; first_name: string | null; locale: string | null },
): Promise<OutgoingEmail | null> {
  const language = member.locale ?? 'en'
  const t = emailT(language)
  const { topic } = kind
  let email: OutgoingEmail | null
  if (kind.email === 'text') {
    const text = await describeNotification(trx, row, language)
    email = {
      to: member.email,
      kind: row.type,
      locale: language,
      subject: text.title,
      text: [emailGreeting(t, member.first_name), text.body, `${t('notification.open')}\n${deps.publicUrl}${text.link}`, t('signature')].join('\n\n'),
    }
  } else email = await ownEmail(trx, kind, row, deps.publicUrl)
  if (!email) return null
  if (!topic) return email
  const token = unsubscribeToken(deps.unsubscribeSecret, row.user_id, topic)
  const footer = t('unsubscribe.footer', { topic: t(`unsubscribe.topics.${topic}`) })
  return {
    ...email,
    text: `${email.text}\n\n--\n${footer}\n${deps.publicUrl}/unsubscribe/${token}`,
    headers: { ...email.headers, ...unsubscribeHeaders(deps.publicUrl, token) },
  }
}

/** Push and text held back by quiet hours (`deliverLater`), sent at 08:00. */
export const notificationLaterJob = defineJob({
  name: 'notification.deliver-later',
  payload: z.object({ id: z.guid(), channels: z.array(z.enum(outside)) }),
  retryLimit: 5,
  retryDelaySeconds: 15,
  timeoutSeconds: 60,
  async handler(job, services: DeliveryDeps & { logger: Logger }) {
    const sent = await deliverLater(services, job)
    services.logger.debug({ job: 'notification.deliver-later', sent }, 'Notification delivered after quiet hours')
  },
})
export const NOTIFICATION_LATER_JOB = notificationLaterJob.name

/** What the two delivery jobs need (`notificationDeliveryJob` is declared with `notify`, in service.ts). */
export function deliveryJobServices(deps: DeliveryDeps): DeliveryDeps & Pick<NotificationDeliveryServices, 'deliverNotification'> {
  return { ...deps, deliverNotification: (id) => deliverNotification(deps, id) }
}
