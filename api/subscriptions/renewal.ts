import { sql } from 'kysely'
import { z } from 'zod'
import { PREMIUM_GRACE_DAYS } from '#contract/subscriptions.ts'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import type { PaymentsProvider } from '../providers/payments/provider.ts'
import { PREMIUM_DESCRIPTION } from './service.ts'
import { tellPaymentFailed } from './sync.ts'

interface RenewalServices {
  db: DB
  payments?: PaymentsProvider
  logger: Logger
  notify: Notify
}

const addYear = (date: Date) => {
  const next = new Date(date)
  next.setUTCFullYear(next.getUTCFullYear() + 1)
  return next
}

/**
 * The day's renewals (decision 074):
 * - a plan cancelled online ends at its period end; a past-due one ends `PREMIUM_GRACE_DAYS` after;
 * - with the built-in provider, each paid plan due (its period ended, not cancelled) is charged
 *   off-session on its card, once per period whatever happens (`subscription:<id>:<period end>`
 *   is the idempotency key, and the period moves on in the same statement that checks it has
 *   not). A refused charge makes it `past_due`, and it is not tried again by itself: the member
 *   is told (`subscription.payment_failed`, and on their subscription page) and may pay again or
 *   cancel.
 * Stripe renews, retries and ends its own subscriptions, and our plans follow what it says (its
 * webhooks and the nightly reconciliation, sync.ts, decision 076): none is ended here, since
 * Stripe may still be retrying a refused renewal after our grace days.
 */
export async function renewSubscriptions(services: RenewalServices, now = new Date()) {
  const { db } = services
  const grace = sql<string>`${`${PREMIUM_GRACE_DAYS} days`}::interval`
  const ended = await db
    .updateTable('subscriptions')
    .set({ status: 'canceled', updated_at: now })
    .where((eb) => eb.or([eb('provider', 'is', null), eb('provider', '!=', 'stripe')]))
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', 'in', ['active', 'past_due']),
          eb('cancel_at_period_end', '=', true),
          eb('current_period_end', '<=', now),
        ]),
        eb.and([eb('status', '=', 'past_due'), eb(sql`current_period_end + ${grace}`, '<=', now)]),
      ]),
    )
    .returning('id')
    .execute()
  const result = { ended: ended.length, renewed: 0, failed: 0 }
  const payments = services.payments
  if (!payments || payments.name !== 'builtin') return result
  const due = await db
    .selectFrom('subscriptions as s')
    .innerJoin('payment_methods as m', 'm.id', 's.payment_method_id')
    .innerJoin('payment_customers as c', (join) =>
      join.onRef('c.user_id', '=', 's.user_id').on('c.provider', '=', payments.name),
    )
    .select([
      's.id',
      's.user_id',
      's.price_cents',
      's.current_period_end',
      'm.provider_ref as card_ref',
      'c.customer_ref',
    ])
    .where('s.status', '=', 'active')
    .where('s.provider', '=', payments.name)
    .where('s.price_cents', '>', 0)
    .where('s.cancel_at_period_end', '=', false)
    .where('s.current_period_end', '<=', now)
    .orderBy('s.current_period_end')
    .limit(500)
    .execute()
  for (const plan of due) {
    const periodEnd = plan.current_period_end!
    const outcome = await payments.chargeOffSession({
      customer: plan.customer_ref,
      cardRef: plan.card_ref,
      amountCents: plan.price_cents,
      idempotencyKey: `subscription:${plan.id}:${periodEnd.toISOString()}`,
      description: PREMIUM_DESCRIPTION,
      metadata: { subscription_id: plan.id, user_id: plan.user_id },
    })
    const paid = outcome.status === 'succeeded'
    const moved = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('subscriptions')
        .set(
          paid
            ? {
                current_period_start: periodEnd,
                current_period_end: addYear(periodEnd),
                updated_at: now,
              }
            : { status: 'past_due', updated_at: now },
        )
        .where('id', '=', plan.id)
        .where('status', '=', 'active')
        .where('current_period_end', '=', periodEnd)
        .executeTakeFirst()
      // Told in the transaction that made it past due: once, whoever runs the job.
      if (Number(moved.numUpdatedRows) > 0 && !paid)
        await tellPaymentFailed(services.notify, trx, { ...plan, current_period_end: periodEnd })
      return moved
    })
    if (Number(moved.numUpdatedRows) === 0) continue
    if (paid) result.renewed += 1
    else {
      result.failed += 1
      services.logger.info(
        { subscriptionId: plan.id, outcome: outcome.status },
        'A premium renewal was not paid: past due',
      )
    }
  }
  return result
}

export const renewSubscriptionsJob = defineJob({
  name: 'subscriptions.renew',
  payload: z.object({}),
  // Daily, in the morning in the US (14:00 UTC), and when an instance starts.
  schedule: { cron: '0 14 * * *', atStart: true },
  // Charges are keyed per period, so a retried run never charges twice.
  retryLimit: 2,
  async handler(_, services: RenewalServices) {
    const result = await renewSubscriptions(services)
    if (result.ended + result.renewed + result.failed > 0)
      services.logger.info({ job: 'subscriptions.renew', ...result }, 'Premium renewals')
  },
})

const DAY_MS = 86_400_000
/** The renewal reminder goes 30 days before a yearly renewal, and never closer than 15 (California: 15 to 45 days). */
export const REMINDER_DAYS_BEFORE = 30
const REMINDER_LATEST_DAYS = 15

/**
 * The renewal reminders due today (decision 074): each paid yearly plan that renews (not
 * cancelled) within `REMINDER_DAYS_BEFORE` days but not within 15 is told once for its period,
 * in-app and by email, with the price, the date and how to cancel. The period it was sent for is
 * recorded in the same transaction as the notification, so a second run sends nothing.
 */
export async function remindRenewals(services: { db: DB; notify: Notify }, now = new Date()) {
  const { db } = services
  const due = await db
    .selectFrom('subscriptions')
    .select(['id', 'user_id', 'price_cents', 'current_period_end'])
    .where('status', '=', 'active')
    .where('price_cents', '>', 0)
    .where('cancel_at_period_end', '=', false)
    .where('current_period_end', '<=', new Date(now.getTime() + REMINDER_DAYS_BEFORE * DAY_MS))
    .where('current_period_end', '>', new Date(now.getTime() + REMINDER_LATEST_DAYS * DAY_MS))
    .where((eb) =>
      eb.or([
        eb('reminded_period_end', 'is', null),
        eb('reminded_period_end', '!=', eb.ref('current_period_end')),
      ]),
    )
    .limit(1000)
    .execute()
  let sent = 0
  for (const plan of due) {
    const renewsAt = plan.current_period_end!
    await db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('subscriptions')
        .set({ reminded_period_end: renewsAt })
        .where('id', '=', plan.id)
        .where('current_period_end', '=', renewsAt)
        .where((eb) =>
          eb.or([eb('reminded_period_end', 'is', null), eb('reminded_period_end', '!=', renewsAt)]),
        )
        .executeTakeFirst()
      if (Number(marked.numUpdatedRows) === 0) return
      await services.notify(
        {
          type: 'subscription.renewal_reminder',
          to: [plan.user_id],
          data: {
            subscription_id: plan.id,
            price_cents: plan.price_cents,
            renews_at: renewsAt.toISOString(),
          },
        },
        trx,
      )
      sent += 1
    })
  }
  return { sent }
}

export const remindRenewalsJob = defineJob({
  name: 'subscriptions.remind-renewals',
  payload: z.object({}),
  // Daily (15:00 UTC, the morning in the US), and when an instance starts.
  schedule: { cron: '0 15 * * *', atStart: true },
  retryLimit: 2,
  async handler(_, services: { db: DB; notify: Notify; logger: Logger }) {
    const { sent } = await remindRenewals(services)
    if (sent > 0)
      services.logger.info(
        { job: 'subscriptions.remind-renewals', sent },
        'Premium renewal reminders sent',
      )
  },
})
