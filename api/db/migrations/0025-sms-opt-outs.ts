import { sql, type Kysely } from 'kysely'

/**
 * `sms_opt_outs` (decision 057): the numbers that texted STOP (or a word carriers treat the same)
 * and have not texted START since. Kept by number, not by member, as carriers keep it: the
 * number is blocked for our sender whoever's account holds it. No text is sent to one of them;
 * Twilio's refusal to send to one (error 21610) adds it too.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE sms_opt_outs (
      phone text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE sms_opt_outs`.execute(db)
}
