import { sql, type Kysely } from 'kysely'

/**
 * The no-show fee, charged fairly with consent (issue 31 §3, decision 075).
 * - `fee_consents`: append-only evidence of each member's agreement at the moment they saved a
 *   seat: the activity, the amount, the policy's version, the exact text shown (in the language
 *   shown), the card, and when. A seat is bound by the fee only through one of these.
 * - `experience_attendees.fee_consent_id`: the consent that binds the seat (null: not bound, as a
 *   seat given from the notify list without the member agreeing).
 * - `attendance_cancellations.fee_consent_id`: the same for a seat given back.
 * - `experiences.schedule_changed_at`: when the host last changed the time or the place; a seat
 *   saved before it is never charged.
 * - `attendance_marks`: the host's "present" / "did not come" after the activity;
 *   `experiences.attendance_confirmed_at` when the host confirmed the list, `fees_assessed_at`
 *   when its fees were worked out (a day later).
 * - `no_show_fees`: each fee: why, its state, and each step's time (notice, charge, dispute,
 *   waiver), charged once with the key `noshow:<id>`.
 * - `payment_events`: each Stripe webhook event applied (decision 073), by its id: a delivery sent
 *   again is acknowledged without being applied twice.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE fee_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      amount_cents int NOT NULL CHECK (amount_cents > 0),
      policy_version text NOT NULL,
      text_shown text NOT NULL,
      language text NOT NULL,
      payment_method_id uuid REFERENCES payment_methods(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX fee_consents_member ON fee_consents (user_id, experience_id);
    ALTER TABLE experience_attendees ADD COLUMN fee_consent_id uuid REFERENCES fee_consents(id);
    ALTER TABLE attendance_cancellations ADD COLUMN fee_consent_id uuid REFERENCES fee_consents(id);
    ALTER TABLE experiences ADD COLUMN schedule_changed_at timestamptz;

    CREATE TABLE attendance_marks (
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      present boolean NOT NULL,
      marked_by uuid REFERENCES users(id) ON DELETE SET NULL,
      marked_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (experience_id, user_id)
    );
    ALTER TABLE experiences ADD COLUMN attendance_confirmed_at timestamptz;
    ALTER TABLE experiences ADD COLUMN fees_assessed_at timestamptz;

    CREATE TABLE no_show_fees (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      consent_id uuid NOT NULL REFERENCES fee_consents(id),
      reason text NOT NULL CHECK (reason IN ('late_cancel', 'no_show')),
      amount_cents int NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('noticed', 'disputed', 'charged', 'needs_confirmation', 'declined', 'waived', 'refunded')),
      charge_on timestamptz NOT NULL,
      noticed_at timestamptz NOT NULL DEFAULT now(),
      charged_at timestamptz,
      provider_ref text,
      decline_code text,
      dispute_text text,
      disputed_at timestamptz,
      waiver text CHECK (waiver IN ('first_in_12_months', 'seat_taken', 'schedule_changed', 'marked_present', 'admin', 'unpaid_14_days')),
      waiver_note text,
      waived_by uuid REFERENCES users(id) ON DELETE SET NULL,
      waived_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, experience_id)
    );
    CREATE INDEX no_show_fees_due ON no_show_fees (charge_on) WHERE status = 'noticed';

    CREATE TABLE payment_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TABLE payment_events;
    DROP TABLE no_show_fees;
    ALTER TABLE experiences DROP COLUMN fees_assessed_at;
    ALTER TABLE experiences DROP COLUMN attendance_confirmed_at;
    DROP TABLE attendance_marks;
    ALTER TABLE experiences DROP COLUMN schedule_changed_at;
    ALTER TABLE attendance_cancellations DROP COLUMN fee_consent_id;
    ALTER TABLE experience_attendees DROP COLUMN fee_consent_id;
    DROP TABLE fee_consents`.execute(db)
}
