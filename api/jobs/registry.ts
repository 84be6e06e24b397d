import { feesJob } from '../fees/job.ts'
import { impersonationsJob } from '../impersonation/job.ts'
import { chatMirrorJob } from '../chat/mirror.ts'
import { liftSuspensionsJob } from '../moderation/suspension-job.ts'
import { notificationLaterJob } from '../notifications/delivery.ts'
import { pushDeliveryJob } from '../notifications/push.ts'
import { notificationDeliveryJob } from '../notifications/service.ts'
import { emailDeliveryJob, emailFailedJob } from '../providers/email/smtp.ts'
import { smsDeliveryJob } from '../providers/sms/sender.ts'
import { recommendJob } from '../recommendations/service.ts'
import { remindJob, remindSweepJob } from '../reminders/service.ts'
import { askAttendanceJob } from '../surveys/job.ts'
import { remindRenewalsJob, renewSubscriptionsJob } from '../subscriptions/renewal.ts'
import { reconcileSubscriptionsJob } from '../subscriptions/sync.ts'
import { cleanupJob } from './cleanup.ts'
import { analyticsRetentionJob } from '../analytics/retention.ts'
import type { JobServices } from './job.ts'

/**
 * Every background job of the product, once (decision 068). The runtime starts this list
 * (`queue.start(jobs, services)`: queues defined, workers started, schedules set) and nothing
 * else defines, works or schedules a job; a job is declared with `defineJob` beside the code it
 * runs and added here. registry.test.ts fails on a declared job missing from this list.
 */
export const jobs = [
  // Delivery: notifications by the member's settings, then each channel's own queue.
  notificationDeliveryJob,
  notificationLaterJob,
  emailDeliveryJob,
  emailFailedJob,
  smsDeliveryJob,
  pushDeliveryJob,
  // Activities: reminders before the start, the survey after the end, the weekly suggestions.
  remindJob,
  remindSweepJob,
  askAttendanceJob,
  recommendJob,
  // Chat and moderation.
  chatMirrorJob,
  liftSuspensionsJob,
  // Premium: the built-in provider's yearly renewals, and plans that end; Stripe's plans read again nightly.
  renewSubscriptionsJob,
  remindRenewalsJob,
  reconcileSubscriptionsJob,
  feesJob,
  impersonationsJob,
  // Housekeeping.
  cleanupJob,
  analyticsRetentionJob,
] as const

/** What the runtime hands every job: the union of what each handler asks for. */
export type RuntimeJobServices = JobServices<typeof jobs>
