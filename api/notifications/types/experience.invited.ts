import { z } from 'zod'
import { activityEmail, memberName, placeOf } from '../emails.ts'
import { aboutActivity, activityPage, defineNotification } from '../kind.ts'
import { upcomingActivity } from '../still-true.ts'

const data = z.object({ experience_id: z.uuid(), invited_by: z.uuid(), by_friend: z.boolean().optional() })

/**
 * A host (or an admin) invited the member to an activity (`invited_by`: who, decision 021), or a
 * host or attendee did with "Invite a friend" (`by_friend`, decision 087): named, as a host is.
 */
export const experienceInvited = defineNotification({
  type: 'experience.invited',
  data,
  topic: 'activity_updates',
  copy: 'experienceInvited',
  text: aboutActivity,
  link: activityPage,
  email: activityEmail<z.output<typeof data>>('experienceInvited', async ({ db, data, userId, experience, t, vars, when }) => {
    if (data.invited_by === userId) return null
    // Who invited: the host or a friend by name; an admin as the team, never named (decision 021).
    const byHost = data.invited_by === experience.host_id || data.by_friend === true
    vars.name = byHost ? await memberName(db, data.invited_by, t('someone')) : t('team')
    const where = placeOf(experience, t('online'))
    const paragraphs = [t('experienceInvited.body', vars), [when ? t('when', vars) : t('noDate'), ...(where ? [t('where', { where })] : [])].join('\n')]
    paragraphs.push(t('experienceInvited.notYet'))
    // Members are targeted by scammers: nothing happens unless they answer.
    if (byHost) paragraphs.push(t('experienceInvited.ifUnknown', vars))
    return { paragraphs }
  }),
  push: true,
  sms: { cancelReply: false },
  // While the invitation waits for an answer (not declined, nor accepted: a seat taken another way
  // accepts it), at an activity that still takes place.
  stillFor: async (db, userId, data) => {
    if (!(await upcomingActivity(db, data.experience_id))) return false
    const invitation = await db
      .selectFrom('experience_invitations')
      .select('state')
      .where('experience_id', '=', data.experience_id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return invitation?.state === 'pending'
  },
})
