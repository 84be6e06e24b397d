import { z } from 'zod'
import { activityEmail } from '../emails.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'
import { upcomingActivity } from '../still-true.ts'

/** A seat freed within 24 hours of the start: everyone on the notify list hears of it, the first to take it gets it. */
export const waitlistSeatAvailable = defineNotification({
  type: 'waitlist.seat_available',
  data: z.object({ experience_id: z.uuid() }),
  topic: 'activity_updates',
  copy: 'waitlistSeatAvailable',
  text: aboutActivity,
  link: activityPage,
  email: activityEmail('waitlistSeatAvailable', async ({ t, vars, when }) => ({
    paragraphs: [t('waitlistSeatAvailable.body', vars), when ? t('when', vars) : t('noDate')],
  })),
  push: true,
  sms: { cancelReply: false },
  // While the member is still waiting, at an activity that still takes place.
  stillFor: async (db, userId, data) => {
    if (!(await upcomingActivity(db, data.experience_id))) return false
    const waiting = await db.selectFrom('waitlist_entries').select('user_id').where('experience_id', '=', data.experience_id).where('user_id', '=', userId).executeTakeFirst()
    return waiting !== undefined
  },
})
