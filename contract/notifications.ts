import { z } from 'zod'
import { excludeResultsParameter, pageQuerySchema } from './common.ts'

/**
 * The notification types (spec §3 "Event types": `sample`, `message.new`, `waitlist.selected`,
 * and those the product adds), named here and nowhere else: each has its one declaration in
 * api/notifications/types/<type>.ts (decision 070), and the API's registry fails to typecheck
 * while a name here has no declaration or a declaration has no name here.
 */
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
  'subscription.renewal_reminder',
  'subscription.payment_failed',
  'fee.updated',
  'account.viewed',
  'referral.qualified',
] as const
export type NotificationType = (typeof notificationTypes)[number]

/**
 * In-app notifications (issue 15 §1, §3 "In-app", spec §7 `GET users/notifications`, decision
 * 043): what the member was told, newest first, each with a title and body already written in
 * the reader's language, the web page it leads to, and whether it was seen.
 */
export const notificationSchema = z
  .object({
    id: z.uuid(),
    type: z.string().meta({
      description: `The event type: ${notificationTypes.map((type) => `\`${type}\``).join(', ')}. A type added later reads as something new, with a title, a body and a link like the others.`,
    }),
    title: z.string().meta({ description: 'A short title, in the caller’s language.' }),
    body: z.string().meta({ description: 'One or two sentences, in the caller’s language.' }),
    link: z.string().meta({ description: 'The web page it leads to: a path on this site (`/activities/…`, `/messenger?channel=…`).' }),
    seen_at: z.string().nullable().meta({ description: 'When the member opened it or marked it read (ISO 8601); null while unread.' }),
    created_at: z.string().meta({ description: 'When it was recorded (ISO 8601).' }),
  })
  .meta({ id: 'Notification' })
export type Notification = z.infer<typeof notificationSchema>

/** `GET users/notifications`: the paging query, `seen_at=null` (unread only) and `exclude_results=true` (metadata only). */
export const notificationsQuerySchema = pageQuerySchema.extend({
  seen_at: z
    .literal('null', { error: 'seen_at_invalid' })
    .optional()
    .meta({ description: '`null`: only the notifications not seen yet.' }),
  exclude_results: excludeResultsParameter.meta({
    description: '`true`: answer the metadata only (`data` empty); with `seen_at=null`, `metadata.total_count` is the unread total.',
  }),
})
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>
