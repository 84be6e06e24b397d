import { z } from 'zod'
import { displayName } from '#contract/display-name.ts'
import { hasStarted } from '#contract/experience-rules.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { addressWithCity } from '#contract/place-line.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import { activityIcal } from '../experiences/ical.ts'
import type { DB } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { visibleMembers } from '../policy/members.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'
import { composeVerificationEmail } from '../verification/email.ts'
import { composeActivityEmail } from '../reminders/email.ts'
import { composeRecommendationsEmail } from '../recommendations/email.ts'

/**
 * The email each notification sends (decision 018), in the member's language, until the
 * notifications issue delivers by the member's settings: a seat given from the notify list, a
 * seat free within 24 hours, an activity cancelled, an invitation from a host. Only members
 * others may see get one (never a suspended or deleted one), never about their own action, and
 * only while it is still true (a seat given and since cancelled is not announced).
 */

/** What the notification row holds (its `data` is JSON: read, never trusted). */
export interface NotificationRow {
  user_id: string
  type: string
  data: unknown
}

const uuid = z.uuid()
const dataSchemas = {
  'waitlist.selected': z.object({ experience_id: uuid }),
  'waitlist.seat_available': z.object({ experience_id: uuid }),
  // Rows recorded before decision 018 have no canceled_by: the host cancelled them.
  'experience.canceled': z.object({ experience_id: uuid, canceled_by: uuid.optional() }),
  'experience.invited': z.object({ experience_id: uuid, invited_by: uuid }),
} as const
type EmailedType = keyof typeof dataSchemas

/** The outbox `kind` and the key of its copy in `public/locales/*\/email.json`. */
const emailKinds = {
  'waitlist.selected': 'waitlistSelected',
  'waitlist.seat_available': 'waitlistSeatAvailable',
  'experience.canceled': 'experienceCanceled',
  'experience.invited': 'experienceInvited',
} as const satisfies Record<EmailedType, string>

const isEmailed = (type: string): type is EmailedType => type in dataSchemas

/** The types whose email is composed in a module of its own. */
const composers: Partial<Record<string, (db: DB, notification: NotificationRow, publicUrl: string) => Promise<OutgoingEmail | null>>> = {
  'verification.decided': composeVerificationEmail,
  'experience.reminder': composeActivityEmail,
  'experience.changed': composeActivityEmail,
  'experience.recommended': composeRecommendationsEmail,
}

/**
 * Whether `type` has an email of its own (composed above or by `composers`): when it sends none
 * (a seat given and since taken back, a member's own action), no email goes at all. Every other
 * type's email is written from its in-app text by delivery.
 */
export const hasOwnEmail = (type: string) => isEmailed(type) || type in composers

/** Whom a notification email goes to: a member others may see (never a suspended or deleted one) with an address. */
export async function emailRecipient(db: DB, userId: string) {
  const member = await db
    .selectFrom('users')
    .select(['email', 'first_name', 'locale'])
    .where('id', '=', userId)
    .where(visibleMembers())
    .executeTakeFirst()
  return member?.email ? { ...member, email: member.email } : null
}

/** The email `notification` sends now, or null when it sends none. */
export async function composeNotificationEmail(db: DB, notification: NotificationRow, publicUrl: string): Promise<OutgoingEmail | null> {
  const { type } = notification
  const compose = composers[type]
  if (compose) return compose(db, notification, publicUrl)
  if (!isEmailed(type)) return null
  const parsed = dataSchemas[type].safeParse(notification.data)
  if (!parsed.success) return null
  const data: { experience_id: string; canceled_by?: string | undefined; invited_by?: string } = parsed.data
  const actor = data.canceled_by ?? data.invited_by
  if (actor === notification.user_id) return null

  const member = await emailRecipient(db, notification.user_id)
  if (!member) return null
  const experience = await db
    .selectFrom('experiences')
    .select(['id', 'title', 'host_id', 'start_at', 'timezone', 'no_show_fee_cents', 'canceled_at', 'venue_type', 'formatted_address', 'city', 'region'])
    .where('id', '=', data.experience_id)
    .executeTakeFirst()
  if (!experience) return null
  if (!(await experienceStillTrue(db, type, experience, notification.user_id))) return null

  const language = member.locale ?? 'en'
  const t = emailT(language)
  const kind = emailKinds[type]
  const when = experience.start_at ? formatZonedDateTime(experience.start_at, experience.timezone, language) : null
  const vars: Record<string, string> = { title: experience.title, when: when ?? '', hours: String(lateCancelWindowHours) }

  const paragraphs: string[] = []
  let attachments: OutgoingEmail['attachments']
  if (type === 'experience.canceled') {
    const byHost = !data.canceled_by || data.canceled_by === experience.host_id
    vars.name = byHost ? await memberName(db, experience.host_id, t('someone')) : ''
    paragraphs.push(t(byHost ? `${kind}.byHost` : `${kind}.byTeam`, vars))
    if (when) paragraphs.push(t(`${kind}.when`, vars))
    paragraphs.push(t(`${kind}.nothingToDo`))
    // The calendar file that takes it out of the member's calendar (the same UID as the one they added).
    const full = await db.selectFrom('experiences').selectAll().where('id', '=', experience.id).executeTakeFirstOrThrow()
    if (full.start_at) {
      paragraphs.push(t(`${kind}.calendar`))
      attachments = [
        {
          filename: `${full.slug}.ics`,
          contentType: 'text/calendar; method=CANCEL; charset=UTF-8',
          content: activityIcal({ ...full, start_at: full.start_at }, publicUrl, { details: true, method: 'CANCEL' }),
        },
      ]
    }
  } else if (type === 'experience.invited') {
    // Who invited: the host by name; an admin as the team, never named (decision 021).
    const byHost = data.invited_by === experience.host_id
    vars.name = byHost ? await memberName(db, experience.host_id, t('someone')) : t('team')
    const where = placeOf(experience, t('online'))
    paragraphs.push(t(`${kind}.body`, vars), [when ? t('when', vars) : t('noDate'), ...(where ? [t('where', { where })] : [])].join('\n'))
    paragraphs.push(t(`${kind}.notYet`))
    // Members are targeted by scammers: nothing happens unless they answer.
    if (byHost) paragraphs.push(t(`${kind}.ifUnknown`, vars))
  } else {
    paragraphs.push(t(`${kind}.body`, vars), when ? t('when', vars) : t('noDate'))
    if (type === 'waitlist.selected' && experience.no_show_fee_cents) {
      paragraphs.push(t(`${kind}.fee`, { ...vars, fee: formatFee(experience.no_show_fee_cents, language) }))
    }
  }
  const url = `${publicUrl}/activities/${experience.id}`
  paragraphs.push(`${t(`${kind}.action`)}\n${url}`)

  return {
    to: member.email,
    kind,
    locale: language,
    subject: t(`${kind}.subject`, vars),
    text: [emailGreeting(t, member.first_name), ...paragraphs, t('signature')].join('\n\n'),
    ...(attachments ? { attachments } : {}),
  }
}

/**
 * Whether the news is still true when the job runs: the seat given is still held, the free seat
 * is still worth taking (the member is still waiting, the activity still on), the invitation
 * still waits for an answer at an activity that still takes place. A cancellation always is.
 */
async function experienceStillTrue(db: DB, type: EmailedType, experience: { id: string; start_at: Date | null; canceled_at: Date | null }, userId: string) {
  if (type === 'experience.canceled') return experience.canceled_at !== null
  if (experience.canceled_at || hasStarted(experience.start_at)) return false
  if (type === 'experience.invited') {
    // Still waiting for an answer: not declined, nor accepted (a seat taken another way accepts it).
    const invitation = await db
      .selectFrom('experience_invitations')
      .select('state')
      .where('experience_id', '=', experience.id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return invitation?.state === 'pending'
  }
  const table = type === 'waitlist.selected' ? 'experience_attendees' : 'waitlist_entries'
  const row = await db.selectFrom(table).select('user_id').where('experience_id', '=', experience.id).where('user_id', '=', userId).executeTakeFirst()
  return row !== undefined
}

/**
 * Whether a notification is still worth sending on any channel when its delivery runs: the
 * news about an activity is still true (above); a new message is still unread (a member who
 * read it, or has the channel open, hears nothing more of it); a seat taken at a hosted activity
 * is still held. Everything else always is.
 */
export async function stillTrue(db: DB, notification: NotificationRow): Promise<boolean> {
  const { type } = notification
  if (isEmailed(type)) {
    const data = dataSchemas[type].safeParse(notification.data).data
    if (!data) return false
    const experience = await db.selectFrom('experiences').select(['id', 'start_at', 'canceled_at']).where('id', '=', data.experience_id).executeTakeFirst()
    return experience !== undefined && experienceStillTrue(db, type, experience, notification.user_id)
  }
  if (type === 'message.new') {
    const data = messageData.safeParse(notification.data).data
    if (!data) return false
    const unread = await db
      .selectFrom('messages')
      .innerJoin('channel_memberships as m', 'm.channel_id', 'messages.channel_id')
      .select('messages.id')
      .where('messages.id', '=', data.message_id)
      .where('messages.deleted_at', 'is', null)
      .where('m.user_id', '=', notification.user_id)
      .where('m.left_at', 'is', null)
      .where((eb) => eb.or([eb('m.last_read_at', 'is', null), eb('m.last_read_at', '<', eb.ref('messages.created_at'))]))
      .executeTakeFirst()
    return unread !== undefined
  }
  if (type === 'experience.attendee_joined') {
    const data = attendeeData.safeParse(notification.data).data
    if (!data) return false
    const seat = await db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', data.experience_id).where('user_id', '=', data.attendee_id).executeTakeFirst()
    return seat !== undefined
  }
  return true
}

const messageData = z.object({ channel_id: uuid, message_id: uuid })
const attendeeData = z.object({ experience_id: uuid, attendee_id: uuid })

/** Where an activity takes place, in one line: its address with its city, or "Online". */
export function placeOf(
  experience: Pick<Experience, 'venue_type' | 'formatted_address' | 'city' | 'region'>,
  online: string,
) {
  if (experience.venue_type === 'online') return online
  if (experience.formatted_address) return addressWithCity(experience.formatted_address, experience.city, experience.region)
  return [experience.city, experience.region].filter(Boolean).join(', ')
}

/** The display name of spec §3 (contract/display-name.ts); `fallback` for a suspended or missing member. */
async function memberName(db: DB, userId: string | null, fallback: string) {
  if (!userId) return fallback
  const user = await db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'formatted_name', 'name', 'banned', 'is_suspended', 'state'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user || user.state === 'deleted' || user.state === 'suspended') return fallback
  return displayName(user) ?? fallback
}

/** Spec §9 money: whole dollars, or two decimals when there are cents (as the activity page shows it). */
export function formatFee(cents: number, language: string) {
  const whole = cents % 100 === 0
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100)
}
