import { displayName } from '#contract/display-name.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { addressWithCity } from '#contract/place-line.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { DB } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { visibleMembers } from '../policy/members.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'
import type { OwnEmail } from './kind.ts'

/**
 * What the notification emails share (decision 018): whom they go to, the frame of an email about
 * an activity, and how they name a place, a member and a fee. Each type's own email is declared
 * with the type (api/notifications/types, decision 070), in the member's language. Only members
 * others may see get one (never a suspended or deleted one), and only while the news is still true
 * (delivery asks the type's `stillFor` first).
 */

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

/** What an activity email's own part is written with. */
export interface ActivityEmailContext<Data> {
  db: DB
  data: Data
  userId: string
  experience: Experience
  language: string
  /** `email:*` in the member's language. */
  t: ReturnType<typeof emailT>
  /** The copy's values: `title`, `when` (on the activity's own clock, '' without a date), `hours`; add to them. */
  vars: Record<string, string>
  when: string | null
  publicUrl: string
}

/**
 * The email of news about one activity (`data.experience_id`), its copy under `email:<copy>`: the
 * greeting, what `write` says (null: no email), the way to the activity's page (`<copy>.action`),
 * the signature; the subject is `<copy>.subject`.
 */
export function activityEmail<Data extends { experience_id: string }>(
  copy: string,
  write: (context: ActivityEmailContext<Data>) => Promise<{ paragraphs: string[]; attachments?: OutgoingEmail['attachments'] } | null>,
): OwnEmail<Data> {
  return {
    copy: [copy],
    async compose(db, notification, publicUrl) {
      const member = await emailRecipient(db, notification.user_id)
      if (!member) return null
      const experience = await db.selectFrom('experiences').selectAll().where('id', '=', notification.data.experience_id).executeTakeFirst()
      if (!experience) return null
      const language = member.locale ?? 'en'
      const t = emailT(language)
      const when = experience.start_at ? formatZonedDateTime(experience.start_at, experience.timezone, language) : null
      const vars: Record<string, string> = { title: experience.title, when: when ?? '', hours: String(lateCancelWindowHours) }
      const written = await write({ db, data: notification.data, userId: notification.user_id, experience, language, t, vars, when, publicUrl })
      if (!written) return null
      const url = `${publicUrl}/activities/${experience.id}`
      const paragraphs = [...written.paragraphs, `${t(`${copy}.action`)}\n${url}`]
      return {
        to: member.email,
        kind: copy,
        locale: language,
        subject: t(`${copy}.subject`, vars),
        text: [emailGreeting(t, member.first_name), ...paragraphs, t('signature')].join('\n\n'),
        ...(written.attachments ? { attachments: written.attachments } : {}),
      }
    },
  }
}

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
export async function memberName(db: DB, userId: string | null, fallback: string) {
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
