import { z } from 'zod'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'
import { holdsSeat } from '../../experiences/holds-seat.ts'

/** Someone took a seat at an activity the member hosts (`attendee_id`: who). */
export const experienceAttendeeJoined = defineNotification({
  type: 'experience.attendee_joined',
  data: z.object({ experience_id: z.uuid(), attendee_id: z.uuid() }),
  topic: 'hosting',
  copy: 'attendeeJoined',
  text: aboutActivity,
  link: activityPage,
  email: 'text',
  push: true,
  sms: { cancelReply: false },
  // Only while the seat is still taken.
  stillFor: (db, _userId, data) => holdsSeat(db, data.experience_id, data.attendee_id),
})
