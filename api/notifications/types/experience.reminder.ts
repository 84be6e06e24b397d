import { z } from 'zod'
import { composeReminderEmail } from '../../reminders/email.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'

/** A reminder 24 or 2 hours before an activity (decision 050; `start_at`: the start it was scheduled for, ISO). */
export const experienceReminder = defineNotification({
  type: 'experience.reminder',
  data: z.object({ experience_id: z.uuid(), slot: z.enum(['24h', '2h']), start_at: z.iso.datetime({ offset: true }) }),
  topic: 'reminders',
  copy: 'experienceReminder',
  text: aboutActivity,
  link: activityPage,
  email: { copy: ['experienceReminder'], compose: composeReminderEmail },
  push: true,
  sms: { cancelReply: true },
})
