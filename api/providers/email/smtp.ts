import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport'
import type { DB } from '../../db/database.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import type { Logger } from '../../logger.ts'

/**
 * The email provider's vendor adapter: any SMTP server (SMTP_URL) through nodemailer. Mail
 * waiting in the outbox is delivered by the `email.deliver` job.
 */
export const EMAIL_DELIVERY_JOB = 'email.deliver'

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

/** The worker that delivers queued outbox rows over SMTP. */
export async function startEmailDelivery(options: {
  db: DB
  queue: JobQueue
  smtp: SmtpOptions
  logger: Logger
  /** First retry after this many seconds, doubling each time (default 15). */
  retryDelaySeconds?: number
}) {
  const deliver = createSmtpDelivery(options.db, options.smtp)
  await options.queue.define(EMAIL_DELIVERY_JOB, { retryLimit: 8, retryDelaySeconds: options.retryDelaySeconds ?? 15 })
  await options.queue.work<{ id: string }>(EMAIL_DELIVERY_JOB, async ({ id }) => {
    const email = await deliver(id)
    if (email) options.logger.info({ kind: email.kind }, 'Email sent')
  })
}
