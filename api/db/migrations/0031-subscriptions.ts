import { sql, type Kysely } from 'kysely'

/**
 * Premium membership and the partner offer (issue 31 §4, decision 074).
 * - `subscriptions` (since 0001) learns what a paid plan needs: its yearly price, the provider and
 *   its checkout, the card it renews on, `cancel_at_period_end` (cancelled online, it runs to the
 *   end of the year paid for), and the renewal reminder sent for the current period (California's
 *   automatic renewal law: one notice 15–45 days before a yearly renewal).
 * - `subscription_consents`: the member's express consent to automatic renewal, append-only: who,
 *   which subscription, the exact text shown and its version, the price, when, and (once the
 *   hosted page took it) the card. Only the card may be filled in afterwards, once.
 * - `builtin_checkout_sessions` (0030) in `payment` mode: the amount, what it is for, the
 *   interval for a recurring payment, and the built-in bank's charge.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE subscriptions
      ADD COLUMN price_cents int NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
      ADD COLUMN provider text,
      ADD COLUMN checkout_ref text,
      ADD COLUMN payment_method_id uuid REFERENCES payment_methods(id) ON DELETE SET NULL,
      ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
      ADD COLUMN current_period_start timestamptz,
      ADD COLUMN reminded_period_end timestamptz,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
    CREATE UNIQUE INDEX subscriptions_checkout_ref ON subscriptions (provider, checkout_ref);
    CREATE INDEX subscriptions_user ON subscriptions (user_id, created_at);
    CREATE INDEX subscriptions_period_end ON subscriptions (current_period_end) WHERE status IN ('active', 'past_due') AND price_cents > 0;

    CREATE TABLE subscription_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      subscription_id uuid NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
      text_version text NOT NULL,
      text text NOT NULL,
      locale text NOT NULL,
      price_cents int NOT NULL,
      renewal_interval text NOT NULL,
      payment_method_id uuid REFERENCES payment_methods(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX subscription_consents_subscription ON subscription_consents (subscription_id);

    -- Append-only: nothing changes once written, except the card, filled in once.
    CREATE FUNCTION subscription_consents_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.payment_method_id IS NULL AND NEW.payment_method_id IS NOT NULL
        AND (to_jsonb(NEW) - 'payment_method_id') = (to_jsonb(OLD) - 'payment_method_id') THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'subscription_consents is append-only';
    END $$;
    CREATE TRIGGER subscription_consents_append_only BEFORE UPDATE ON subscription_consents
      FOR EACH ROW EXECUTE FUNCTION subscription_consents_append_only();

    ALTER TABLE builtin_checkout_sessions
      ADD COLUMN amount_cents int CHECK (amount_cents > 0),
      ADD COLUMN description text,
      ADD COLUMN recurring_interval text,
      ADD COLUMN charge_ref text`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE builtin_checkout_sessions DROP COLUMN amount_cents, DROP COLUMN description, DROP COLUMN recurring_interval, DROP COLUMN charge_ref;
    DROP TABLE subscription_consents;
    DROP FUNCTION subscription_consents_append_only();
    DROP INDEX subscriptions_period_end;
    DROP INDEX subscriptions_user;
    DROP INDEX subscriptions_checkout_ref;
    ALTER TABLE subscriptions
      DROP COLUMN price_cents, DROP COLUMN provider, DROP COLUMN checkout_ref, DROP COLUMN payment_method_id,
      DROP COLUMN cancel_at_period_end, DROP COLUMN current_period_start, DROP COLUMN reminded_period_end, DROP COLUMN updated_at`.execute(
    db,
  )
}
