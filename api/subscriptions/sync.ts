import type { Selectable } from 'kysely'
import { z } from 'zod'
import { PREMIUM_GRACE_DAYS } from '#contract/subscriptions.ts'
import type { DB, Trx } from '../db/database.ts'
import type { SubscriptionsTable } from '../db/schema.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { updateCardDetails } from '../payments/service.ts'
import type { PaymentsProvider, ProviderSubscription } from '../providers/payments/provider.ts'
import { recordCard } from './service.ts'

/**
 * Premium on Stripe after its first payment (decision 076). Stripe renews the plan each year, and
 * retries or ends it when the card is refused; our `subscriptions` row follows what Stripe holds.
 * Whatever tells us that something changed (a webhook, in any order and maybe twice, or the
 * nightly reconciliation), the subscription is read again from Stripe and its state applied, so
 * the last one applied is the newest and an old event cannot roll a plan back.
 */
export interface SyncDeps {
  db: DB
  payments: PaymentsProvider
  logger: Logger
  notify: Notify
}

type SubscriptionRow = Selectable<SubscriptionsTable>

/** The columns a sync changed, each with its value before and after. */
export type SyncChanges = Partial<Record<keyof SubscriptionRow, { from: unknown; to: unknown }>>

export type SyncOutcome =
  /** No plan of ours is that subscription (one not started here, or not applied yet): ignored. */
  { found: false } | { found: true; subscriptionId: string; changes: SyncChanges }

const DAY_MS = 86_400_000

/**
 * Reads the provider's subscription `ref` and applies it to our plan with that ref. The row is
 * locked while the provider is read, so two syncs of one plan run one after the other and the
 * second reads a state at least as new as the first. A plan that ends here is ended for good: a
 * provider that says otherwise is logged for a person to look at (a refund, most likely), never
 * followed. A plan that becomes past due tells its member, once per time it does.
 */
export async function syncSubscription(
  deps: SyncDeps,
  ref: string,
  now = new Date(),
): Promise<SyncOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('provider', '=', deps.payments.name)
      .where('provider_ref', '=', ref)
      .forUpdate()
      .executeTakeFirst()
    if (!row) return { found: false }
    const state = await deps.payments.readSubscription(ref)
    if (!state || row.status === 'canceled') {
      if (!state)
        deps.logger.warn(
          { subscriptionId: row.id },
          'The payments provider has no such subscription',
        )
      else if (state.status !== 'canceled')
        deps.logger.error(
          { subscriptionId: row.id, providerStatus: state.providerStatus },
          'A premium plan ended here is still live at the payments provider',
        )
      await trx
        .updateTable('subscriptions')
        .set({ synced_at: now })
        .where('id', '=', row.id)
        .execute()
      return { found: true, subscriptionId: row.id, changes: {} }
    }
    const next = {
      ...followed(row, state, now),
      payment_method_id: await renewalCard(trx, deps.payments.name, row, state),
    }
    const changes = changesOf(row, next)
    const changed = Object.keys(changes).length > 0
    await trx
      .updateTable('subscriptions')
      .set({ ...next, synced_at: now, ...(changed ? { updated_at: now } : {}) })
      .where('id', '=', row.id)
      .execute()
    if (row.status !== 'past_due' && next.status === 'past_due')
      await tellPaymentFailed(deps.notify, trx, { ...row, ...next })
    return { found: true, subscriptionId: row.id, changes }
  })
}

/**
 * The row as the provider's state makes it. Its period is the one paid for: the provider's while
 * active; while past due, up to the renewal that was not paid (Stripe moves its period on when it
 * makes the renewal's invoice, paid or not, and the grace days count from the renewal, decision
 * 074); when ended, the last one it was active for. A plan is never taken back to `incomplete`
 * (only its checkout makes it active). `canceled_at` is the member's own date when they cancelled
 * here, else the provider's; gone again when the provider renews it after all.
 */
function followed(row: SubscriptionRow, state: ProviderSubscription, now: Date) {
  const period =
    state.status === 'active'
      ? { current_period_start: state.periodStart, current_period_end: state.periodEnd }
      : state.status === 'past_due'
        ? { current_period_start: row.current_period_start, current_period_end: state.periodStart }
        : {
            current_period_start: row.current_period_start,
            current_period_end: row.current_period_end,
          }
  const ending = state.status === 'canceled' || state.cancelAtPeriodEnd
  return {
    status: state.status === 'incomplete' ? row.status : state.status,
    ...period,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    canceled_at: ending ? (row.canceled_at ?? state.canceledAt ?? now) : null,
  }
}

/**
 * The card the plan renews on, as the provider names it: our record of it brought up to date (a
 * network's new expiry), or recorded as one of the member's cards when it was changed at the
 * provider (its dashboard). Without one named, the plan keeps the card it had.
 */
async function renewalCard(
  trx: Trx,
  provider: string,
  row: SubscriptionRow,
  state: ProviderSubscription,
) {
  if (!state.card) return row.payment_method_id
  await updateCardDetails(trx, provider, state.card)
  return recordCard(trx, provider, row.user_id, state.card)
}

function changesOf(row: SubscriptionRow, next: Partial<SubscriptionRow>): SyncChanges {
  const changes: SyncChanges = {}
  for (const [key, to] of Object.entries(next) as [keyof SubscriptionRow, unknown][]) {
    const from = row[key]
    const same =
      from instanceof Date && to instanceof Date ? from.getTime() === to.getTime() : from === to
    if (!same) changes[key] = { from, to }
  }
  return changes
}

/**
 * Tells the member that premium's renewal was not paid (`subscription.payment_failed`), in the
 * transaction that made the plan past due: with the price, and the day premium ends unless it is
 * paid (the period's end and the grace days).
 */
export async function tellPaymentFailed(
  notify: Notify,
  trx: Trx,
  plan: Pick<SubscriptionRow, 'id' | 'user_id' | 'price_cents' | 'current_period_end'>,
) {
  if (plan.price_cents <= 0 || !plan.current_period_end) return
  const premiumUntil = new Date(plan.current_period_end.getTime() + PREMIUM_GRACE_DAYS * DAY_MS)
  await notify(
    {
      type: 'subscription.payment_failed',
      to: [plan.user_id],
      data: {
        subscription_id: plan.id,
        price_cents: plan.price_cents,
        premium_until: premiumUntil.toISOString(),
      },
    },
    trx,
  )
}

/** A plan read less than this long ago is left for the next night (a day, less the run's own drift). */
const STALE_AFTER_MS = 20 * 60 * 60 * 1000
/** Plans read in one run; the oldest read first, the rest the next night. */
const RECONCILE_LIMIT = 2000

/**
 * The nightly reconciliation (decision 076), with Stripe only: every active or past-due plan whose
 * period has ended (a renewal, a refusal or an end we should have been told about) or that was
 * not read from Stripe for about a day is read again and applied, which catches a webhook Stripe
 * never delivered. Each change is logged. A plan that fails to read is logged and the rest go on;
 * the run fails (and the queue tries again) only when none could be read.
 */
export async function reconcileSubscriptions(deps: SyncDeps, now = new Date()) {
  const result = { checked: 0, changed: 0, failed: 0 }
  if (deps.payments.name !== 'stripe') return result
  const plans = await deps.db
    .selectFrom('subscriptions')
    .select(['id', 'provider_ref'])
    .where('provider', '=', deps.payments.name)
    .where('provider_ref', 'is not', null)
    .where('status', 'in', ['active', 'past_due'])
    .where((eb) =>
      eb.or([
        eb('current_period_end', '<=', now),
        eb('synced_at', 'is', null),
        eb('synced_at', '<', new Date(now.getTime() - STALE_AFTER_MS)),
      ]),
    )
    .orderBy('synced_at', (order) => order.asc().nullsFirst())
    .limit(RECONCILE_LIMIT)
    .execute()
  for (const plan of plans) {
    try {
      const outcome = await syncSubscription(deps, plan.provider_ref!, now)
      result.checked += 1
      if (outcome.found && Object.keys(outcome.changes).length > 0) {
        result.changed += 1
        deps.logger.info(
          { subscriptionId: plan.id, changes: outcome.changes },
          'A premium plan was behind Stripe: brought up to date',
        )
      }
    } catch (error) {
      result.failed += 1
      deps.logger.error(
        { err: error, subscriptionId: plan.id },
        'A premium plan could not be read from Stripe',
      )
    }
  }
  if (result.failed > 0 && result.checked === 0)
    throw new Error(`None of ${result.failed} premium plans could be read from Stripe`)
  return result
}

export const reconcileSubscriptionsJob = defineJob({
  name: 'subscriptions.reconcile',
  payload: z.object({}),
  // Nightly in the US (08:00 UTC), before the morning's renewal run and reminders.
  schedule: { cron: '0 8 * * *' },
  // Reading and applying is idempotent: a retried run only reads again.
  retryLimit: 2,
  async handler(_, services: SyncDeps) {
    const result = await reconcileSubscriptions(services)
    if (result.checked + result.failed > 0)
      services.logger.info(
        { job: 'subscriptions.reconcile', ...result },
        'Premium plans checked against Stripe',
      )
  },
})
