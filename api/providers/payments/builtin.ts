import { randomBytes } from 'node:crypto'
import { builtinTestCards, type BuiltinCardBody, type BuiltinCheckout, type PaymentCardBrand } from '#contract/payments.ts'
import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { BuiltinVaultCard, Database } from '../../db/schema.ts'
import { PaymentsVendorError, type ChargeOutcome, type PaymentCheckoutStart, type PaymentsProvider } from './provider.ts'

/**
 * The built-in payments provider (decision 073): what `npm start`, the demo and the tests use.
 * - A vault in PostgreSQL (`builtin_vault_cards`): a token, the brand, the last four digits and the
 *   expiry. The number and CVC are checked and dropped; they are never stored or logged.
 * - A hosted card page of our own (`/checkout/{id}`, served by the web app through the endpoints
 *   below) standing in for Stripe Checkout in setup mode: it works without JavaScript.
 * - A deterministic bank that follows Stripe's documented test cards (https://docs.stripe.com/testing),
 *   known by their last four digits: 0002 is declined, 9995 has insufficient funds (both already
 *   when the card is saved, as Stripe's SetupIntents are), 0341 saves but every charge is declined,
 *   3184 always needs the member's confirmation, 3155 needs it unless it was confirmed when saved;
 *   the others succeed. Only these test cards are accepted, as in Stripe's test mode: a member
 *   trying the demo never types a real card number into it for nothing.
 */
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000

const declinedAtSetup: Record<string, string> = { '0002': 'card_declined', '9995': 'insufficient_funds' }
const needsAuthenticationAtSetup = new Set(['3184', '3155'])

export function createBuiltinPayments(options: { db: DB; publicUrl: string }): PaymentsProvider {
  const { db } = options

  /** A payment-mode session of the hosted page: `interval` for a subscription's first payment, null for a one-off payment. */
  async function startPaymentSession(input: PaymentCheckoutStart, interval: 'year' | null) {
    const id = `cs_builtin_${randomBytes(12).toString('hex')}`
    await db
      .insertInto('builtin_checkout_sessions')
      .values({
        id,
        user_id: input.userId,
        customer: input.customer,
        mode: 'payment',
        amount_cents: input.amountCents,
        description: input.description,
        recurring_interval: interval,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: new Date(Date.now() + SESSION_LIFETIME_MS),
      })
      .execute()
    return { ref: id, url: `${options.publicUrl}/checkout/${id}` }
  }

  return {
    name: 'builtin',

    ensureCustomer: async (member, existing) => existing ?? `cus_builtin_${member.id}`,

    async startCardSetup({ customer, userId, successUrl, cancelUrl }) {
      const id = `cs_builtin_${randomBytes(12).toString('hex')}`
      await db
        .insertInto('builtin_checkout_sessions')
        .values({ id, user_id: userId, customer, mode: 'setup', success_url: successUrl, cancel_url: cancelUrl, expires_at: new Date(Date.now() + SESSION_LIFETIME_MS) })
        .execute()
      return { ref: id, url: `${options.publicUrl}/checkout/${id}` }
    },

    async readCardSetup(ref) {
      const session = await db
        .selectFrom('builtin_checkout_sessions as s')
        .leftJoin('builtin_vault_cards as c', 'c.token', 's.card_token')
        .select(['s.status', 's.expires_at', 'c.token', 'c.brand', 'c.last4', 'c.exp_month', 'c.exp_year', 'c.detached_at'])
        .where('s.id', '=', ref)
        .executeTakeFirst()
      if (!session) return { status: 'expired' }
      if (session.status === 'complete' && session.token) {
        return { status: 'complete', card: { ref: session.token, brand: session.brand!, last4: session.last4!, exp_month: session.exp_month!, exp_year: session.exp_year!, detached: session.detached_at !== null } }
      }
      return openOrExpired(session)
    },

    startSubscriptionCheckout: (input) => startPaymentSession(input, input.interval),
    startPaymentCheckout: (input) => startPaymentSession(input, null),

    async readPaymentCheckout(ref) {
      const session = await db
        .selectFrom('builtin_checkout_sessions as s')
        .leftJoin('builtin_vault_cards as c', 'c.token', 's.card_token')
        .select(['s.status', 's.expires_at', 's.charge_ref', 'c.brand', 'c.last4'])
        .where('s.id', '=', ref)
        .where('s.mode', '=', 'payment')
        .executeTakeFirst()
      if (!session) return { status: 'expired' }
      if (session.status === 'complete' && session.charge_ref) {
        return { status: 'complete', paymentRef: session.charge_ref, card: session.brand && session.last4 ? { brand: session.brand, last4: session.last4 } : null }
      }
      return openOrExpired(session)
    },

    async readSubscriptionCheckout(ref) {
      const session = await db
        .selectFrom('builtin_checkout_sessions as s')
        .leftJoin('builtin_vault_cards as c', 'c.token', 's.card_token')
        .leftJoin('builtin_charges as p', 'p.ref', 's.charge_ref')
        .select(['s.status', 's.expires_at', 'c.token', 'c.brand', 'c.last4', 'c.exp_month', 'c.exp_year', 'p.created_at as paid_at'])
        .where('s.id', '=', ref)
        .where('s.mode', '=', 'payment')
        .executeTakeFirst()
      if (!session) return { status: 'expired' }
      if (session.status === 'complete' && session.token && session.paid_at) {
        const periodEnd = new Date(session.paid_at)
        periodEnd.setUTCFullYear(periodEnd.getUTCFullYear() + 1)
        return {
          status: 'complete',
          card: { ref: session.token, brand: session.brand!, last4: session.last4!, exp_month: session.exp_month!, exp_year: session.exp_year! },
          // The built-in provider keeps no subscription of its own: the checkout names it, and our renewal job charges it.
          subscriptionRef: ref,
          periodStart: session.paid_at,
          periodEnd,
        }
      }
      return openOrExpired(session)
    },

    // Our own renewal job (api/subscriptions/jobs.ts) charges built-in subscriptions: nothing to tell.
    cancelSubscriptionAtPeriodEnd: async () => {},
    endSubscriptionNow: async () => {},
    // Our renewal job charges the plan's card (`subscriptions.payment_method_id`).
    setSubscriptionCard: async () => {},

    // The built-in provider keeps no subscription of its own (its ref is the checkout's id): our
    // `subscriptions` row is the only record and our renewal job moves it, so there is nothing to
    // read back. Answering from that row would only tell it what it already says (decision 076).
    readSubscription: async () => null,

    async readCard(cardRef) {
      const card = await db.selectFrom('builtin_vault_cards').selectAll().where('token', '=', cardRef).executeTakeFirst()
      return card ? { ref: card.token, brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, detached: card.detached_at !== null } : null
    },

    // The built-in bank charges the card it is given: there is no customer-level default to keep.
    setDefaultCard: async () => {},

    async detachCard(cardRef) {
      await db.updateTable('builtin_vault_cards').set({ detached_at: new Date() }).where('token', '=', cardRef).where('detached_at', 'is', null).execute()
    },

    async chargeOffSession(input) {
      const card = await db.selectFrom('builtin_vault_cards').selectAll().where('token', '=', input.cardRef).executeTakeFirst()
      const outcome = card ? bankAnswer(card) : { status: 'declined' as const, code: 'card_declined' }
      const ref = `pi_builtin_${randomBytes(12).toString('hex')}`
      // One charge per idempotency key: a second call answers the first one's outcome.
      await db
        .insertInto('builtin_charges')
        .values({
          idempotency_key: input.idempotencyKey,
          ref,
          card_token: input.cardRef,
          amount_cents: input.amountCents,
          status: outcome.status,
          decline_code: outcome.status === 'declined' ? outcome.code : null,
        })
        .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
        .execute()
      const charge = await db.selectFrom('builtin_charges').selectAll().where('idempotency_key', '=', input.idempotencyKey).executeTakeFirstOrThrow()
      return chargeOutcome(charge)
    },

    async refund({ paymentRef, amountCents, idempotencyKey }) {
      return db.transaction().execute(async (trx) => {
        // The payment's row lock: two refunds of it, or the same one twice, one after the other.
        const charge = await trx.selectFrom('builtin_charges').select(['amount_cents', 'status']).where('ref', '=', paymentRef).forUpdate().executeTakeFirst()
        const replay = await trx.selectFrom('builtin_refunds').select('ref').where('idempotency_key', '=', idempotencyKey).executeTakeFirst()
        if (replay) return { ref: replay.ref }
        if (charge?.status !== 'succeeded') throw new PaymentsVendorError(`No payment ${paymentRef} to refund`)
        const { refunded } = await trx
          .selectFrom('builtin_refunds')
          .select(sql<number>`coalesce(sum(amount_cents), 0)::int`.as('refunded'))
          .where('charge_ref', '=', paymentRef)
          .executeTakeFirstOrThrow()
        if (amountCents <= 0 || refunded + amountCents > charge.amount_cents) throw new PaymentsVendorError(`The refund is more than what is left of ${paymentRef}`)
        const ref = `re_builtin_${randomBytes(12).toString('hex')}`
        await trx.insertInto('builtin_refunds').values({ idempotency_key: idempotencyKey, ref, charge_ref: paymentRef, amount_cents: amountCents }).execute()
        return { ref }
      })
    },
  }
}

function openOrExpired(session: { status: string; expires_at: Date }) {
  return session.status === 'expired' || session.expires_at <= new Date() ? ({ status: 'expired' } as const) : ({ status: 'open' } as const)
}

function bankAnswer(card: Pick<BuiltinVaultCard, 'last4' | 'exp_month' | 'exp_year' | 'set_up_for_off_session' | 'detached_at'>) {
  if (card.detached_at) return { status: 'declined' as const, code: 'card_declined' }
  if (isExpired(card.exp_month, card.exp_year)) return { status: 'declined' as const, code: 'expired_card' }
  if (card.last4 === '0341' || card.last4 === '0002') return { status: 'declined' as const, code: 'card_declined' }
  if (card.last4 === '9995') return { status: 'declined' as const, code: 'insufficient_funds' }
  if (card.last4 === '3184' || (card.last4 === '3155' && !card.set_up_for_off_session)) return { status: 'requires_authentication' as const }
  return { status: 'succeeded' as const }
}

function chargeOutcome(charge: { ref: string; status: 'succeeded' | 'requires_authentication' | 'declined'; decline_code: string | null }): ChargeOutcome {
  if (charge.status === 'declined') return { status: 'declined', ref: charge.ref, code: charge.decline_code ?? 'card_declined' }
  return { status: charge.status, ref: charge.ref }
}

/** Whether a card's expiry month has passed (it is valid through the end of that month). */
export function isExpired(month: number, year: number, now = new Date()) {
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
}

// The hosted card page ------------------------------------------------------------------------

/** What the hosted page shows, for the member who started it; null for anyone else (a 404). */
export async function readBuiltinCheckout(db: DB, id: string, userId: string): Promise<BuiltinCheckout | null> {
  const session = await db
    .selectFrom('builtin_checkout_sessions as s')
    .leftJoin('builtin_vault_cards as c', 'c.token', 's.card_token')
    .select(['s.id', 's.status', 's.expires_at', 's.success_url', 's.cancel_url', 's.mode', 's.amount_cents', 's.recurring_interval', 's.description', 'c.brand', 'c.last4'])
    .where('s.id', '=', id)
    .where('s.user_id', '=', userId)
    .executeTakeFirst()
  if (!session) return null
  const expired = session.status !== 'complete' && session.expires_at <= new Date()
  return {
    id: session.id,
    status: expired ? 'expired' : session.status,
    pending_card: session.status === 'requires_authentication' && session.brand && session.last4 ? { brand: session.brand, last4: session.last4 } : null,
    return_url: session.success_url,
    cancel_url: session.cancel_url,
    mode: session.mode,
    amount_cents: session.amount_cents,
    recurring_interval: session.recurring_interval === 'year' ? 'year' : null,
    description: session.description,
  }
}

export type CardProblem =
  | 'card_number_invalid'
  | 'card_not_test'
  | 'card_expiry_invalid'
  | 'card_expired'
  | 'card_cvc_invalid'
  | 'postal_code_invalid'
  | 'card_declined'
  | 'insufficient_funds'

/** The card typed on the hosted page, checked; its problems by field when it cannot be used. */
export function checkCard(body: BuiltinCardBody, now = new Date()):
  | { ok: true; brand: PaymentCardBrand; last4: string; exp_month: number; exp_year: number }
  | { ok: false; fields: Partial<Record<keyof BuiltinCardBody, CardProblem[]>> } {
  const fields: Partial<Record<keyof BuiltinCardBody, CardProblem[]>> = {}
  const digits = body.number.replace(/[\s-]/g, '')
  const brand = (builtinTestCards as Record<string, PaymentCardBrand>)[digits]
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) fields.number = ['card_number_invalid']
  else if (!brand) fields.number = ['card_not_test']
  const expiry = /^(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})$/.exec(body.expiry.replace(/\s+/g, ' '))
  const month = expiry ? Number(expiry[1]) : NaN
  const year = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : NaN
  if (!expiry || month < 1 || month > 12) fields.expiry = ['card_expiry_invalid']
  else if (isExpired(month, year, now)) fields.expiry = ['card_expired']
  const cvcLength = brand === 'amex' ? 4 : 3
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(body.cvc)) fields.cvc = ['card_cvc_invalid']
  if (!/^\d{5}(?:-?\d{4})?$/.test(body.postal_code)) fields.postal_code = ['postal_code_invalid']
  if (Object.keys(fields).length > 0 || !brand) return { ok: false, fields }
  return { ok: true, brand, last4: digits.slice(-4), exp_month: month, exp_year: year }
}

function passesLuhn(digits: string) {
  let sum = 0
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/**
 * The member submits a card on the hosted page. The bank answers at once: saved (the session is
 * complete), declined (the problem next to the number; the session stays open for another card),
 * or it wants the member to confirm (the page asks; `authenticateBuiltinCheckout` answers).
 */
export async function submitBuiltinCard(
  db: DB,
  session: { id: string; customer: string },
  card: { brand: PaymentCardBrand; last4: string; exp_month: number; exp_year: number },
): Promise<{ status: 'complete' | 'requires_authentication' } | { status: 'declined'; code: 'card_declined' | 'insufficient_funds' }> {
  const declined = declinedAtSetup[card.last4]
  if (declined) return { status: 'declined', code: declined as 'card_declined' | 'insufficient_funds' }
  const token = `card_${randomBytes(12).toString('hex')}`
  const status = needsAuthenticationAtSetup.has(card.last4) ? 'requires_authentication' : 'complete'
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('builtin_vault_cards').values({ token, customer: session.customer, ...card }).execute()
    // In payment mode the card is charged as soon as the bank has nothing more to ask.
    if (status === 'complete' && !(await payCheckout(trx, session.id, token, card.last4))) {
      await trx.updateTable('builtin_vault_cards').set({ detached_at: new Date() }).where('token', '=', token).execute()
      return { status: 'declined' as const, code: 'card_declined' as const }
    }
    await trx.updateTable('builtin_checkout_sessions').set({ status, card_token: token }).where('id', '=', session.id).execute()
    return { status }
  })
}

/**
 * A payment-mode session's charge, on-session (the member is on the page): the amount, once per
 * session and card (`checkout:<session>:<card>`). Answers false when the bank declines it (0341:
 * the card saves but every charge is declined). A setup-mode session has nothing to charge (true).
 */
async function payCheckout(trx: Transaction<Database>, sessionId: string, token: string, last4: string) {
  const session = await trx.selectFrom('builtin_checkout_sessions').select(['mode', 'amount_cents']).where('id', '=', sessionId).executeTakeFirstOrThrow()
  if (session.mode !== 'payment' || !session.amount_cents) return true
  if (last4 === '0341') return false
  const ref = `pi_builtin_${randomBytes(12).toString('hex')}`
  await trx
    .insertInto('builtin_charges')
    .values({ idempotency_key: `checkout:${sessionId}:${token}`, ref, card_token: token, amount_cents: session.amount_cents, status: 'succeeded', decline_code: null })
    .execute()
  // Saved on-session for the renewals to come, as Stripe's subscription mode does.
  await trx.updateTable('builtin_vault_cards').set({ set_up_for_off_session: true }).where('token', '=', token).execute()
  await trx.updateTable('builtin_checkout_sessions').set({ charge_ref: ref }).where('id', '=', sessionId).execute()
  return true
}

/** The member's answer to the bank's confirmation: confirmed, the card is saved (and set up for later charges); failed, the session opens again. */
export async function authenticateBuiltinCheckout(db: DB, sessionId: string, outcome: 'confirm' | 'fail') {
  await db.transaction().execute(async (trx) => {
    const session = await trx.selectFrom('builtin_checkout_sessions').select(['card_token']).where('id', '=', sessionId).forUpdate().executeTakeFirstOrThrow()
    if (outcome === 'confirm') {
      await trx.updateTable('builtin_vault_cards').set({ set_up_for_off_session: true }).where('token', '=', session.card_token!).execute()
      const card = await trx.selectFrom('builtin_vault_cards').select('last4').where('token', '=', session.card_token!).executeTakeFirstOrThrow()
      if (!(await payCheckout(trx, sessionId, session.card_token!, card.last4))) {
        await trx.updateTable('builtin_vault_cards').set({ detached_at: new Date() }).where('token', '=', session.card_token!).execute()
        await trx.updateTable('builtin_checkout_sessions').set({ status: 'open', card_token: null }).where('id', '=', sessionId).execute()
        return
      }
      await trx.updateTable('builtin_checkout_sessions').set({ status: 'complete' }).where('id', '=', sessionId).execute()
    } else {
      await trx.updateTable('builtin_vault_cards').set({ detached_at: new Date() }).where('token', '=', session.card_token!).execute()
      await trx.updateTable('builtin_checkout_sessions').set({ status: 'open', card_token: null }).where('id', '=', sessionId).execute()
    }
  })
}

/** The session's facts the hosted page's endpoints check first (the member's own, still open). */
export async function openBuiltinCheckout(db: DB, id: string, userId: string) {
  return db
    .selectFrom('builtin_checkout_sessions')
    .select(['id', 'customer', 'status', 'expires_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}
