import { sql, type Kysely } from 'kysely'

/**
 * `sms_inbound_messages` (issue 29 §5, decision 066): the `MessageSid` of every inbound text acted
 * on, so that a Twilio request sent again (a replay: Twilio's signature has no time in it) is
 * acted on once. Kept: a sid and a time, nothing about the member, and a replay can come at any
 * time.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE sms_inbound_messages (
      message_sid text PRIMARY KEY,
      received_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE sms_inbound_messages`.execute(db)
}
