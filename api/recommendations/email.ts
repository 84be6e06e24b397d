import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { DB } from '../db/database.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { emailRecipient, placeOf } from '../notifications/emails.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * The email of `experience.recommended` (the weekly "activities near you", decision 051; declared
 * in api/notifications/types), in the member's language: each suggested activity with its title,
 * when on its own clock, where, and its link, in the order the job chose (soonest first). An
 * activity cancelled or started since is left out; when none is left, no email. Delivery adds the
 * unsubscribe footer and headers.
 */

export async function composeRecommendationsEmail(db: DB, notification: { user_id: string; data: { experience_ids: string[] } }, publicUrl: string): Promise<OutgoingEmail | null> {
  const { data } = notification
  const member = await emailRecipient(db, notification.user_id)
  if (!member) return null
  const rows = await db
    .selectFrom('experiences')
    .select(['id', 'title', 'start_at', 'timezone', 'venue_type', 'formatted_address', 'city', 'region', 'canceled_at'])
    .where('id', 'in', data.experience_ids)
    .execute()
  const now = Date.now()
  const byId = new Map(rows.map((row) => [row.id, row]))
  const activities = data.experience_ids.flatMap((id) => {
    const row = byId.get(id)
    return row && row.canceled_at === null && row.start_at !== null && row.start_at.getTime() > now ? [{ ...row, start_at: row.start_at }] : []
  })
  if (activities.length === 0) return null

  const language = member.locale ?? 'en'
  const t = emailT(language)
  const list = activities.map((activity) => {
    const lines = [activity.title, t('when', { when: formatZonedDateTime(activity.start_at, activity.timezone, language) })]
    const where = placeOf(activity, t('online'))
    if (where) lines.push(t('where', { where }))
    lines.push(`${publicUrl}/activities/${activity.id}`)
    return lines.join('\n')
  })
  return {
    to: member.email,
    kind: 'experienceRecommended',
    locale: language,
    subject: t('experienceRecommended.subject'),
    text: [
      emailGreeting(t, member.first_name),
      t('experienceRecommended.body', { count: activities.length }),
      ...list,
      `${t('experienceRecommended.more')}\n${publicUrl}/`,
      t('experienceRecommended.why'),
      t('signature'),
    ].join('\n\n'),
  }
}
