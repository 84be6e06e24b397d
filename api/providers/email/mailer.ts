import type { DB } from '../../db/database.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import type { Logger } from '../../logger.ts'
import { htmlFromText } from './html.ts'
import { createSmtpDelivery, emailDeliveryJob, errorText, type SmtpOptions } from './smtp.ts'

export interface OutgoingEmail {
  to: string
  subject: string
  text: string
  html?: string
  kind: string
  locale: string
  /** Extra headers (RFC 8058's List-Unsubscribe and List-Unsubscribe-Post for a topic's email). */
  headers?: Record<string, string>
  /** Files to attach, e.g. an activity's calendar file. */
  attachments?: { filename: string; contentType: string; content: Buffer | string }[]
}

export interface Mailer {
  /**
   * Mail that can wait (a welcome, a notification): delivered by a background job, retried with
   * backoff for more than a day, then marked failed in the outbox and logged as an error. With
   * `transaction`, the outbox row and its job are written by it: they exist only if it commits
   * (a notification's email is queued with the stamp that says it was delivered, exactly once).
   * Resolves to the outbox row's id (its `sent_at` says when it was delivered).
   */
  send(message: OutgoingEmail, options?: { transaction?: DB }): Promise<{ id: string }>
  /**
   * Mail that is only useful now (a one-time code): tried at once, never queued for later.
   * `sent: false` means the mail server failed and the member must be told; a retry an hour
   * later would deliver a code that expired or was replaced long ago.
   */
  sendNow(message: OutgoingEmail): Promise<{ sent: boolean }>
}

/**
 * Email goes through the outbox table first. Without SMTP that is where it stays, and
 * `/dev/outbox` shows it outside production. With SMTP, queued mail is delivered by a background
 * job (retried when the mail server is down) and mail sent now goes straight to the server; both
 * record `sent_at`, so support can see whether a code went out.
 */
export function createMailer(options: { db: DB; smtp?: SmtpOptions | undefined; queue?: Pick<JobQueue, 'send'> | undefined; logger?: Logger | undefined }): Mailer {
  const { db, smtp, queue, logger } = options
  if (smtp && !queue) throw new Error('SMTP delivery needs the job queue')
  const deliver = smtp ? createSmtpDelivery(db, smtp) : null

  async function record(message: OutgoingEmail, trx: DB = db) {
    const row = await trx
      .insertInto('email_outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? htmlFromText(message.text, { language: message.locale, subject: message.subject }),
        kind: message.kind,
        locale: message.locale,
        headers: message.headers ? JSON.stringify(message.headers) : null,
        attachments: message.attachments
          ? JSON.stringify(
              message.attachments.map((file) => ({
                filename: file.filename,
                content_type: file.contentType,
                content: Buffer.from(file.content).toString('base64'),
              })),
            )
          : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  return {
    async send(message, sendOptions = {}) {
      const { transaction } = sendOptions
      const id = await record(message, transaction)
      if (smtp) await queue?.send(emailDeliveryJob.name, { id }, transaction ? { transaction } : {})
      return { id }
    },
    async sendNow(message) {
      const id = await record(message)
      if (!deliver) return { sent: true }
      try {
        await deliver(id)
        return { sent: true }
      } catch (error) {
        logger?.error({ err: error, kind: message.kind }, 'Email could not be sent')
        // Never sent later; the outbox shows it failed.
        await db
          .updateTable('email_outbox')
          .set({ attempts: 1, last_error: errorText(error), failed_at: new Date() })
          .where('id', '=', id)
          .execute()
          .catch((recordError: unknown) => logger?.error({ err: recordError }, 'An email failure could not be recorded'))
        return { sent: false }
      }
    },
  }
}
