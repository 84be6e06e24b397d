import { isLateCancel } from '#contract/experience-rules.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { DB } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { activityIcal } from '../experiences/calendar-file.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { emailRecipient, formatFee, placeOf } from '../notifications/emails.ts'
import { holdsSeat } from '../experiences/holds-seat.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * The emails of `experience.reminder` and `experience.changed` (issue 15 §1–2, decision 050;
 * declared in api/notifications/types), in the member's language and on the activity's own clock:
 * when, where (the address and a directions link, or the online link), the link to cancel with the
 * late-cancel warning when it applies; the host's reminder says how many are coming. A change says
 * what changed (before → now) and carries the updated calendar file. Sent only while still true:
 * the member still holds a seat (or hosts), the activity still takes place, and a reminder's start
 * has not moved.
 */

/** What a reminder's notification holds (`start_at`: the start it was scheduled for, ISO). */
export interface ReminderData {
  experience_id: string
  slot: '24h' | '2h'
  start_at: string
}

/** What a change's notification holds (`before`: the time and place before it, on rows since decision 050). */
export interface ChangeData {
  experience_id: string
  changes: ('time' | 'place')[]
  before?:
    | (Pick<Experience, 'venue_type' | 'formatted_address' | 'city' | 'region' | 'url'> & { start_at: string | null })
    | undefined
}

/** A web maps link with directions to `address` (the web variant of app/utils/maps-link.ts: it opens on every device). */
export function directionsLink(address: string) {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`
}

/** The member, the activity while it still takes place, whether they host it and whether they hold a seat. */
async function upcomingFor(db: DB, userId: string, experienceId: string) {
  const member = await emailRecipient(db, userId)
  if (!member) return null
  const experience = await db.selectFrom('experiences').selectAll().where('id', '=', experienceId).executeTakeFirst()
  const start = experience?.start_at
  if (!experience || !start || experience.canceled_at || start.getTime() <= Date.now()) return null
  const language = member.locale ?? 'en'
  const when = formatZonedDateTime(start, experience.timezone, language)
  return {
    member,
    experience,
    start,
    isHost: experience.host_id === userId,
    seated: await holdsSeat(db, experience.id, userId),
    language,
    t: emailT(language),
    vars: { title: experience.title, when, hours: String(lateCancelWindowHours) } as Record<string, string>,
    when,
  }
}

function written(
  found: NonNullable<Awaited<ReturnType<typeof upcomingFor>>>,
  kind: string,
  subject: string,
  paragraphs: string[],
  attachments?: OutgoingEmail['attachments'],
): OutgoingEmail {
  const { member, language, t } = found
  return {
    to: member.email,
    kind,
    locale: language,
    subject,
    text: [emailGreeting(t, member.first_name), ...paragraphs.filter(Boolean), t('signature')].join('\n\n'),
    ...(attachments ? { attachments } : {}),
  }
}

/** The reminder, to an attendee who still holds a seat or to the host, while the start is the one it was scheduled for. */
export async function composeReminderEmail(db: DB, notification: { user_id: string; data: ReminderData }, publicUrl: string): Promise<OutgoingEmail | null> {
  const { data } = notification
  const found = await upcomingFor(db, notification.user_id, data.experience_id)
  if (!found || !(found.seated || found.isHost)) return null
  const { experience, start, isHost, seated, language, t, vars } = found
  if (new Date(data.start_at).getTime() !== start.getTime()) return null
  const kind = 'experienceReminder'
  const url = `${publicUrl}/activities/${experience.id}`
  const paragraphs = [t(`${kind}.body${data.slot}`, vars), [t('when', vars), ...placeLines(t, experience)].join('\n')]
  if (isHost) {
    const coming = Math.max(0, experience.attendees_count - (seated ? 1 : 0))
    paragraphs.push(t(`${kind}.hostComing`, { count: coming }), `${t(`${kind}.hostAction`)}\n${url}`)
  } else {
    paragraphs.push(`${t(`${kind}.cancelAction`)}\n${url}`)
    if (isLateCancel(start)) {
      paragraphs.push(t(`${kind}.late`, vars) + (experience.no_show_fee_cents ? ` ${t(`${kind}.lateFee`, { fee: formatFee(experience.no_show_fee_cents, language) })}` : ''))
    }
  }
  return written(found, kind, t(`${kind}.subject${data.slot}`, vars), paragraphs)
}

/** The change, to an attendee who still holds a seat: what changed (before → now), and the updated calendar file. */
export async function composeChangeEmail(db: DB, notification: { user_id: string; data: ChangeData }, publicUrl: string): Promise<OutgoingEmail | null> {
  const { changes, before } = notification.data
  const found = await upcomingFor(db, notification.user_id, notification.data.experience_id)
  if (!found?.seated) return null
  const { experience, start, language, t, vars, when } = found
  const kind = 'experienceChanged'
  const url = `${publicUrl}/activities/${experience.id}`
  const paragraphs = [t(`${kind}.body`, vars)]
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
  const ics = activityIcal({ ...experience, start_at: start }, publicUrl, { details: true, method: 'REQUEST' })
  return written(found, kind, t(`${kind}.subject`, vars), paragraphs, [{ filename: `${experience.slug}.ics`, contentType: 'text/calendar; method=REQUEST; charset=UTF-8', content: ics }])
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
