import type { DB, Trx } from '../db/database.ts'
import { isExpired } from '../providers/payments/builtin.ts'

/**
 * The member's default card when it can be charged (not removed, not expired): what a no-show
 * fee's agreement names (decision 075). Null when there is none.
 */
export async function usableDefaultCard(db: DB | Trx, userId: string) {
  const card = await db
    .selectFrom('payment_methods')
    .select(['id', 'brand', 'last4', 'exp_month', 'exp_year', 'provider', 'provider_ref'])
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .where('is_default', '=', true)
    .executeTakeFirst()
  return card && !isExpired(card.exp_month, card.exp_year) ? card : null
}

/** The member's customer at a payments provider (`cus_…`), or null before their first card there. */
export async function customerRef(db: DB | Trx, userId: string, provider: string) {
  const row = await db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst()
  return row?.customer_ref ?? null
}
