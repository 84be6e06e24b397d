import { z } from 'zod'
import type { DB } from '../../db/database.ts'
import { defineJob } from '../../jobs/job.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import type { Logger } from '../../logger.ts'
import { visibleMembers } from '../../policy/members.ts'
import { createTwilioClient, TwilioError, type TwilioOptions } from './twilio.ts'

export interface OutgoingSms {
  /** The member it is for: the text goes to their phone, only once they confirmed it. */
  userId: string
  text: string
  /** What it is (`reminder`, `seat_offer`, `phone_code`, `reply`), for the outbox and the logs. */
  kind: string
  locale: string
  /** The activity it is about: a reply "C" cancels the member's seat at the latest such activity. */
  experienceId?: string | null
}

export interface SmsSender {
  /**
   * A text to a member (a reminder, a seat offer): sent only when their phone is confirmed, has
   * not texted STOP (decision 057) and they are visible (not suspended, banned or deleted);
   * false otherwise, and nothing is recorded (so too in production without Twilio, where nobody
   * would ever get it). With Twilio, it is delivered by the `sms.deliver` job (retried); with
   * `transaction`, the outbox row and its job exist only if it commits.
   */
  send(message: OutgoingSms, options?: { transaction?: DB }): Promise<boolean>
  /**
   * A text only useful now (the phone confirmation code) to `to`, the member's number even
   * before it is confirmed: tried at once, never queued. `sent: false` means Twilio refused it
   * or could not be reached, or, in production without Twilio, that nothing can send it (nothing
   * is recorded then); `stopped` that the number texted STOP (nothing is recorded either).
   */
  sendNow(message: OutgoingSms & { to: string }): Promise<{ sent: boolean; stopped?: true }>
  /**
   * The answer to a member's inbound text, recorded in the outbox. With Twilio it goes back in
   * the webhook's TwiML answer (so it is recorded as sent); built in, it waits in the outbox.
   */
  recordReply(message: OutgoingSms & { to: string }): Promise<void>
  /** Whether Twilio sends the texts (otherwise they stay in the outbox). */
  readonly twilio: boolean
}

/**
 * Texts go through the `sms_outbox` table first, like email (decision 049). Without Twilio that
 * is where they stay, and `/dev/outbox` shows them outside production. With Twilio, `sent_at` and
 * Twilio's message sid are recorded once it accepted a text. In `production` without Twilio
 * nobody reads the outbox: no text is sent (or recorded), and the callers hear so.
 */
export function createSmsSender(options: {
  db: DB
  twilio?: TwilioOptions | undefined
  queue?: Pick<JobQueue, 'send'> | undefined
  logger?: Logger | undefined
  production?: boolean | undefined
}): SmsSender {
  const { db, twilio, queue, logger } = options
  if (twilio && !queue) throw new Error('Twilio delivery needs the job queue')
  const deliver = twilio ? createSmsDelivery(db, twilio) : null
  const undeliverable = Boolean(options.production) && !twilio

  async function record(message: OutgoingSms & { to: string }, trx: DB = db, sentAt: Date | null = null) {
    const row = await trx
      .insertInto('sms_outbox')
      .values({
        user_id: message.userId,
        to_number: message.to,
        body: message.text,
        kind: message.kind,
        locale: message.locale,
        experience_id: message.experienceId ?? null,
        sent_at: sentAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  return {
    twilio: Boolean(twilio),
    async send(message, sendOptions = {}) {
      if (undeliverable) return false
      const trx = sendOptions.transaction ?? db
      const member = await trx
        .selectFrom('users')
        .select('phone')
        .where('id', '=', message.userId)
        .where('phone', 'is not', null)
        .where('phone_confirmed_at', 'is not', null)
        .where(visibleMembers())
        .where((eb) => eb.not(eb.exists(eb.selectFrom('sms_opt_outs').select('phone').whereRef('sms_opt_outs.phone', '=', 'users.phone'))))
        .executeTakeFirst()
      if (!member?.phone) return false
      const id = await record({ ...message, to: member.phone }, trx)
      if (twilio) await queue?.send(smsDeliveryJob.name, { id }, sendOptions.transaction ? { transaction: sendOptions.transaction } : {})
      return true
    },
    async sendNow(message) {
      if (undeliverable) return { sent: false }
      if (await textsStopped(db, message.to)) return { sent: false, stopped: true }
      const id = await record(message)
      if (!deliver) return { sent: true }
      try {
        await deliver(id)
        return { sent: true }
      } catch (error) {
        logger?.error({ err: error, kind: message.kind }, 'Text message could not be sent')
        return { sent: false }
      }
    },
    async recordReply(message) {
      await record(message, db, twilio ? new Date() : null)
    },
  }
}

/** Whether `phone` texted STOP and not START since (decision 057). */
export async function textsStopped(db: DB, phone: string) {
  return (await db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', phone).executeTakeFirst()) !== undefined
}

/** `phone` texted STOP (or Twilio says so): no text goes to it until it texts START. */
export async function stopTexts(db: DB, phone: string) {
  await db.insertInto('sms_opt_outs').values({ phone }).onConflict((oc) => oc.column('phone').doNothing()).execute()
}

/** `phone` texted START: texts may go to it again. */
export async function allowTexts(db: DB, phone: string) {
  await db.deleteFrom('sms_opt_outs').where('phone', '=', phone).execute()
}

/** Twilio's refusal to text a number that texted STOP to our sender (the carrier's list). */
const unsubscribedRecipient = 21610

/**
 * Sends one outbox text through Twilio and records `sent_at` and its sid; a text already sent is
 * not sent again. A number Twilio says texted STOP is added to ours, so nothing is tried again.
 */
export function createSmsDelivery(db: DB, twilio: TwilioOptions) {
  const client = createTwilioClient(twilio)
  return async function deliver(id: string) {
    const sms = await db.selectFrom('sms_outbox').selectAll().where('id', '=', id).where('sent_at', 'is', null).executeTakeFirst()
    if (!sms) return null
    const { sid } = await client.send(sms.to_number, sms.body).catch(async (error: unknown) => {
      if (error instanceof TwilioError && error.code === unsubscribedRecipient) await stopTexts(db, sms.to_number)
      throw error
    })
    await db.updateTable('sms_outbox').set({ sent_at: new Date(), provider_ref: sid }).where('id', '=', id).execute()
    return sms
  }
}

/**
 * Hands one queued outbox text to Twilio, retried with backoff while Twilio is down or limits the
 * rate; a refusal that will not change (an invalid number, code 21211) is logged and not retried.
 * Without Twilio texts stay in the outbox and nothing works this queue.
 */
export const smsDeliveryJob = defineJob({
  name: 'sms.deliver',
  payload: z.object({ id: z.guid() }),
  retryLimit: 8,
  retryDelaySeconds: 15,
  timeoutSeconds: 60,
  runsWhen: ({ twilio }: SmsJobServices) => twilio !== undefined,
  async handler({ id }, { db, twilio, logger }: SmsJobServices) {
    if (!twilio) throw new Error('Twilio is not configured')
    try {
      const sms = await createSmsDelivery(db, twilio)(id)
      if (sms) logger.info({ kind: sms.kind }, 'Text message sent')
    } catch (error) {
      if (error instanceof TwilioError && !error.retryable) {
        logger.warn({ err: error, code: error.code, id }, 'Twilio refused a text message; not retried')
        return
      }
      throw error
    }
  },
})
export const SMS_DELIVERY_JOB = smsDeliveryJob.name

interface SmsJobServices {
  db: DB
  twilio?: TwilioOptions | undefined
  logger: Logger
}

/** The newest texts in the outbox, for the development outbox page (/dev/outbox). */
export async function readSmsOutbox(db: DB, limit: number) {
  const rows = await db
    .selectFrom('sms_outbox')
    .select(['id', 'to_number', 'body', 'kind', 'experience_id', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    to: row.to_number,
    text: row.body,
    kind: row.kind,
    aboutActivity: row.experience_id !== null,
    createdAt: row.created_at.toISOString(),
  }))
}
