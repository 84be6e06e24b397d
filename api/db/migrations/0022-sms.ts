import { sql, type Kysely } from 'kysely'

/**
 * Text messages (issue 15 §3, decision 049):
 * - `sms_outbox`: every text the product sends, like `email_outbox`; without Twilio that is where
 *   it stays (shown at /dev/outbox outside production), with Twilio `sent_at` and Twilio's
 *   message `sid` (`provider_ref`) are recorded once it is accepted. `experience_id` is the
 *   activity a text is about: a reply "C" cancels the seat at the activity of the latest one.
 * - `users.phone_confirmed_at`: set when the member typed back the 6-digit code texted to their
 *   phone; cleared whenever the phone changes. No text is sent before it.
 * - `login_codes.purpose` gains `confirm_phone` (the code is keyed on the phone number).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE sms_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      to_number text NOT NULL,
      body text NOT NULL,
      kind text NOT NULL,
      locale text NOT NULL,
      experience_id uuid REFERENCES experiences(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      provider_ref text
    );
    CREATE INDEX sms_outbox_user ON sms_outbox (user_id, created_at DESC);
    CREATE INDEX sms_outbox_created ON sms_outbox (created_at DESC);

    ALTER TABLE users ADD COLUMN phone_confirmed_at timestamptz;

    ALTER TABLE login_codes DROP CONSTRAINT IF EXISTS login_codes_purpose_check;
    ALTER TABLE login_codes ADD CONSTRAINT login_codes_purpose_check
      CHECK (purpose IN ('sign_in', 'sign_up', 'reset_password', 'change_email', 'confirm_phone'));
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DELETE FROM login_codes WHERE purpose = 'confirm_phone';
    ALTER TABLE login_codes DROP CONSTRAINT IF EXISTS login_codes_purpose_check;
    ALTER TABLE login_codes ADD CONSTRAINT login_codes_purpose_check
      CHECK (purpose IN ('sign_in', 'sign_up', 'reset_password', 'change_email'));
    ALTER TABLE users DROP COLUMN IF EXISTS phone_confirmed_at;
    DROP TABLE sms_outbox;
  `.execute(db)
}
