import { sql, type Kysely } from 'kysely'

/**
 * Payment cards (issue 31 §1–§2, decision 073).
 * - `payment_methods` (since 0001) keeps a removed card (`removed_at`) so that what referred to it
 *   (a fee's consent names the card) still says which card it was; one row per provider card.
 * - `payment_customers`: the member's customer at the provider (Stripe: `cus_…`), made once.
 * - `card_setups`: each "Add a card" the member started, and what came of it.
 * - `builtin_vault_cards`, `builtin_checkout_sessions`, `builtin_charges`: the built-in provider's
 *   own state (its vault, its hosted card page's sessions, its bank's charges by idempotency key).
 *   The vault holds a token, the brand, the last four digits and the expiry: never a card number
 *   or a CVC.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE payment_methods ADD COLUMN removed_at timestamptz;
    ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_provider_ref UNIQUE (provider, provider_ref);
    DROP INDEX payment_methods_one_default;
    CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (user_id) WHERE is_default AND removed_at IS NULL;
    CREATE INDEX payment_methods_user ON payment_methods (user_id) WHERE removed_at IS NULL;

    CREATE TABLE payment_customers (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      customer_ref text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, provider),
      UNIQUE (provider, customer_ref)
    );

    CREATE TABLE card_setups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      provider_ref text,
      redirect_url text,
      return_path text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
      payment_method_id uuid REFERENCES payment_methods(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    );
    CREATE INDEX card_setups_user ON card_setups (user_id, created_at);
    CREATE UNIQUE INDEX card_setups_provider_ref ON card_setups (provider, provider_ref);

    CREATE TABLE builtin_vault_cards (
      token text PRIMARY KEY,
      customer text NOT NULL,
      brand text NOT NULL CHECK (brand IN ('amex', 'discover', 'mastercard', 'visa', 'unknown')),
      last4 char(4) NOT NULL,
      exp_month int NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
      exp_year int NOT NULL,
      set_up_for_off_session boolean NOT NULL DEFAULT false,
      detached_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE builtin_checkout_sessions (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      customer text NOT NULL,
      mode text NOT NULL CHECK (mode IN ('setup', 'payment')),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'requires_authentication', 'complete', 'expired')),
      success_url text NOT NULL,
      cancel_url text NOT NULL,
      card_token text REFERENCES builtin_vault_cards(token),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE builtin_charges (
      idempotency_key text PRIMARY KEY,
      ref text NOT NULL UNIQUE,
      card_token text NOT NULL REFERENCES builtin_vault_cards(token),
      amount_cents int NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('succeeded', 'requires_authentication', 'declined')),
      decline_code text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TABLE builtin_charges;
    DROP TABLE builtin_checkout_sessions;
    DROP TABLE builtin_vault_cards;
    DROP TABLE card_setups;
    DROP TABLE payment_customers;
    DROP INDEX payment_methods_user;
    DROP INDEX payment_methods_one_default;
    CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (user_id) WHERE is_default;
    ALTER TABLE payment_methods DROP CONSTRAINT payment_methods_provider_ref;
    ALTER TABLE payment_methods DROP COLUMN removed_at`.execute(db)
}
