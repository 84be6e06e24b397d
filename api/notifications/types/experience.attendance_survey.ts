import { z } from 'zod'
import { aboutActivity, defineNotification } from '../kind.ts'

/** "Did you go to …?" after an activity ended (decision 046): once per attendee per activity. */
export const experienceAttendanceSurvey = defineNotification({
  type: 'experience.attendance_survey',
  data: z.object({ experience_id: z.uuid() }),
  topic: 'feedback',
  copy: 'attendanceSurvey',
  text: aboutActivity,
  // It opens the survey itself (decision 046).
  link: (_data, { activity }) => (activity.id ? `/activities/${activity.id}/survey` : '/attending'),
  email: 'text',
  push: true,
  sms: { cancelReply: false },
})
