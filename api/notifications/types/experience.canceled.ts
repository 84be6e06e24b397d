import { z } from 'zod'
import { activityIcal } from '../../experiences/calendar-file.ts'
import { activityEmail, memberName } from '../emails.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'

// Rows recorded before decision 018 have no `canceled_by`: the host cancelled them.
const data = z.object({ experience_id: z.uuid(), canceled_by: z.uuid().optional() })

/** An activity the member attends was cancelled by its host or an admin (`canceled_by`; the email says who). */
export const experienceCanceled = defineNotification({
  type: 'experience.canceled',
  data,
  topic: 'activity_updates',
  copy: 'experienceCanceled',
  text: aboutActivity,
  link: activityPage,
  email: activityEmail<z.output<typeof data>>('experienceCanceled', async ({ db, data, userId, experience, t, vars, when, publicUrl }) => {
    // Never about the member's own action.
    if (data.canceled_by === userId) return null
    const byHost = !data.canceled_by || data.canceled_by === experience.host_id
    vars.name = byHost ? await memberName(db, experience.host_id, t('someone')) : ''
    const paragraphs = [t(byHost ? 'experienceCanceled.byHost' : 'experienceCanceled.byTeam', vars)]
    if (when) paragraphs.push(t('experienceCanceled.when', vars))
    paragraphs.push(t('experienceCanceled.nothingToDo'))
    if (!experience.start_at) return { paragraphs }
    // The calendar file that takes it out of the member's calendar (the same UID as the one they added).
    paragraphs.push(t('experienceCanceled.calendar'))
    const ics = activityIcal({ ...experience, start_at: experience.start_at }, publicUrl, { details: true, method: 'CANCEL' })
    return { paragraphs, attachments: [{ filename: `${experience.slug}.ics`, contentType: 'text/calendar; method=CANCEL; charset=UTF-8', content: ics }] }
  }),
  push: true,
  sms: { cancelReply: false },
  // A cancellation stays true (it cannot be undone).
  stillFor: async (db, _userId, data) => {
    const experience = await db.selectFrom('experiences').select('canceled_at').where('id', '=', data.experience_id).executeTakeFirst()
    return experience !== undefined && experience.canceled_at !== null
  },
})
