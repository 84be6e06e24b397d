import { sql, type Kysely } from 'kysely'

/**
 * Stripe Billing after the first payment (decision 076): `subscriptions.synced_at`, when the
 * provider's subscription was last read into the row (a webhook, the member's return, or the
 * nightly reconciliation). The reconciliation re-reads the plans not read for about a day, so a
 * webhook Stripe never delivered is caught by the next night.
 */
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE subscriptions ADD COLUMN synced_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE subscriptions DROP COLUMN synced_at`.execute(db)
}
