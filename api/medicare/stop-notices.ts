import { sql } from 'kysely'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import type { MedicareRevocationMethod } from '#contract/medicare.ts'
import type { DB, Trx } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import type { Mailer, OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * Stop notices (issue 33 §2, decision 086): the words a member agrees to promise "We stop sharing
 * your details at once and tell <Agency> within one business day". Every consent that ends — the
 * member's "Stop these calls", a texted STOP, the account deleted — is emailed to the agency that
 * held it, at its `notices_email`, in the revocation's own transaction: the outbox row, its
 * delivery job and the `medicare_stop_notices` row exist exactly when the revocation commits
 * (decision 072). An agency without an address (named before 0043) gets nothing; a warning is
 * logged and the team's page says so.
 *
 * The notice is in English: the agency is a US business, and this is a business record (like the
 * list's CSV columns), not words a member reads. It holds only what it needs to find and drop the
 * person — the consent's id, their first and last name, the number they agreed to be called at,
 * when and how the consent ended — and the instruction not to call; never the topics.
 */

export interface StopNoticeDeps {
  db: DB
  mailer: Mailer
  logger: Logger
}

const howStopped: Record<MedicareRevocationMethod, string> = {
  member: 'The member pressed “Stop these calls” in their Circle 55 account.',
  sms_stop: 'The member texted STOP to Circle 55 from the phone number above.',
  account_deleted: 'The member deleted their Circle 55 account.',
}

export const stopInstruction = "Do not call this person about Medicare plans: they have withdrawn the permission they gave through Circle 55."

/** `May 12, 2026, 10:03 AM EDT (2026-05-12T14:03:00.000Z)`: the agency's clock, and an exact one. */
function usTime(at: Date) {
  const eastern = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/New_York' }).format(at)
  const zone = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'ET'
  return `${eastern} ${zone} (${at.toISOString()})`
}

export interface StopNoticeFacts {
  consentId: string
  firstName: string | null
  lastName: string | null
  /** E.164 as agreed; null once an account's deletion blanked it (then the last four digits). */
  phone: string | null
  phoneLast4: string
  method: MedicareRevocationMethod
  revokedAt: Date
  agency: string
}

/** The email itself. */
export function stopNoticeEmail(to: string, facts: StopNoticeFacts): OutgoingEmail {
  const phone = facts.phone ? `${parsePhoneNumberFromString(facts.phone, 'US')?.formatNational() ?? facts.phone} (${facts.phone})` : `the number ending in ${facts.phoneLast4}`
  const shortId = facts.consentId.slice(0, 8)
  const text = [
    `To ${facts.agency}:`,
    'A Circle 55 member has withdrawn their permission to be called about Medicare plans. It ended at once, when they stopped it.',
    [`Consent: ${facts.consentId}`, `First name: ${facts.firstName?.trim() || '(none)'}`, `Last name: ${facts.lastName?.trim() || '(none)'}`, `Phone number: ${phone}`, `Stopped: ${usTime(facts.revokedAt)}`, `How: ${howStopped[facts.method]}`].join('\n'),
    stopInstruction,
    'Circle 55 sends this notice as soon as a consent ends. The next list you receive leaves this person out too.',
    'Circle 55',
  ].join('\n\n')
  return { to, subject: `Stop calls: Circle 55 consent ${shortId}`, text, kind: 'medicareStopNotice', locale: 'en' }
}

/**
 * Emails the agency of each consent in `consentIds` (just revoked in `trx`) its stop notice and
 * records it; a consent whose agency has no address is logged as a warning and left without one.
 * Call it before an account deletion blanks the phone number and the name.
 */
export async function queueStopNotices(deps: Omit<StopNoticeDeps, 'db'>, trx: Trx | DB, consentIds: readonly string[]) {
  if (consentIds.length === 0) return 0
  const rows = await trx
    .selectFrom('medicare_consents as c')
    .innerJoin('medicare_consent_revocations as r', 'r.consent_id', 'c.id')
    .innerJoin('medicare_partners as p', 'p.id', 'c.partner_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.phone', 'c.phone_last4', 'r.method', 'r.revoked_at', 'p.id as partner_id', 'p.name as agency', 'p.notices_email', 'u.first_name', 'u.last_name'])
    .where('c.id', 'in', consentIds)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('medicare_stop_notices as n').select(sql`1`.as('one')).whereRef('n.consent_id', '=', 'c.id'))))
    .orderBy('c.created_at')
    .execute()
  let queued = 0
  for (const row of rows) {
    if (!row.notices_email) {
      deps.logger.warn({ consentId: row.id, partnerId: row.partner_id }, 'Medicare consent stopped, but its agency has no stop-notice address: the agency was not told (decision 086)')
      continue
    }
    const email = stopNoticeEmail(row.notices_email, {
      consentId: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      phone: row.phone,
      phoneLast4: row.phone_last4,
      method: row.method,
      revokedAt: row.revoked_at,
      agency: row.agency,
    })
    const { id } = await deps.mailer.send(email, { transaction: trx })
    await trx.insertInto('medicare_stop_notices').values({ consent_id: row.id, partner_id: row.partner_id, to_address: row.notices_email, email_id: id }).execute()
    queued += 1
  }
  return queued
}

/** For the team's page: stops emailed to `partnerId` in the last 30 days, and how many of them the mail server gave up on. */
export async function stopNoticeCounts(db: DB | Trx, partnerId: string) {
  const row = await db
    .selectFrom('medicare_stop_notices as n')
    .leftJoin('email_outbox as e', 'e.id', 'n.email_id')
    .select((eb) => [eb.fn.countAll<string>().as('total'), eb.fn.count<string>('e.failed_at').as('failed')])
    .where('n.partner_id', '=', partnerId)
    .where('n.queued_at', '>', sql<Date>`now() - interval '30 days'`)
    .executeTakeFirstOrThrow()
  return { last_30_days: Number(row.total), not_delivered: Number(row.failed) }
}
