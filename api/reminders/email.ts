import { z } from 'zod'
import { isLateCancel } from '#contract/experience-rules.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { DB } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { holdsSeat } from '../experiences/service.ts'
import { activityIcal } from '../experiences/ical.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { emailRecipient, formatFee, placeOf, type NotificationRow } from '../notifications/emails.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * The emails of `experience.reminder` and `experience.changed` (issue 15 §1–2, decision 050), in
 * the member's language and on the activity's own clock: when, where (the address and a
 * directions link, or the online link), the link to cancel with the late-cancel warning when it
 * applies; the host's reminder says how many are coming. A change says what changed (before →
 * now) and carries the updated calendar file. Sent only while still true: the member still holds
 * a seat (or hosts), the activity still takes place, and a reminder's start has not moved.
 */

const uuid = z.uuid()
const reminderData = z.object({ experience_id: uuid, slot: z.enum(['24h', '2h']), start_at: z.iso.datetime({ offset: true }) })
const changedData = z.object({
  experience_id: uuid,
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
})

/** A web maps link with directions to `address` (the web variant of app/utils/maps-link.ts: it opens on every device). */
export function directionsLink(address: string) {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`
}

export async function composeActivityEmail(db: DB, notification: NotificationRow, publicUrl: string): Promise<OutgoingEmail | null> {
  const reminder = notification.type === 'experience.reminder' ? reminderData.safeParse(notification.data) : null
  const changed = notification.type === 'experience.changed' ? changedData.safeParse(notification.data) : null
  const experienceId = reminder?.data?.experience_id ?? changed?.data?.experience_id
  if (!experienceId) return null

  const member = await emailRecipient(db, notification.user_id)
  if (!member) return null
  const experience = await db.selectFrom('experiences').selectAll().where('id', '=', experienceId).executeTakeFirst()
  const start = experience?.start_at
  if (!experience || !start || experience.canceled_at || start.getTime() <= Date.now()) return null
  const isHost = experience.host_id === notification.user_id
  const seated = await holdsSeat(db, experience.id, notification.user_id)
  if (!seated && !(reminder && isHost)) return null
  if (reminder?.data && new Date(reminder.data.start_at).getTime() !== start.getTime()) return null

  const language = member.locale ?? 'en'
  const t = emailT(language)
  const when = formatZonedDateTime(start, experience.timezone, language)
  const vars: Record<string, string> = { title: experience.title, when, hours: String(lateCancelWindowHours) }
  const url = `${publicUrl}/activities/${experience.id}`
  const paragraphs: string[] = []
  let kind: string
  let subject: string
  let attachments: OutgoingEmail['attachments']

  if (reminder?.data) {
    kind = 'experienceReminder'
    const slot = reminder.data.slot
    subject = t(`${kind}.subject${slot}`, vars)
    paragraphs.push(t(`${kind}.body${slot}`, vars), [t('when', vars), ...placeLines(t, experience)].join('\n'))
    if (isHost) {
      const coming = Math.max(0, experience.attendees_count - (seated ? 1 : 0))
      paragraphs.push(t(`${kind}.hostComing`, { count: coming }), `${t(`${kind}.hostAction`)}\n${url}`)
    } else {
      paragraphs.push(`${t(`${kind}.cancelAction`)}\n${url}`)
      if (isLateCancel(start)) {
        paragraphs.push(t(`${kind}.late`, vars) + (experience.no_show_fee_cents ? ` ${t(`${kind}.lateFee`, { fee: formatFee(experience.no_show_fee_cents, language) })}` : ''))
      }
    }
  } else if (changed?.data) {
    kind = 'experienceChanged'
    const { changes, before } = changed.data
    subject = t(`${kind}.subject`, vars)
    paragraphs.push(t(`${kind}.body`, vars))
    const lines: string[] = []
    if (changes.includes('time')) {
      const old = before?.start_at ? formatZonedDateTime(new Date(before.start_at), experience.timezone, language) : t('noDate')
      lines.push(t(`${kind}.time`, { before: old, after: when }))
    }
    if (changes.includes('place')) {
      const old = before ? placeOf(before, t('online')) : ''
      lines.push(t(`${kind}.place`, { before: old || '—', after: placeOf(experience, t('online')) || '—' }))
    }
    paragraphs.push(lines.join('\n'), placeLines(t, experience).slice(1).join('\n'))
    paragraphs.push(t(`${kind}.calendar`), `${t(`${kind}.action`)}\n${url}`)
    attachments = [
      {
        filename: `${experience.slug}.ics`,
        contentType: 'text/calendar; method=REQUEST; charset=UTF-8',
        content: activityIcal({ ...experience, start_at: start }, publicUrl, { details: true, method: 'REQUEST' }),
      },
    ]
  } else return null

  return {
    to: member.email,
    kind,
    locale: language,
    subject,
    text: [emailGreeting(t, member.first_name), ...paragraphs.filter(Boolean), t('signature')].join('\n\n'),
    ...(attachments ? { attachments } : {}),
  }
}

/** "Where: …" and how to get there: directions to the address, or the online link. */
function placeLines(t: ReturnType<typeof emailT>, experience: Experience) {
  if (experience.venue_type === 'online') {
    return [t('where', { where: t('experienceReminder.online') }), ...(experience.url ? [t('experienceReminder.join', { url: experience.url })] : [])]
  }
  const where = placeOf(experience, t('online'))
  if (!where) return []
  return [t('where', { where }), t('experienceReminder.directions', { url: directionsLink(where) })]
}
