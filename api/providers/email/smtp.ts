import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport'
import { z } from 'zod'
import type { DB } from '../../db/database.ts'
import { defineJob, RETRIED_FOR_A_DAY } from '../../jobs/job.ts'
import type { Logger } from '../../logger.ts'

/**
 * The email provider's vendor adapter: any SMTP server (SMTP_URL) through nodemailer. Mail
 * waiting in the outbox is delivered by the `email.deliver` job.
 */

export interface SmtpOptions {
  url: string
  from: string
  /** Gives up on a mail server that does not answer within this many ms (default 10 s). */
  timeoutMs?: number
}

/** Sends one outbox row over SMTP and records `sent_at`; a row already sent is not sent again. */
export function createSmtpDelivery(db: DB, smtp: SmtpOptions) {
  const timeout = smtp.timeoutMs ?? 10_000
  const transport = nodemailer.createTransport({ url: smtp.url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout } satisfies SMTPTransport.Options)
  return async function deliver(id: string) {
    const email = await db.selectFrom('email_outbox').selectAll().where('id', '=', id).where('sent_at', 'is', null).executeTakeFirst()
    if (!email) return null
    await transport.sendMail({
      from: smtp.from,
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      html: email.html_body ?? undefined,
      headers: email.headers ?? {},
      attachments: (email.attachments ?? []).map((file) => ({
        filename: file.filename,
        contentType: file.content_type,
        content: Buffer.from(file.content, 'base64'),
      })),
    })
    await db.updateTable('email_outbox').set({ sent_at: new Date() }).where('id', '=', id).execute()
    return email
  }
}

/** What the email jobs need: without a mail server (no SMTP_URL) they are not worked here. */
interface EmailJobServices {
  db: DB
  smtp?: SmtpOptions | undefined
  logger: Logger
}

const outboxRow = z.object({ id: z.guid() })

/**
 * Where a queued email that failed for good is handed (pg-boss's dead letter): its outbox row is
 * marked failed and the failure logged as an error, so no email is dropped silently.
 */
export const emailFailedJob = defineJob({
  name: 'email.failed',
  payload: outboxRow,
  retryLimit: 10,
  timeoutSeconds: 60,
  runsWhen: ({ smtp }: EmailJobServices) => smtp !== undefined,
  async handler({ id }, { db, logger }: EmailJobServices) {
    const email = await db
      .updateTable('email_outbox')
      .set({ failed_at: new Date() })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where('failed_at', 'is', null)
      .returning(['kind', 'attempts', 'last_error'])
      .executeTakeFirst()
    if (email) logger.error({ kind: email.kind, emailId: id, attempts: email.attempts, lastError: email.last_error }, 'Email not delivered: the mail server failed for more than a day; given up')
  },
})

/** Delivers one queued outbox row over SMTP (`mailer.send` queues it). */
export const emailDeliveryJob = defineJob({
  name: 'email.deliver',
  payload: outboxRow,
  // A notification is still worth having after an outage of a few hours.
  ...RETRIED_FOR_A_DAY,
  // Within nodemailer's own timeouts (10 s to connect, greet and each exchange).
  timeoutSeconds: 60,
  deadLetter: emailFailedJob.name,
  runsWhen: ({ smtp }: EmailJobServices) => smtp !== undefined,
  async handler({ id }, { db, smtp, logger }: EmailJobServices) {
    if (!smtp) throw new Error('No mail server is configured (SMTP_URL)')
    try {
      const email = await createSmtpDelivery(db, smtp)(id)
      if (email) logger.info({ kind: email.kind }, 'Email sent')
    } catch (error) {
      // The outbox says how it is going; the queue retries.
      await db
        .updateTable('email_outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: errorText(error) }))
        .where('id', '=', id)
        .execute()
      throw error
    }
  },
})
export const EMAIL_DELIVERY_JOB = emailDeliveryJob.name

/** An error as one line for the outbox (SMTP answers carry their code, e.g. "451 Try again later"). */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 500)
}
