import { z } from 'zod'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'

/** Someone left an activity the member hosts (`attendee_id`: who). */
export const experienceAttendeeLeft = defineNotification({
  type: 'experience.attendee_left',
  data: z.object({ experience_id: z.uuid(), attendee_id: z.uuid() }),
  topic: 'hosting',
  copy: 'attendeeLeft',
  text: aboutActivity,
  link: activityPage,
  email: 'text',
  push: true,
  sms: { cancelReply: false },
})
