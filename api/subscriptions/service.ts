import type { Selectable } from 'kysely'
import {
  PREMIUM_PRICE_CENTS,
  PREMIUM_TERMS_VERSION,
  type AdminPartnership,
  type InitiateSubscriptionBody,
  type InitiatedSubscription,
  type Partnership,
  type PartnershipBody,
  type Subscription,
} from '#contract/subscriptions.ts'
import type { DB, Trx } from '../db/database.ts'
import type { PartnershipsTable, SubscriptionsTable, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requireUnderHourlyCap } from '../http/security.ts'
import { isUuid } from '../http/params.ts'
import type { Logger } from '../logger.ts'
import { customerOf } from '../payments/service.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'
import type { PaymentsProvider, SavedCard } from '../providers/payments/provider.ts'
import { partnershipsForRegion } from './queries.ts'

/**
 * Premium membership and the partner offer (spec §1, §3, §7, §9; issue 31 §4; decision 074).
 * - A partner's $0 plan is ours alone: active at once, no card, no charge, no period end, and
 *   nothing in it ever turns into a paid plan (California's automatic renewal law: a free plan
 *   may not silently convert).
 * - The paid plan ($20 a year) starts only with the member's express consent to automatic
 *   renewal (recorded, append-only, with the exact text shown) and goes through the provider's
 *   hosted payment page; it is active once the provider says it is paid (the member's return or
 *   Stripe's webhook, in any order, once).
 * - Cancelling is online and immediate to ask: a paid plan runs to the end of the year paid for
 *   and is not renewed; a $0 plan ends at once.
 */
export interface SubscriptionsDeps {
  db: DB
  payments: PaymentsProvider
  logger: Logger
  /** PUBLIC_URL: where the hosted page sends the member back. */
  publicUrl: string
  /** PAYMENTS=on: the paid plan is sold (the partner's $0 plan is offered either way). */
  paymentsOn: boolean
}

const DEFAULT_RETURN_PATH = '/account/subscription'
/** How many paid starts a member may make in an hour. */
const STARTS_PER_HOUR = 20
/** What the member's statement and Stripe's page call it. */
export const PREMIUM_DESCRIPTION = 'Circle 55 premium membership'

type SubscriptionRow = Selectable<SubscriptionsTable>

function partnershipOf(row: Selectable<PartnershipsTable>): Partnership {
  return {
    id: row.id,
    name: row.name,
    price_cents: row.price_cents,
    regular_price_cents: row.regular_price_cents,
  }
}

function adminPartnershipOf(row: Selectable<PartnershipsTable>): AdminPartnership {
  return {
    ...partnershipOf(row),
    regions: row.regions,
    active: row.active,
    created_at: row.created_at.toISOString(),
  }
}

/** A subscription as the member sees it, with its card and partner. */
async function subscriptionOf(db: DB | Trx, row: SubscriptionRow): Promise<Subscription> {
  const card = row.payment_method_id
    ? await db
        .selectFrom('payment_methods')
        .select(['brand', 'last4', 'exp_month', 'exp_year'])
        .where('id', '=', row.payment_method_id)
        .executeTakeFirst()
    : undefined
  const partner = row.partnership_id
    ? await db
        .selectFrom('partnerships')
        .select(['id', 'name'])
        .where('id', '=', row.partnership_id)
        .executeTakeFirst()
    : undefined
  return {
    id: row.id,
    plan: 'premium',
    status: row.status,
    price_cents: row.price_cents,
    interval: 'year',
    current_period_end: row.current_period_end?.toISOString() ?? null,
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: row.canceled_at?.toISOString() ?? null,
    card: card ?? null,
    partnership: partner ?? null,
  }
}

async function regionOf(db: DB, userId: string) {
  const row = await db
    .selectFrom('users')
    .select('region')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.region ?? null
}

/** `GET v1/subscriptions/partnerships`: the offers for the caller's region, the partnership first; none when there is none. */
export async function listPartnerships(
  deps: SubscriptionsDeps,
  caller: Caller,
): Promise<Partnership[]> {
  requirePermission(caller, 'read:subscription')
  const rows = await partnershipsForRegion(deps.db, await regionOf(deps.db, caller!.id)).execute()
  return rows.map(partnershipOf)
}

const current = (db: DB | Trx, userId: string) =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'past_due'])

/** The unique index allows one active or past-due plan per member: a second one is a conflict. */
const alreadySubscribed = () => problems.conflict('already_subscribed', 'You already have premium.')
function isUniqueViolation(error: unknown) {
  return (error as { code?: string } | null)?.code === '23505'
}

/** `POST v1/subscriptions/initiate`: a partner's $0 plan at once, or the paid plan through the hosted page. */
export async function initiateSubscription(
  deps: SubscriptionsDeps,
  caller: Caller,
  body: InitiateSubscriptionBody,
): Promise<InitiatedSubscription> {
  requirePermission(caller, 'manage:subscription')
  const member = caller as User
  if (await current(deps.db, member.id).executeTakeFirst()) throw alreadySubscribed()
  if (body.partnership_id) return joinPartnership(deps, member, body.partnership_id)
  return startPaidPlan(deps, member, body)
}

async function joinPartnership(
  deps: SubscriptionsDeps,
  member: User,
  partnershipId: string,
): Promise<InitiatedSubscription> {
  const offers = await partnershipsForRegion(deps.db, await regionOf(deps.db, member.id)).execute()
  const offer = offers.find((row) => row.id === partnershipId)
  // Only $0 offers are taken here: a partner price above $0 would need the paid plan's consent and card.
  if (!offer || offer.price_cents !== 0)
    throw problems.invalid({ partnership_id: ['partnership_not_eligible'] })
  try {
    const row = await deps.db
      .insertInto('subscriptions')
      .values({
        user_id: member.id,
        plan: 'premium',
        status: 'active',
        partnership_id: offer.id,
        price_cents: 0,
        current_period_start: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return { subscription: await subscriptionOf(deps.db, row), redirect_url: null }
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadySubscribed()
    throw error
  }
}

async function startPaidPlan(
  deps: SubscriptionsDeps,
  member: User,
  body: InitiateSubscriptionBody,
): Promise<InitiatedSubscription> {
  if (!deps.paymentsOn)
    throw problems.conflict('payments_off', 'Premium is not sold here at the moment.')
  const fields: Record<string, string[]> = {}
  if (body.consent_to_renewal !== true) fields.consent_to_renewal = ['consent_required']
  if (body.consent_text_version !== PREMIUM_TERMS_VERSION)
    fields.consent_text_version = ['consent_version_outdated']
  if (!body.consent_text?.trim()) fields.consent_text = ['consent_text_required']
  if (Object.keys(fields).length > 0) throw problems.invalid(fields)
  // Each start is a session at the provider: as many as card setups (decision 073), 20 an hour.
  await requireUnderHourlyCap(deps.db, { table: 'subscriptions', by: 'user_id', max: STARTS_PER_HOUR }, member.id)
  const customer = await customerOf({ ...deps }, member)
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('subscriptions')
      .values({
        user_id: member.id,
        plan: 'premium',
        status: 'incomplete',
        price_cents: PREMIUM_PRICE_CENTS,
        provider: deps.payments.name,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('subscription_consents')
      .values({
        user_id: member.id,
        subscription_id: row.id,
        text_version: PREMIUM_TERMS_VERSION,
        text: body.consent_text!.trim(),
        locale: body.locale ?? member.locale ?? 'en',
        price_cents: PREMIUM_PRICE_CENTS,
        renewal_interval: 'year',
      })
      .execute()
    return row
  })
  const returnPath = body.return_path ?? DEFAULT_RETURN_PATH
  const back = `${deps.publicUrl}${returnPath}${returnPath.includes('?') ? '&' : '?'}checkout=${row.id}`
  const checkout = await deps.payments.startSubscriptionCheckout({
    customer,
    userId: member.id,
    amountCents: PREMIUM_PRICE_CENTS,
    interval: 'year',
    description: PREMIUM_DESCRIPTION,
    successUrl: back,
    cancelUrl: `${back}&canceled=1`,
    locale: body.locale ?? member.locale ?? 'en',
    metadata: { subscription_id: row.id },
  })
  const started = await deps.db
    .updateTable('subscriptions')
    .set({ checkout_ref: checkout.ref, updated_at: new Date() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return { subscription: await subscriptionOf(deps.db, started), redirect_url: checkout.url }
}

/**
 * Applies a paid plan's checkout that the provider says is complete, once: the card recorded
 * (the member's default when they have none), the plan active for the period paid for, the
 * consent naming the card. The member's return and Stripe's webhook (which calls this with the
 * session's id) may come in any order; the second finds it applied. Answers the subscription row,
 * or null when no plan started with this checkout.
 */
export async function applySubscriptionCheckout(
  deps: Pick<SubscriptionsDeps, 'db' | 'payments' | 'logger'>,
  checkoutRef: string,
): Promise<SubscriptionRow | null> {
  const outcome = await deps.payments.readSubscriptionCheckout(checkoutRef)
  const find = (db: DB | Trx) =>
    db
      .selectFrom('subscriptions')
      .selectAll()
      .where('provider', '=', deps.payments.name)
      .where('checkout_ref', '=', checkoutRef)
  if (outcome.status !== 'complete') return (await find(deps.db).executeTakeFirst()) ?? null
  return deps.db.transaction().execute(async (trx) => {
    const row = await find(trx).forUpdate().executeTakeFirst()
    if (!row) return null
    if (row.status !== 'incomplete') return row
    const card = await recordCard(trx, deps.payments.name, row.user_id, outcome.card)
    const other = await current(trx, row.user_id).where('id', '!=', row.id).executeTakeFirst()
    if (other) {
      // Paid while another plan became active (a partner's, in another tab): keep the first, and say so in the logs for a refund.
      deps.logger.error(
        { subscriptionId: row.id, activeId: other.id },
        'A paid premium checkout completed while another plan was active',
      )
      return row
    }
    const applied = await trx
      .updateTable('subscriptions')
      .set({
        status: 'active',
        provider_ref: outcome.subscriptionRef,
        payment_method_id: card,
        current_period_start: outcome.periodStart,
        current_period_end: outcome.periodEnd,
        updated_at: new Date(),
        synced_at: new Date(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await trx
      .updateTable('subscription_consents')
      .set({ payment_method_id: card })
      .where('subscription_id', '=', row.id)
      .where('payment_method_id', 'is', null)
      .execute()
    return applied
  })
}

/** The card a checkout saved, as one of the member's cards (once per provider card); the default when they have none. */
export async function recordCard(trx: Trx, provider: string, userId: string, card: SavedCard) {
  const known = await trx
    .selectFrom('payment_methods')
    .select('id')
    .where('provider', '=', provider)
    .where('provider_ref', '=', card.ref)
    .executeTakeFirst()
  if (known) return known.id
  const hasDefault = await trx
    .selectFrom('payment_methods')
    .select('id')
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .where('is_default', '=', true)
    .executeTakeFirst()
  const row = await trx
    .insertInto('payment_methods')
    .values({
      user_id: userId,
      provider,
      provider_ref: card.ref,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      is_default: !hasDefault,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * `GET v1/subscriptions/me`: the caller's plan (active or past due; else the latest one), or none.
 * A paid plan still waiting for its checkout is asked of the provider first (the member is back
 * from the hosted page).
 */
export async function mySubscription(
  deps: SubscriptionsDeps,
  caller: Caller,
): Promise<Subscription[]> {
  requirePermission(caller, 'read:subscription')
  const userId = caller!.id
  const live = await current(deps.db, userId).executeTakeFirst()
  if (live) return [await subscriptionOf(deps.db, live)]
  let latest = await deps.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!latest) return []
  if (
    latest.status === 'incomplete' &&
    latest.checkout_ref &&
    latest.provider === deps.payments.name
  ) {
    latest = (await applySubscriptionCheckout(deps, latest.checkout_ref)) ?? latest
  }
  return [await subscriptionOf(deps.db, latest)]
}

/**
 * `POST v1/subscriptions/me/cancel`: a paid plan is not renewed and runs to the end of the year
 * paid for (a past-due one, unpaid, ends now); a partner's $0 plan ends now. Cancelling twice
 * answers the same.
 */
export async function cancelSubscription(
  deps: SubscriptionsDeps,
  caller: Caller,
): Promise<Subscription> {
  requirePermission(caller, 'manage:subscription')
  const row = await current(deps.db, caller!.id).executeTakeFirst()
  if (!row) throw problems.conflict('not_subscribed', 'You do not have premium to cancel.')
  if (row.cancel_at_period_end) return subscriptionOf(deps.db, row)
  const endsNow = row.price_cents === 0 || row.status === 'past_due'
  // A past-due plan has no paid period left to run to: ended at the provider too, so it stops asking the bank.
  if (row.provider_ref && row.provider === deps.payments.name)
    await (endsNow
      ? deps.payments.endSubscriptionNow(row.provider_ref)
      : deps.payments.cancelSubscriptionAtPeriodEnd(row.provider_ref))
  const canceled = await deps.db
    .updateTable('subscriptions')
    .set(
      endsNow
        ? { status: 'canceled', canceled_at: new Date(), updated_at: new Date() }
        : { cancel_at_period_end: true, canceled_at: new Date(), updated_at: new Date() },
    )
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return subscriptionOf(deps.db, canceled)
}

// Admin: the partnerships ---------------------------------------------------------------------

/** `GET v1/admin/partnerships`: every partnership, the newest first. */
export async function adminListPartnerships(
  deps: Pick<SubscriptionsDeps, 'db'>,
  caller: Caller,
): Promise<AdminPartnership[]> {
  requirePermission(caller, 'manage:partnerships')
  const rows = await deps.db
    .selectFrom('partnerships')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute()
  return rows.map(adminPartnershipOf)
}

/** `GET v1/admin/partnerships/{id}`. */
export async function adminGetPartnership(
  deps: Pick<SubscriptionsDeps, 'db'>,
  caller: Caller,
  id: string,
): Promise<AdminPartnership> {
  requirePermission(caller, 'manage:partnerships')
  const row = isUuid(id)
    ? await deps.db.selectFrom('partnerships').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined
  if (!row) throw problems.notFound('No such partnership')
  return adminPartnershipOf(row)
}

const unique = (regions: string[]) => [...new Set(regions)]

/** `POST v1/admin/partnerships`: a partner's $0 offer (regular price $20), audited. */
export async function createPartnership(
  deps: Pick<SubscriptionsDeps, 'db'>,
  caller: Caller,
  body: PartnershipBody,
  requestId: string | null,
): Promise<AdminPartnership> {
  requirePermission(caller, 'manage:partnerships')
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('partnerships')
      .values({
        name: body.name,
        regions: unique(body.regions),
        active: body.active,
        price_cents: 0,
        regular_price_cents: PREMIUM_PRICE_CENTS,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit(trx, caller!.id, 'partnership.create', row, requestId)
    return row
  })
  return adminPartnershipOf(row)
}

/** `PUT v1/admin/partnerships/{id}`: its name, regions and whether it is offered, audited. Members on it keep their plan. */
export async function updatePartnership(
  deps: Pick<SubscriptionsDeps, 'db'>,
  caller: Caller,
  id: string,
  body: PartnershipBody,
  requestId: string | null,
): Promise<AdminPartnership> {
  requirePermission(caller, 'manage:partnerships')
  if (!isUuid(id)) throw problems.notFound('No such partnership')
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('partnerships')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
    if (!before) throw problems.notFound('No such partnership')
    const row = await trx
      .updateTable('partnerships')
      .set({ name: body.name, regions: unique(body.regions), active: body.active })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit(trx, caller!.id, 'partnership.update', row, requestId, {
      before: { name: before.name, regions: before.regions, active: before.active },
    })
    return row
  })
  return adminPartnershipOf(row)
}

async function audit(
  trx: Trx,
  actorId: string,
  action: string,
  row: Selectable<PartnershipsTable>,
  requestId: string | null,
  more: Record<string, unknown> = {},
) {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: actorId,
      action,
      target_type: 'partnership',
      target_id: row.id,
      data: JSON.stringify({ name: row.name, regions: row.regions, active: row.active, ...more }),
      request_id: requestId,
    })
    .execute()
}

/**
 * Account deletion: a paid plan is stopped at the provider (no more renewals) before the rows go
 * with the account; a failure is logged and the deletion goes on.
 */
export async function stopSubscriptions(
  deps: Pick<SubscriptionsDeps, 'db' | 'payments' | 'logger'>,
  userId: string,
) {
  const plans = await current(deps.db, userId)
    .where('provider', '=', deps.payments.name)
    .where('provider_ref', 'is not', null)
    .where('cancel_at_period_end', '=', false)
    .execute()
  for (const plan of plans) {
    await deps.payments
      .cancelSubscriptionAtPeriodEnd(plan.provider_ref!)
      .catch((error: unknown) => {
        deps.logger.error(
          { err: error, subscriptionId: plan.id },
          'A deleted member’s premium could not be stopped at the payments provider',
        )
      })
  }
  return plans.length
}
