import type { PhoneConfirmation, PhoneConfirmationStarted } from '#contract/sms.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { DB } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import type { User } from '../db/schema.ts'
import { cancelAttendance } from '../experiences/attendance.ts'
import { hasStarted } from '../experiences/service.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { forgiveHit, type Limit, requireWithinLimit } from '../http/security.ts'
import { smsT } from '../i18n.ts'
import { codeTtlMs, createCodes } from '../identity/codes.ts'
import { visibleMembers } from '../policy/members.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import { allowTexts, stopTexts, type SmsSender } from '../providers/sms/sender.ts'
import { revokeMedicareConsentsForPhone } from '../medicare/service.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { formatPhone, normalizePhone } from '../users/service.ts'

/**
 * Text messages (issue 15 §3, decision 049): confirming the member's phone with a texted code,
 * and the member's replies ("C" cancels their seat at the activity of the latest text about one).
 */

export interface SmsDeps extends AfterCommit {
  db: DB
  sms: SmsSender
  codeSecret: string
  /** "C" cancels a seat as the web does, which answers the activity (its photos at these URLs). */
  media: MediaStorage
  /** A STOP ends permission to be called about Medicare plans, and the agency is emailed (decision 086). */
  mailer: Mailer
  logger: Logger
}

const fifteenMinutes = 15 * 60
/** Per member; the code itself allows 5 attempts (api/identity/codes.ts). */
export const phoneConfirmationLimits = {
  send: { name: 'phone-code-send', max: 5, windowSeconds: fifteenMinutes },
  sendToNumber: { name: 'phone-code-number', max: 5, windowSeconds: fifteenMinutes },
  check: { name: 'phone-code-check', max: 10, windowSeconds: fifteenMinutes },
} satisfies Record<string, Limit>


/** The "Reply C to cancel" line the reminder and seat-offer texts end with, in the member's language. */
export function smsReplyHint(locale: string | null | undefined) {
  return smsT(locale)('replyHint')
}

/**
 * `POST v1/users/me/phone/confirmation`: texts a 6-digit code (10 minutes, 5 attempts) to the
 * member's phone; a new code replaces the earlier one.
 */
export async function startPhoneConfirmation(deps: SmsDeps, caller: User): Promise<PhoneConfirmationStarted> {
  requirePermission(caller, 'update:user', { id: caller.id })
  const phone = caller.phone
  if (!phone) throw problems.conflict('phone_missing', 'Add a phone number to your account first.')
  if (caller.phone_confirmed_at) throw problems.conflict('phone_confirmed', 'This phone number is already confirmed.')
  await requireWithinLimit(deps.db, phoneConfirmationLimits.send, caller.id, problems.tooManyAttempts)
  await requireWithinLimit(deps.db, phoneConfirmationLimits.sendToNumber, phone, problems.tooManyAttempts)
  const code = await createCodes(deps).issue(phone, 'confirm_phone', { user_id: caller.id })
  const locale = caller.locale ?? 'en'
  const { sent, stopped } = await deps.sms.sendNow({ to: phone, userId: caller.id, kind: 'phone_code', locale, text: smsT(locale)('code', { code }) })
  if (stopped) throw problems.conflict('texts_stopped', 'This number asked us to stop texting it (it replied STOP). Reply START to one of our texts first.')
  if (!sent) throw new ApiProblem(503, 'sms_not_sent', 'The text message could not be sent. Please try again later.')
  return { phone: formatPhone(phone) ?? phone, expires_in_minutes: codeTtlMs / 60_000 }
}

/**
 * `PUT v1/users/me/phone/confirmation`: the code texted to the member's phone, checked and
 * consumed in one statement. The phone is then the member's: another account that had confirmed
 * the same number loses its confirmation (replies from it now belong to this member).
 */
export async function confirmPhone(deps: SmsDeps, caller: User, input: PhoneConfirmation): Promise<User> {
  requirePermission(caller, 'update:user', { id: caller.id })
  const { db } = deps
  const phone = caller.phone
  if (!phone) throw problems.conflict('phone_missing', 'Add a phone number to your account first.')
  await requireWithinLimit(db, phoneConfirmationLimits.check, caller.id, problems.tooManyAttempts)
  const result = await createCodes(deps).consume(phone, input.code, 'confirm_phone')
  if ('error' in result) throw problems.invalid({ code: [result.error === 'expired' ? 'code_expired' : 'code_invalid'] })
  if (result.payload?.user_id !== caller.id) throw problems.invalid({ code: ['code_invalid'] })
  // A try that succeeded does not count against the member.
  await forgiveHit(db, phoneConfirmationLimits.check, caller.id)
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ phone_confirmed_at: null }).where('phone', '=', phone).where('id', '<>', caller.id).execute()
    const updated = await trx
      .updateTable('users')
      .set({ phone_confirmed_at: new Date(), updated_at: new Date() })
      .where('id', '=', caller.id)
      .where('phone', '=', phone)
      .returningAll()
      .executeTakeFirst()
    if (!updated) throw problems.invalid({ code: ['code_expired'] })
    return updated
  })
}

export type InboundOutcome = 'cancelled' | 'nothing_to_cancel' | 'help' | 'stopped' | 'restarted' | 'ignored' | 'duplicate'

/**
 * The words a member may text back to cancel their seat (trimmed, any case). Not "CANCEL":
 * carriers and Twilio read it as STOP (decision 057), so it would end every text to the member.
 */
const smsCancelWords = ['c', 'annuler', 'annuleer'] as const

/**
 * The words after which carriers and Twilio stop every text from us to the number (Twilio's
 * default opt-out keywords; trimmed, any case), and those that allow texts again (decision 057).
 */
const smsStopWords = ['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit', 'optout', 'revoke'] as const
const smsStartWords = ['start', 'unstop', 'yes'] as const
/** The words Twilio answers with its own help text on a long code (trimmed, any case). */
const smsHelpWords = ['help', 'info'] as const

const isOneOf = (words: readonly string[], body: string) => words.includes(body.trim().toLowerCase())

/**
 * A text a member sent us (`POST v1/sms/inbound`). STOP (or a word carriers treat the same)
 * stops every text to the number, START allows them again, from any number (decision 057):
 * the carrier already blocks it, and we keep the same list. `optOutType` is Twilio's reading of
 * the text (`STOP`, `START`, `HELP`) when its Advanced Opt-Out knows more words than ours.
 * With Twilio, HELP and INFO get Twilio's help text only (it answers them itself): ours would
 * be a second text saying the same.
 *
 * Otherwise, from a number no visible member confirmed: ignored, no answer. "C" (or ANNULER,
 * ANNULEER; trimmed, any case) cancels the member's seat at the activity of the latest text
 * about one sent to them, if it is still upcoming and they still hold a seat, through the
 * attendance service (the notify list is offered the seat); anything else gets a short help
 * text. The answer is recorded in the outbox and returned; after STOP and START only without
 * Twilio, which sends the carriers' own confirmation itself.
 */
export async function handleInboundSms(deps: SmsDeps, from: string, body: string, optOutType?: string): Promise<{ outcome: InboundOutcome; reply: string | null }> {
  const { db } = deps
  const number = normalizePhone(from)
  if (!number) return { outcome: 'ignored', reply: null }
  const stop = optOutType === 'STOP' || isOneOf(smsStopWords, body)
  const restart = !stop && (optOutType === 'START' || isOneOf(smsStartWords, body))
  if (stop) {
    await stopTexts(db, number)
    // STOP is a reasonable way to say "do not call me" too: permission to be called about Medicare
    // ends, and each agency that held it is emailed a stop notice (decision 086).
    await revokeMedicareConsentsForPhone(deps, number)
  }
  if (restart) await allowTexts(db, number)
  const twilioHelps = deps.sms.twilio && (optOutType === 'HELP' || isOneOf(smsHelpWords, body))
  if (twilioHelps && !stop && !restart) return { outcome: 'help', reply: null }
  const member = await db
    .selectFrom('users')
    .selectAll()
    .where('phone', '=', number)
    .where('phone_confirmed_at', 'is not', null)
    .where(visibleMembers())
    .orderBy('phone_confirmed_at', 'desc')
    .executeTakeFirst()
  if (stop || restart) {
    const outcome = stop ? 'stopped' : 'restarted'
    if (!member || deps.sms.twilio) return { outcome, reply: null }
    const reply = smsT(member.locale)(outcome)
    await deps.sms.recordReply({ to: number, userId: member.id, kind: 'reply', locale: member.locale ?? 'en', text: reply })
    return { outcome, reply }
  }
  if (!member) return { outcome: 'ignored', reply: null }
  const locale = member.locale ?? 'en'
  const t = smsT(locale)

  let outcome: InboundOutcome = 'help'
  let reply = t('help')
  if (isOneOf(smsCancelWords, body)) {
    const cancelled = await cancelLatestSeat(deps, member)
    outcome = cancelled ? 'cancelled' : 'nothing_to_cancel'
    reply = cancelled ? t(cancelled.late ? 'cancelledLate' : 'cancelled', { title: cancelled.title }) : t('nothingToCancel')
  }
  await deps.sms.recordReply({ to: number, userId: member.id, kind: 'reply', locale, text: reply })
  return { outcome, reply }
}

/**
 * `handleInboundSms` once per `MessageSid` (decision 066): Twilio's signature covers the request
 * but has no time in it, so a request captured once could be sent again and again (a second "C"
 * after the member took their seat back, a STOP after their START). The sid is recorded first, in
 * one statement (concurrent copies: one wins); a copy gets `duplicate` and changes nothing. If the
 * handling fails, the sid is let go so that Twilio's retry is acted on. Without a sid (only the
 * built-in outbox could send one so, from this machine) the text is handled as it comes.
 */
export async function handleInboundSmsOnce(deps: SmsDeps, messageSid: string | null, from: string, body: string, optOutType?: string): Promise<{ outcome: InboundOutcome; reply: string | null }> {
  if (messageSid === null) return handleInboundSms(deps, from, body, optOutType)
  const recorded = await deps.db
    .insertInto('sms_inbound_messages')
    .values({ message_sid: messageSid })
    .onConflict((conflict) => conflict.column('message_sid').doNothing())
    .returning('message_sid')
    .executeTakeFirst()
  if (!recorded) return { outcome: 'duplicate', reply: null }
  try {
    return await handleInboundSms(deps, from, body, optOutType)
  } catch (error) {
    await deps.db.deleteFrom('sms_inbound_messages').where('message_sid', '=', messageSid).execute()
    throw error
  }
}

async function cancelLatestSeat(deps: SmsDeps, member: User) {
  const latest = await deps.db
    .selectFrom('sms_outbox')
    .innerJoin('experiences', 'experiences.id', 'sms_outbox.experience_id')
    .select(['experiences.id', 'experiences.title', 'experiences.start_at', 'experiences.canceled_at'])
    .where('sms_outbox.user_id', '=', member.id)
    .orderBy('sms_outbox.created_at', 'desc')
    .executeTakeFirst()
  if (!latest || latest.canceled_at || hasStarted(latest, Date.now())) return null
  try {
    const result = await cancelAttendance(deps, member, latest.id, member.id)
    return { title: latest.title, late: result.metadata.late_cancellation }
  } catch (error) {
    // They no longer hold a seat there (cancelled already, or the activity changed meanwhile).
    if (error instanceof ApiProblem && (error.status === 404 || error.status === 409)) return null
    throw error
  }
}
