import { sql } from 'kysely'
import { PREMIUM_GRACE_DAYS } from '#contract/subscriptions.ts'
import type { DB } from '../db/database.ts'

/**
 * Whether the member has premium now (decision 074): an active plan (a partner's $0 plan, or a
 * paid one whose year has not ended; a renewal the job has not charged yet keeps it for the grace
 * days, a cancelled one ends on its date), or a paid one whose renewal failed (`past_due`) within
 * `PREMIUM_GRACE_DAYS` of its period end. Premium lets a member join premium activities; it never
 * buys a seat ahead of others or a place on the notify list.
 */
export async function hasPremium(db: DB, userId: string, now = new Date()): Promise<boolean> {
  const grace = sql<string>`${`${PREMIUM_GRACE_DAYS} days`}::interval`
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'active'),
          eb.or([
            eb('current_period_end', 'is', null),
            eb('current_period_end', '>', now),
            eb.and([
              eb('cancel_at_period_end', '=', false),
              eb(sql`current_period_end + ${grace}`, '>', now),
            ]),
          ]),
        ]),
        eb.and([eb('status', '=', 'past_due'), eb(sql`current_period_end + ${grace}`, '>', now)]),
      ]),
    )
    .executeTakeFirst()
  return row !== undefined
}

/** The active partnerships for a member's region (a US state code, or a ZIP code), the cheapest first. */
export function partnershipsForRegion(db: DB, region: string | null) {
  const codes = region ? [region.trim().toUpperCase()] : []
  return db
    .selectFrom('partnerships')
    .selectAll()
    .where('active', '=', true)
    .where(sql<boolean>`regions && ${sql.val(codes)}::text[]`)
    .orderBy('price_cents', 'asc')
    .orderBy('created_at', 'asc')
    .orderBy('id')
}
