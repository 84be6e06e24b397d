import { z } from 'zod'
import { composeChangeEmail } from '../../reminders/email.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'

/** The host or an admin changed the time or the place of an activity the member attends (decision 050; `before`: what it was). */
export const experienceChanged = defineNotification({
  type: 'experience.changed',
  data: z.object({
    experience_id: z.uuid(),
    changes: z.array(z.enum(['time', 'place'])).min(1),
    before: z
      .object({
        start_at: z.string().nullable(),
        venue_type: z.enum(['in_person', 'online']),
        formatted_address: z.string().nullable(),
        city: z.string().nullable(),
        region: z.string().nullable(),
        url: z.string().nullable(),
      })
      .optional(),
  }),
  topic: 'activity_updates',
  copy: 'experienceChanged',
  text: aboutActivity,
  link: activityPage,
  // The change email names the place as the reminder does (its directions and online link).
  email: { copy: ['experienceChanged', 'experienceReminder'], compose: composeChangeEmail },
  push: true,
  sms: { cancelReply: false },
})
