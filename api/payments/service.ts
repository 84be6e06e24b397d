import type { Selectable } from 'kysely'
import type { BuiltinCardBody, BuiltinCheckout, CardSetup, PaymentMethod } from '#contract/payments.ts'
import type { DB, Trx } from '../db/database.ts'
import type { CardSetupsTable, PaymentMethodsTable, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requireUnderHourlyCap } from '../http/security.ts'
import { isUuid } from '../http/params.ts'
import type { Logger } from '../logger.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'
import {
  authenticateBuiltinCheckout,
  checkCard,
  isExpired,
  openBuiltinCheckout,
  readBuiltinCheckout,
  submitBuiltinCard,
} from '../providers/payments/builtin.ts'
import type { PaymentsProvider, SavedCard } from '../providers/payments/provider.ts'
import { customerRef } from './queries.ts'

/**
 * Payment cards (spec §1, §3, §7; issue 31 §2; decision 073). `payment_methods` is our record of
 * the member's cards (brand, last four digits, expiry, which one is the default); the provider
 * holds the cards themselves. A card is added only through the provider's hosted page: the API
 * starts a setup, the member types the card there, and the setup's outcome (read when the member
 * comes back, or told by Stripe's webhook) records the card once.
 */
export interface PaymentsDeps {
  db: DB
  payments: PaymentsProvider
  logger: Logger
  /** PUBLIC_URL: where the hosted page sends the member back (configuration, never a Host header). */
  publicUrl: string
}

/** How many card setups a member may start in an hour (each one is a session at the provider). */
const SETUPS_PER_HOUR = 20
const DEFAULT_RETURN_PATH = '/account/payments'

type CardRow = Selectable<PaymentMethodsTable>

function cardOf(row: CardRow, now = new Date()): PaymentMethod {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    is_default: row.is_default,
    is_expired: isExpired(row.exp_month, row.exp_year, now),
  }
}

const activeCards = (db: DB, userId: string) =>
  db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('removed_at', 'is', null)

/** `GET v1/payment-methods`: the caller's cards, the default first, then the newest. */
export async function listCards(deps: PaymentsDeps, caller: Caller): Promise<PaymentMethod[]> {
  requirePermission(caller, 'read:payment_methods')
  const rows = await activeCards(deps.db, caller!.id).orderBy('is_default', 'desc').orderBy('created_at', 'desc').execute()
  return rows.map((row) => cardOf(row))
}

/** `GET v1/payment-methods/default`: the caller's default card, or none. */
export async function defaultCard(deps: PaymentsDeps, caller: Caller): Promise<PaymentMethod[]> {
  requirePermission(caller, 'read:payment_methods')
  const row = await activeCards(deps.db, caller!.id).where('is_default', '=', true).executeTakeFirst()
  return row ? [cardOf(row)] : []
}

/** The member's customer at the provider, made once (a second setup reuses it). */
export async function customerOf(deps: PaymentsDeps, member: User) {
  const known = await customerRef(deps.db, member.id, deps.payments.name)
  if (known) return known
  const ref = await deps.payments.ensureCustomer({ id: member.id, email: member.email ?? '', name: member.name ?? '' }, null)
  await deps.db
    .insertInto('payment_customers')
    .values({ user_id: member.id, provider: deps.payments.name, customer_ref: ref })
    .onConflict((conflict) => conflict.columns(['user_id', 'provider']).doNothing())
    .execute()
  return ref
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`

/** `POST v1/payment-methods/setup`: starts "Add a card" on the provider's hosted page. */
export async function startCardSetup(deps: PaymentsDeps, caller: Caller, input: { return_path?: string | undefined }): Promise<CardSetup> {
  requirePermission(caller, 'manage:payment_methods')
  const member = caller as User
  await requireUnderHourlyCap(deps.db, { table: 'card_setups', by: 'user_id', max: SETUPS_PER_HOUR }, member.id)
  const customer = await customerOf(deps, member)
  const returnPath = input.return_path ?? DEFAULT_RETURN_PATH
  const setup = await deps.db
    .insertInto('card_setups')
    .values({ user_id: member.id, provider: deps.payments.name, return_path: returnPath })
    .returningAll()
    .executeTakeFirstOrThrow()
  const back = `${deps.publicUrl}${withQuery(returnPath, `setup=${setup.id}`)}`
  const started = await deps.payments.startCardSetup({
    customer,
    userId: member.id,
    successUrl: back,
    cancelUrl: `${back}&canceled=1`,
    locale: member.locale ?? 'en',
  })
  const updated = await deps.db
    .updateTable('card_setups')
    .set({ provider_ref: started.ref, redirect_url: started.url })
    .where('id', '=', setup.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return setupOf(updated, null)
}

function setupOf(row: Selectable<CardSetupsTable>, card: CardRow | null): CardSetup {
  return { id: row.id, status: row.status, redirect_url: row.redirect_url ?? '', payment_method: card ? cardOf(card) : null }
}

/**
 * `GET v1/payment-methods/setup/{id}`: where the caller's setup stands. An open one is asked of
 * the provider, and a finished one records its card (the same as the webhook, once).
 */
export async function readCardSetup(deps: PaymentsDeps, caller: Caller, id: string): Promise<CardSetup> {
  requirePermission(caller, 'read:payment_methods')
  const row = isUuid(id)
    ? await deps.db.selectFrom('card_setups').selectAll().where('id', '=', id).where('user_id', '=', caller!.id).executeTakeFirst()
    : undefined
  if (!row) throw problems.notFound('No such card setup')
  if (row.status === 'open' && row.provider_ref && row.provider === deps.payments.name) {
    const outcome = await deps.payments.readCardSetup(row.provider_ref)
    if (outcome.status === 'complete') return recordSetupCard(deps, row.provider_ref, outcome.card)
    if (outcome.status === 'expired') {
      const expired = await deps.db.updateTable('card_setups').set({ status: 'expired' }).where('id', '=', row.id).where('status', '=', 'open').returningAll().executeTakeFirst()
      return setupOf(expired ?? row, null)
    }
  }
  const card = row.payment_method_id
    ? ((await deps.db.selectFrom('payment_methods').selectAll().where('id', '=', row.payment_method_id).executeTakeFirst()) ?? null)
    : null
  return setupOf(row, card)
}

/**
 * Records the card a finished setup saved, once: a second call (the member's return and the
 * webhook, in any order) finds it recorded. The member's first card becomes the default.
 */
export async function recordSetupCard(deps: PaymentsDeps, setupRef: string, card: SavedCard): Promise<CardSetup> {
  const { setup, row, becameDefault, customer } = await deps.db.transaction().execute(async (trx) => {
    const setup = await trx
      .selectFrom('card_setups')
      .selectAll()
      .where('provider', '=', deps.payments.name)
      .where('provider_ref', '=', setupRef)
      .forUpdate()
      .executeTakeFirstOrThrow()
    const existing = await trx
      .selectFrom('payment_methods')
      .selectAll()
      .where('provider', '=', deps.payments.name)
      .where('provider_ref', '=', card.ref)
      .executeTakeFirst()
    let row = existing
    let becameDefault = false
    if (row && card.detached && !row.removed_at) {
      row = await trx.updateTable('payment_methods').set({ removed_at: new Date(), is_default: false }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow()
    }
    if (!row) {
      const hasDefault = await trx
        .selectFrom('payment_methods')
        .select('id')
        .where('user_id', '=', setup.user_id)
        .where('removed_at', 'is', null)
        .where('is_default', '=', true)
        .executeTakeFirst()
      // A card already detached when its setup is read (the detach's event came first) is recorded as removed.
      becameDefault = !hasDefault && !card.detached
      row = await trx
        .insertInto('payment_methods')
        .values({
          user_id: setup.user_id,
          provider: deps.payments.name,
          provider_ref: card.ref,
          brand: card.brand,
          last4: card.last4,
          exp_month: card.exp_month,
          exp_year: card.exp_year,
          is_default: becameDefault,
          removed_at: card.detached ? new Date() : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    }
    const finished =
      setup.status === 'complete'
        ? setup
        : await trx
            .updateTable('card_setups')
            .set({ status: 'complete', payment_method_id: row.id, completed_at: new Date() })
            .where('id', '=', setup.id)
            .returningAll()
            .executeTakeFirstOrThrow()
    return { setup: finished, row, becameDefault, customer: await customerRef(trx, setup.user_id, deps.payments.name) }
  })
  if (becameDefault && customer) await syncDefault(deps, customer, row)
  return setupOf(setup, row)
}

/**
 * Tells the provider which card is the default, and moves the member's paid premium onto it (it
 * renews on the default card, decision 074: at Stripe the subscription's own card comes first, so
 * it is told too). A failure is logged, never shown: our record is the truth, and the next change
 * repeats it.
 */
async function syncDefault(deps: PaymentsDeps, customer: string, card: Pick<CardRow, 'id' | 'user_id' | 'provider_ref'>) {
  await deps.payments.setDefaultCard(customer, card.provider_ref).catch((error: unknown) => {
    deps.logger.error({ err: error }, 'The payments provider did not take the default card')
  })
  const plan = await paidPlan(deps, card.user_id)
  if (!plan || plan.payment_method_id === card.id) return
  await deps.db.updateTable('subscriptions').set({ payment_method_id: card.id, updated_at: new Date() }).where('id', '=', plan.id).execute()
  await deps.payments.setSubscriptionCard(plan.provider_ref!, card.provider_ref).catch((error: unknown) => {
    deps.logger.error({ err: error, subscriptionId: plan.id }, 'The payments provider did not take premium’s new card')
  })
}

/** The member's paid premium at this provider, running or past due. */
const paidPlan = (deps: PaymentsDeps, userId: string) =>
  deps.db
    .selectFrom('subscriptions')
    .select(['id', 'payment_method_id', 'provider_ref'])
    .where('user_id', '=', userId)
    .where('provider', '=', deps.payments.name)
    .where('provider_ref', 'is not', null)
    .where('price_cents', '>', 0)
    .where('status', 'in', ['active', 'past_due'])
    .executeTakeFirst()

/**
 * A card changed at the provider (decision 076): card networks give a renewed card a new expiry,
 * sometimes a new number, and Stripe updates the saved card (`payment_method.updated`,
 * `payment_method.automatically_updated`). The card is read again from the provider, never taken
 * from the event, so a late or repeated event changes nothing; a card we do not hold is ignored.
 */
export async function refreshCard(deps: Pick<PaymentsDeps, 'db' | 'payments'>, cardRef: string) {
  const known = await deps.db.selectFrom('payment_methods').select('id').where('provider', '=', deps.payments.name).where('provider_ref', '=', cardRef).executeTakeFirst()
  if (!known) return []
  const card = await deps.payments.readCard(cardRef)
  return card ? updateCardDetails(deps.db, deps.payments.name, card) : []
}

/** Our record of a provider's card takes its brand, last four digits and expiry as the provider now holds them; answers the rows that changed. */
export async function updateCardDetails(db: DB | Trx, provider: string, card: SavedCard) {
  const { brand, last4, exp_month, exp_year } = card
  return db
    .updateTable('payment_methods')
    .set({ brand, last4, exp_month, exp_year })
    .where('provider', '=', provider)
    .where('provider_ref', '=', card.ref)
    .where((eb) => eb.or([eb('brand', '!=', brand), eb('last4', '!=', last4), eb('exp_month', '!=', exp_month), eb('exp_year', '!=', exp_year)]))
    .returning(['id', 'user_id'])
    .execute()
}

async function ownCard(deps: PaymentsDeps, caller: Caller, id: string) {
  const row = isUuid(id) ? await activeCards(deps.db, caller!.id).where('id', '=', id).executeTakeFirst() : undefined
  if (!row) throw problems.notFound('No such card')
  return row
}

/** `POST v1/payment-methods/default?id=`: makes one of the caller's cards the default. */
export async function makeDefaultCard(deps: PaymentsDeps, caller: Caller, id: string): Promise<PaymentMethod> {
  requirePermission(caller, 'manage:payment_methods')
  const card = await ownCard(deps, caller, id)
  const updated = await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('payment_methods').set({ is_default: false }).where('user_id', '=', card.user_id).where('is_default', '=', true).where('id', '!=', card.id).execute()
    return trx.updateTable('payment_methods').set({ is_default: true }).where('id', '=', card.id).returningAll().executeTakeFirstOrThrow()
  })
  const customer = await customerRef(deps.db, card.user_id, card.provider)
  if (customer && card.provider === deps.payments.name) await syncDefault(deps, customer, updated)
  return cardOf(updated)
}

/**
 * `DELETE v1/payment-methods/{id}`: removes one of the caller's cards, refused while it is their
 * only card and it pays for a paid subscription or a no-show fee not settled yet. The provider
 * forgets it first; our row is kept, marked removed, so that what named it still can. Another
 * card becomes the default when the default goes.
 */
export async function removeCard(deps: PaymentsDeps, caller: Caller, id: string): Promise<void> {
  requirePermission(caller, 'manage:payment_methods')
  const card = await ownCard(deps, caller, id)
  const others = await activeCards(deps.db, card.user_id).where('id', '!=', card.id).orderBy('created_at', 'desc').execute()
  if (others.length === 0) {
    const paid = await deps.db
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', card.user_id)
      .where('status', 'in', ['active', 'past_due'])
      .where('partnership_id', 'is', null)
      .where('provider_ref', 'is not', null)
      .executeTakeFirst()
    if (paid) throw problems.conflict('card_in_use', 'This card pays for your premium membership. Add another card first, or cancel the membership.')
    // A no-show fee not settled yet would have nothing to be charged to (decision 075).
    const unsettled = await deps.db
      .selectFrom('no_show_fees')
      .select('id')
      .where('user_id', '=', card.user_id)
      .where('status', 'in', ['noticed', 'disputed', 'needs_confirmation', 'declined'])
      .executeTakeFirst()
    if (unsettled) throw problems.conflict('card_backs_fee', 'A no-show fee is not settled yet: add another card before removing this one.')
  }
  if (card.provider === deps.payments.name) await deps.payments.detachCard(card.provider_ref)
  const next = card.is_default ? others[0] : undefined
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('payment_methods').set({ removed_at: new Date(), is_default: false }).where('id', '=', card.id).execute()
    if (next) await trx.updateTable('payment_methods').set({ is_default: true }).where('id', '=', next.id).execute()
  })
  if (next) {
    const customer = await customerRef(deps.db, card.user_id, next.provider)
    if (customer && next.provider === deps.payments.name) await syncDefault(deps, customer, next)
  } else {
    // Premium renewed on this card (not the default): it moves to the default.
    const plan = await paidPlan(deps, card.user_id)
    const fallback = plan?.payment_method_id === card.id ? await activeCards(deps.db, card.user_id).where('is_default', '=', true).executeTakeFirst() : undefined
    const customer = fallback && (await customerRef(deps.db, card.user_id, fallback.provider))
    if (fallback && customer && fallback.provider === deps.payments.name) await syncDefault(deps, customer, fallback)
  }
}

/**
 * Account deletion: each of the member's cards is forgotten at the provider (a failure is logged:
 * the deletion goes on, and the rows go with the account).
 */
export async function forgetCards(deps: PaymentsDeps, userId: string) {
  const cards = await activeCards(deps.db, userId).where('provider', '=', deps.payments.name).execute()
  for (const card of cards) {
    await deps.payments.detachCard(card.provider_ref).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'A deleted member’s card could not be forgotten at the payments provider')
    })
  }
  return cards.length
}

// The built-in hosted card page (only while the built-in provider is in use) -------------------

async function builtinSession(deps: PaymentsDeps, caller: Caller, id: string) {
  requirePermission(caller, 'manage:payment_methods')
  if (deps.payments.name !== 'builtin') throw problems.notFound()
  const session = await openBuiltinCheckout(deps.db, id, caller!.id)
  if (!session) throw problems.notFound('No such checkout')
  return session
}

async function checkoutOf(deps: PaymentsDeps, caller: Caller, id: string): Promise<BuiltinCheckout> {
  return (await readBuiltinCheckout(deps.db, id, caller!.id))!
}

/** `GET v1/payments/checkout/{id}`: what the built-in hosted page shows the member who started it. */
export async function getBuiltinCheckout(deps: PaymentsDeps, caller: Caller, id: string): Promise<BuiltinCheckout> {
  await builtinSession(deps, caller, id)
  return checkoutOf(deps, caller, id)
}

/** `POST v1/payments/checkout/{id}/card`: the card typed on the built-in hosted page. */
export async function submitCheckoutCard(deps: PaymentsDeps, caller: Caller, id: string, body: BuiltinCardBody): Promise<BuiltinCheckout> {
  const session = await builtinSession(deps, caller, id)
  if (session.status !== 'open' || session.expires_at <= new Date()) throw problems.conflict('checkout_closed', 'This card page is finished. Start again from your cards.')
  const checked = checkCard(body)
  if (!checked.ok) throw problems.invalid(checked.fields)
  const { ok: _ok, ...typed } = checked
  const answer = await submitBuiltinCard(deps.db, session, typed)
  if (answer.status === 'declined') throw problems.invalid({ number: [answer.code] })
  return checkoutOf(deps, caller, id)
}

/** `POST v1/payments/checkout/{id}/authentication`: the member confirms the card to their bank, or does not. */
export async function answerCheckoutAuthentication(deps: PaymentsDeps, caller: Caller, id: string, outcome: 'confirm' | 'fail'): Promise<BuiltinCheckout> {
  const session = await builtinSession(deps, caller, id)
  if (session.status !== 'requires_authentication') throw problems.conflict('checkout_closed', 'There is nothing to confirm on this card page.')
  await authenticateBuiltinCheckout(deps.db, id, outcome)
  return checkoutOf(deps, caller, id)
}
