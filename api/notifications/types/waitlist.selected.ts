import { z } from 'zod'
import { activityEmail, formatFee } from '../emails.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'
import { holdsSeat } from '../../experiences/holds-seat.ts'
import { upcomingActivity } from '../still-true.ts'

/** Spec §3 `waitlist.selected`: a seat freed at a full activity was given to the member, first on its notify list. */
export const waitlistSelected = defineNotification({
  type: 'waitlist.selected',
  data: z.object({ experience_id: z.uuid() }),
  topic: 'activity_updates',
  copy: 'waitlistSelected',
  text: aboutActivity,
  link: activityPage,
  email: activityEmail('waitlistSelected', async ({ experience, language, t, vars, when }) => {
    const paragraphs = [t('waitlistSelected.body', vars), when ? t('when', vars) : t('noDate')]
    if (experience.no_show_fee_cents) paragraphs.push(t('waitlistSelected.fee', { ...vars, fee: formatFee(experience.no_show_fee_cents, language) }))
    return { paragraphs }
  }),
  push: true,
  sms: { cancelReply: true },
  // While the seat given is still held, at an activity that still takes place.
  stillFor: async (db, userId, data) => (await upcomingActivity(db, data.experience_id)) !== null && holdsSeat(db, data.experience_id, userId),
})
