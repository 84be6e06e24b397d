import nodemailer from 'nodemailer'
import type { DB } from '../db/database.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'

export interface OutgoingEmail {
  to: string
  subject: string
  text: string
  html?: string
  kind: string
  locale: string
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<void>
}

export const EMAIL_DELIVERY_JOB = 'email.deliver'

/**
 * Email goes through the outbox table first. Without SMTP_URL that is where it stays, and
 * `/dev/outbox` shows it outside production. With SMTP_URL a background job delivers it through
 * nodemailer (retried with backoff when the mail server is down) and records `sent_at`, so a
 * slow or failing mail server never holds up sign-in, and support can see that a code went out.
 */
export function createMailer(options: { db: DB; smtpUrl?: string | undefined; queue?: JobQueue | undefined }): Mailer {
  if (options.smtpUrl && !options.queue) throw new Error('SMTP delivery needs the job queue')
  return {
    async send(message) {
      const row = await options.db
        .insertInto('email_outbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          kind: message.kind,
          locale: message.locale,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (options.smtpUrl) await options.queue?.send(EMAIL_DELIVERY_JOB, { id: row.id })
    },
  }
}

/** The worker that delivers outbox rows over SMTP; a row already sent is not sent again. */
export async function startEmailDelivery(options: {
  db: DB
  queue: JobQueue
  smtpUrl: string
  from: string
  logger: Logger
  /** First retry after this many seconds, doubling each time (default 15). */
  retryDelaySeconds?: number
}) {
  const transport = nodemailer.createTransport(options.smtpUrl)
  await options.queue.define(EMAIL_DELIVERY_JOB, { retryLimit: 8, retryDelaySeconds: options.retryDelaySeconds ?? 15 })
  await options.queue.work<{ id: string }>(EMAIL_DELIVERY_JOB, async ({ id }) => {
    const email = await options.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .executeTakeFirst()
    if (!email) return
    await transport.sendMail({
      from: options.from,
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      html: email.html_body ?? undefined,
    })
    await options.db.updateTable('email_outbox').set({ sent_at: new Date() }).where('id', '=', id).execute()
    options.logger.info({ kind: email.kind }, 'Email sent')
  })
}
