import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport'
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
  /** Mail that can wait (a welcome): delivered by a background job, retried with backoff. */
  send(message: OutgoingEmail): Promise<void>
  /**
   * Mail that is only useful now (a one-time code): tried at once, never queued for later.
   * `sent: false` means the mail server failed and the member must be told; a retry an hour
   * later would deliver a code that expired or was replaced long ago.
   */
  sendNow(message: OutgoingEmail): Promise<{ sent: boolean }>
}

export const EMAIL_DELIVERY_JOB = 'email.deliver'

export interface SmtpOptions {
  url: string
  from: string
  /** Gives up on a mail server that does not answer within this many ms (default 10 s). */
  timeoutMs?: number
}

/**
 * Email goes through the outbox table first. Without SMTP that is where it stays, and
 * `/dev/outbox` shows it outside production. With SMTP, queued mail is delivered by a background
 * job (retried when the mail server is down) and mail sent now goes straight to the server; both
 * record `sent_at`, so support can see whether a code went out.
 */
export function createMailer(options: { db: DB; smtp?: SmtpOptions | undefined; queue?: JobQueue | undefined; logger?: Logger | undefined }): Mailer {
  const { db, smtp, queue, logger } = options
  if (smtp && !queue) throw new Error('SMTP delivery needs the job queue')
  const deliver = smtp ? createDelivery(db, smtp) : null

  async function record(message: OutgoingEmail) {
    const row = await db
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
    return row.id
  }

  return {
    async send(message) {
      const id = await record(message)
      if (smtp) await queue?.send(EMAIL_DELIVERY_JOB, { id })
    },
    async sendNow(message) {
      const id = await record(message)
      if (!deliver) return { sent: true }
      try {
        await deliver(id)
        return { sent: true }
      } catch (error) {
        logger?.error({ err: error, kind: message.kind }, 'Email could not be sent')
        return { sent: false }
      }
    },
  }
}

/** Sends one outbox row over SMTP and records `sent_at`; a row already sent is not sent again. */
function createDelivery(db: DB, smtp: SmtpOptions) {
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
  const deliver = createDelivery(options.db, options.smtp)
  await options.queue.define(EMAIL_DELIVERY_JOB, { retryLimit: 8, retryDelaySeconds: options.retryDelaySeconds ?? 15 })
  await options.queue.work<{ id: string }>(EMAIL_DELIVERY_JOB, async ({ id }) => {
    const email = await deliver(id)
    if (email) options.logger.info({ kind: email.kind }, 'Email sent')
  })
}
