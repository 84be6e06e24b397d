import nodemailer from 'nodemailer'
import type { DB } from '../db/database.ts'
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

/**
 * Email: SMTP through nodemailer when SMTP_URL is set; otherwise every message is written to the
 * outbox table, which `/dev/outbox` shows outside production. With SMTP the outbox still records
 * what was sent (with sent_at) so support can see that a code went out.
 */
export function createMailer(options: { db: DB; smtpUrl?: string; from: string; logger: Logger }): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null
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
      if (!transport) return
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        })
        await options.db.updateTable('email_outbox').set({ sent_at: new Date() }).where('id', '=', row.id).execute()
      } catch (error) {
        options.logger.error({ err: error, kind: message.kind }, 'Sending email failed')
        throw error
      }
    },
  }
}
