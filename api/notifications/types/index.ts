import type { z } from 'zod'
import type { NotificationType } from '#contract/notifications.ts'
import type { AnyNotificationKind, KindOf } from '../kind.ts'
import { experienceAttendanceSurvey } from './experience.attendance_survey.ts'
import { experienceAttendeeJoined } from './experience.attendee_joined.ts'
import { experienceAttendeeLeft } from './experience.attendee_left.ts'
import { experienceCanceled } from './experience.canceled.ts'
import { experienceChanged } from './experience.changed.ts'
import { experienceInvited } from './experience.invited.ts'
import { experienceRecommended } from './experience.recommended.ts'
import { experienceReminder } from './experience.reminder.ts'
import { feeUpdated } from './fee.updated.ts'
import { accountViewed } from './account.viewed.ts'
import { messageNew } from './message.new.ts'
import { reportHandled } from './report.handled.ts'
import { referralQualified } from './referral.qualified.ts'
import { sample } from './sample.ts'
import { subscriptionPaymentFailed } from './subscription.payment_failed.ts'
import { subscriptionRenewalReminder } from './subscription.renewal_reminder.ts'
import { verificationDecided } from './verification.decided.ts'
import { waitlistSeatAvailable } from './waitlist.seat_available.ts'
import { waitlistSelected } from './waitlist.selected.ts'

/**
 * Every notification type, by name (decision 070): one declaration each, in the file named after
 * it. The names are contract/notifications.ts's `notificationTypes`: a name there without a
 * declaration here, or one here without a name there, does not typecheck.
 */
export const notificationKinds = {
  sample,
  'message.new': messageNew,
  'waitlist.selected': waitlistSelected,
  'waitlist.seat_available': waitlistSeatAvailable,
  'experience.canceled': experienceCanceled,
  'experience.invited': experienceInvited,
  'verification.decided': verificationDecided,
  'experience.attendance_survey': experienceAttendanceSurvey,
  'experience.reminder': experienceReminder,
  'experience.changed': experienceChanged,
  'experience.attendee_joined': experienceAttendeeJoined,
  'experience.attendee_left': experienceAttendeeLeft,
  'report.handled': reportHandled,
  'experience.recommended': experienceRecommended,
  'subscription.renewal_reminder': subscriptionRenewalReminder,
  'subscription.payment_failed': subscriptionPaymentFailed,
  'fee.updated': feeUpdated,
  'account.viewed': accountViewed,
  'referral.qualified': referralQualified,
} as const satisfies { [Type in NotificationType]: KindOf<Type> }

/** The data each type carries (what `notify` takes), read from its declaration. */
export type NotificationData = { [Type in NotificationType]: z.input<(typeof notificationKinds)[Type]['data']> }

const byName = new Map<string, AnyNotificationKind>(Object.entries(notificationKinds))

/** The declaration of a recorded type; undefined for a type this code does not know (a row from a newer version). */
export function notificationKind(type: string): AnyNotificationKind | undefined {
  return byName.get(type)
}
