import type { NotificationTopic } from '#contract/notification-settings.ts'
import type { NotificationType } from './service.ts'

/**
 * Which settings topic governs each event type (decision 047). `null`: a notice about the
 * member's own account or safety (a verification decided, a report handled) that always shows
 * in-app and is emailed while the member's global email switch is on; no topic can silence it.
 */
export const topicOf: Record<NotificationType, NotificationTopic | null> = {
  sample: 'product_updates',
  'message.new': 'direct_messages',
  'waitlist.selected': 'activity_updates',
  'waitlist.seat_available': 'activity_updates',
  'experience.canceled': 'activity_updates',
  'experience.invited': 'activity_updates',
  'experience.changed': 'activity_updates',
  'experience.reminder': 'reminders',
  'experience.attendee_joined': 'hosting',
  'experience.attendee_left': 'hosting',
  'experience.attendance_survey': 'feedback',
  'experience.recommended': 'recommendations',
  'verification.decided': null,
  'report.handled': null,
}
