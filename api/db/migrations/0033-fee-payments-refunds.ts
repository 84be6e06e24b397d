import { sql, type Kysely } from 'kysely'

/**
 * Paying a no-show fee on-session, and refunds (issue 31 §3, decision 075).
 * - `fee_checkouts`: each hosted payment page a member was sent to when the bank wanted them to
 *   confirm a fee, or refused it off-session ("Pay now"), and what became of it: the payment
 *   (applied once, from the member's return or the webhook) and, when it came after the fee was
 *   already paid or dropped, its refund.
 * - `no_show_fees.charged_brand`, `charged_last4`: the card the fee was paid with, for the receipt
 *   and the member's list (on-session, it may not be the card they agreed with).
 * - `no_show_fees.refund_*`: a charged fee given back by the team (the provider's refund, who,
 *   why, when); its status becomes `refunded`.
 * - `builtin_refunds`: the built-in bank's refunds, once per idempotency key, never more than
 *   what was paid.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE no_show_fees
      ADD COLUMN charged_brand text,
      ADD COLUMN charged_last4 text,
      ADD COLUMN refund_ref text,
      ADD COLUMN refund_note text,
      ADD COLUMN refunded_by uuid REFERENCES users(id) ON DELETE SET NULL,
      ADD COLUMN refunded_at timestamptz;

    CREATE TABLE fee_checkouts (
      ref text PRIMARY KEY,
      fee_id uuid NOT NULL REFERENCES no_show_fees(id) ON DELETE CASCADE,
      payment_ref text,
      refund_ref text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX fee_checkouts_fee ON fee_checkouts (fee_id, created_at);

    CREATE TABLE builtin_refunds (
      idempotency_key text PRIMARY KEY,
      ref text NOT NULL UNIQUE,
      charge_ref text NOT NULL REFERENCES builtin_charges(ref),
      amount_cents int NOT NULL CHECK (amount_cents > 0),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX builtin_refunds_charge ON builtin_refunds (charge_ref)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TABLE builtin_refunds;
    DROP TABLE fee_checkouts;
    ALTER TABLE no_show_fees DROP COLUMN charged_brand, DROP COLUMN charged_last4, DROP COLUMN refund_ref, DROP COLUMN refund_note, DROP COLUMN refunded_by, DROP COLUMN refunded_at`.execute(db)
}
