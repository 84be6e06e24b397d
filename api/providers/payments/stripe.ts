import type { CardBrand, SubscriptionStatus } from '../../db/schema.ts'
import { InvalidSignatureError } from '../verification/provider.ts'
import { STRIPE_API_BASE, verifyStripeSignature } from '../verification/stripe.ts'
import { PaymentsVendorError, type ChargeOutcome, type PaymentCheckoutStart, type PaymentEvent, type PaymentsProvider, type SavedCard } from './provider.ts'

/**
 * Stripe payments over its REST API, no SDK (decision 073), form-encoded with the secret key as
 * bearer and nested parameters in brackets (https://docs.stripe.com/api/authentication):
 * - a Customer per member, created once under an `Idempotency-Key`
 *   (https://docs.stripe.com/api/customers/create, https://docs.stripe.com/api/idempotent_requests);
 * - Checkout in setup mode to save a card (https://docs.stripe.com/api/checkout/sessions/create),
 *   read back with its SetupIntent and PaymentMethod expanded
 *   (https://docs.stripe.com/api/checkout/sessions/retrieve, https://docs.stripe.com/api/expanding_objects);
 * - the default card as the customer's `invoice_settings.default_payment_method`
 *   (https://docs.stripe.com/api/customers/update); a card forgotten by detaching it
 *   (https://docs.stripe.com/api/payment_methods/detach);
 * - off-session charges as confirmed PaymentIntents (https://docs.stripe.com/api/payment_intents/create,
 *   https://docs.stripe.com/payments/save-and-reuse#charge-saved-payment-method): a refused card
 *   answers 402 with the PaymentIntent in `error.payment_intent` (https://docs.stripe.com/api/errors);
 * - premium (decision 074): Checkout in subscription mode with inline `price_data` (yearly), read
 *   back with the subscription expanded and its card (https://docs.stripe.com/api/payment_methods/retrieve),
 *   cancelled at the period's end (https://docs.stripe.com/api/subscriptions/update#update_subscription-cancel_at_period_end);
 *   afterwards (decision 076) read again with its card expanded whenever Stripe says it changed
 *   (https://docs.stripe.com/api/subscriptions/retrieve), as is a card a network updated;
 * - a fee paid on-session (issue 31 §3): Checkout in payment mode, read back for its PaymentIntent;
 *   refunds of a PaymentIntent (https://docs.stripe.com/api/refunds/create);
 * - webhooks signed as the verification adapter checks them (https://docs.stripe.com/webhooks#verify-manually).
 */
export interface StripePaymentsOptions {
  secretKey: string
  webhookSecret: string
  fetch?: typeof fetch
  /** Fails a call to Stripe that takes longer (a member may be waiting). */
  timeoutMs?: number
}

/** Stripe's error object (https://docs.stripe.com/api/errors), the fields we read. */
interface StripeErrorBody {
  type?: string
  code?: string
  decline_code?: string
  message?: string
  payment_intent?: { id?: string; status?: string }
}

/** A non-2xx answer from Stripe: a PaymentsVendorError that keeps the status and error for the methods that expect some. */
class StripeApiError extends PaymentsVendorError {
  readonly status: number
  readonly error: StripeErrorBody
  constructor(status: number, error: StripeErrorBody) {
    super(`Stripe answered ${status}: ${error.message ?? 'no message'}`)
    this.status = status
    this.error = error
  }
}

/** Null for an object Stripe does not have (404 `resource_missing`); any other error thrown again. */
function orNullWhenMissing(error: unknown): null {
  if (error instanceof StripeApiError && (error.status === 404 || error.error.code === 'resource_missing')) return null
  throw error
}

/** Card brands with a logo (spec §3); Stripe's others (`jcb`, `diners`, `unionpay`, …) are `unknown`. */
const BRANDS: readonly string[] = ['visa', 'mastercard', 'amex', 'discover'] satisfies CardBrand[]
/** Our languages, all Stripe Checkout locales (https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-locale). */
const CHECKOUT_LOCALES: readonly string[] = ['en', 'fr', 'nl']

type Json = Record<string, unknown>

const brandOf = (brand: unknown): CardBrand => (typeof brand === 'string' && BRANDS.includes(brand) ? (brand as CardBrand) : 'unknown')

/** A Subscription (https://docs.stripe.com/api/subscriptions/object), the fields we read. */
interface StripeSubscription {
  id?: unknown
  default_payment_method?: string | { id?: unknown } | null
  current_period_start?: number
  current_period_end?: number
  items?: { data?: { current_period_start?: number; current_period_end?: number }[] }
  status?: unknown
  cancel_at_period_end?: unknown
  canceled_at?: number | null
}

/** A PaymentMethod (https://docs.stripe.com/api/payment_methods/object), the fields we read. */
interface StripePaymentMethod {
  id?: unknown
  customer?: unknown
  card?: { brand?: unknown; last4?: unknown; exp_month?: unknown; exp_year?: unknown } | null
}

/** A card PaymentMethod as we keep it, `detached` when its customer is gone; null when it is not a card. */
function cardOf(method: StripePaymentMethod | null | undefined): SavedCard | null {
  const card = method?.card
  if (typeof method?.id !== 'string' || typeof card?.last4 !== 'string' || typeof card.exp_month !== 'number' || typeof card.exp_year !== 'number') return null
  return { ref: method.id, brand: brandOf(card.brand), last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, detached: method.customer === null }
}

/** A subscription's current period: on its first item since API version 2025-03-31, on the subscription before; null when neither holds it. */
function periodOf(subscription: StripeSubscription) {
  const item = subscription.items?.data?.[0]
  const start = item?.current_period_start ?? subscription.current_period_start
  const end = item?.current_period_end ?? subscription.current_period_end
  return typeof start === 'number' && typeof end === 'number' ? { start: new Date(start * 1000), end: new Date(end * 1000) } : null
}

/** Stripe's subscription statuses (https://docs.stripe.com/api/subscriptions/object#subscription_object-status) as `subscriptions.status` holds them (see `ProviderSubscription`). */
const SUBSCRIPTION_STATUSES: Record<string, SubscriptionStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
  incomplete: 'incomplete',
}

export function createStripePayments(options: StripePaymentsOptions): PaymentsProvider {
  /** One request to Stripe: the JSON object it answered, or a PaymentsVendorError (a StripeApiError for a non-2xx answer). */
  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}, idempotencyKey?: string): Promise<Json> {
    const form = new URLSearchParams(params)
    const query = method === 'GET' && form.size > 0 ? `?${form}` : ''
    let response: Response
    let json: unknown
    try {
      // The global `fetch` is looked up per call, not kept: a test double may replace it after the provider is made.
      response = await (options.fetch ?? fetch)(`${STRIPE_API_BASE}${path}${query}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: method === 'POST' ? form : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      })
      json = await response.json().catch(() => null)
    } catch (error) {
      throw new PaymentsVendorError(`Stripe could not be reached: ${(error as Error).message}`)
    }
    if (typeof json !== 'object' || json === null) throw new PaymentsVendorError(`Stripe answered ${response.status} without JSON`)
    if (!response.ok) throw new StripeApiError(response.status, (json as { error?: StripeErrorBody }).error ?? {})
    return json as Json
  }

  /** The `id` of an object Stripe answered; a PaymentsVendorError when there is none. */
  function idOf(object: unknown, what: string) {
    const id = (object as { id?: unknown } | null)?.id
    if (typeof id !== 'string') throw new PaymentsVendorError(`Stripe answered no ${what}`)
    return id
  }

  /**
   * Checkout in payment mode: one line item with inline `price_data`, recurring each `interval`
   * (`mode=subscription`, premium) or paid once (`mode=payment`, a fee paid on-session, its
   * PaymentIntent carrying the description and metadata to the receipt and the dashboard).
   */
  async function startPaymentSession(input: PaymentCheckoutStart, interval: 'year' | null) {
    const params: Record<string, string> = {
      mode: interval ? 'subscription' : 'payment',
      customer: input.customer,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      locale: CHECKOUT_LOCALES.includes(input.locale) ? input.locale : 'auto',
      client_reference_id: input.userId,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(input.amountCents),
      'line_items[0][price_data][product_data][name]': input.description,
      'payment_method_types[0]': 'card',
    }
    if (interval) params['line_items[0][price_data][recurring][interval]'] = interval
    else params['payment_intent_data[description]'] = input.description
    const carried = interval ? 'subscription_data' : 'payment_intent_data'
    for (const [key, value] of Object.entries({ user_id: input.userId, ...input.metadata })) {
      params[`metadata[${key}]`] = value
      params[`${carried}[metadata][${key}]`] = value
    }
    const session = await call('POST', '/v1/checkout/sessions', params)
    if (typeof session.url !== 'string') throw new PaymentsVendorError('Stripe answered a session without a page')
    return { ref: idOf(session, 'session'), url: session.url }
  }

  return {
    name: 'stripe',

    async ensureCustomer(member, existing) {
      if (existing) return existing
      const params = { email: member.email, name: member.name, 'metadata[user_id]': member.id }
      return idOf(await call('POST', '/v1/customers', params, `customer:${member.id}`), 'customer')
    },

    async startCardSetup({ customer, userId, successUrl, cancelUrl, locale }) {
      const session = await call('POST', '/v1/checkout/sessions', {
        mode: 'setup',
        currency: 'usd',
        customer,
        success_url: successUrl,
        cancel_url: cancelUrl,
        locale: CHECKOUT_LOCALES.includes(locale) ? locale : 'auto',
        client_reference_id: userId,
        'setup_intent_data[metadata][user_id]': userId,
        'payment_method_types[0]': 'card',
      })
      if (typeof session.url !== 'string') throw new PaymentsVendorError('Stripe answered a session without a page')
      return { ref: idOf(session, 'session'), url: session.url }
    },

    async readCardSetup(ref) {
      const session = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(ref)}`, { 'expand[]': 'setup_intent.payment_method' })
      if (session.status === 'expired') return { status: 'expired' }
      const intent = session.setup_intent as { status?: unknown; payment_method?: unknown } | null
      if (session.status !== 'complete' || intent?.status !== 'succeeded') return { status: 'open' }
      // Detached since (its `customer` gone): read now, whatever order the events came in.
      const card = cardOf(intent.payment_method as StripePaymentMethod | null)
      if (!card) throw new PaymentsVendorError('Stripe answered a complete session without a card')
      return { status: 'complete', card }
    },

    startSubscriptionCheckout: (input) => startPaymentSession(input, input.interval),
    startPaymentCheckout: (input) => startPaymentSession(input, null),

    async readPaymentCheckout(ref) {
      const session = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(ref)}`, { 'expand[]': 'payment_intent.payment_method' })
      if (session.status === 'expired') return { status: 'expired' }
      if (session.status !== 'complete' || session.payment_status !== 'paid') return { status: 'open' }
      const intent = session.payment_intent as { id?: unknown; payment_method?: { card?: { brand?: unknown; last4?: unknown } } | null } | null
      if (typeof intent?.id !== 'string') throw new PaymentsVendorError('Stripe answered a paid session without its PaymentIntent')
      const card = intent.payment_method?.card
      return { status: 'complete', paymentRef: intent.id, card: typeof card?.last4 === 'string' ? { brand: brandOf(card.brand), last4: card.last4 } : null }
    },

    async readSubscriptionCheckout(ref) {
      const session = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(ref)}`, { 'expand[]': 'subscription' })
      if (session.status === 'expired') return { status: 'expired' }
      const subscription = session.subscription as StripeSubscription | null
      if (session.status !== 'complete' || !subscription || typeof subscription !== 'object') return { status: 'open' }
      const methodId = typeof subscription.default_payment_method === 'string' ? subscription.default_payment_method : subscription.default_payment_method?.id
      if (typeof methodId !== 'string') throw new PaymentsVendorError('Stripe answered a subscription without a card')
      const card = cardOf(await call('GET', `/v1/payment_methods/${encodeURIComponent(methodId)}`))
      const period = periodOf(subscription)
      if (!card || !period) throw new PaymentsVendorError('Stripe answered a subscription without its card or period')
      return { status: 'complete', card, subscriptionRef: idOf(subscription, 'subscription'), periodStart: period.start, periodEnd: period.end }
    },

    async cancelSubscriptionAtPeriodEnd(subscriptionRef) {
      await call('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionRef)}`, { cancel_at_period_end: 'true' })
    },

    async endSubscriptionNow(subscriptionRef) {
      // One already ended answers 404 or its canceled self: the end we asked for either way.
      await call('DELETE', `/v1/subscriptions/${encodeURIComponent(subscriptionRef)}`).catch(orNullWhenMissing)
    },

    async setSubscriptionCard(subscriptionRef, cardRef) {
      await call('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionRef)}`, { default_payment_method: cardRef })
    },

    async readSubscription(subscriptionRef) {
      const subscription: StripeSubscription | null = await call('GET', `/v1/subscriptions/${encodeURIComponent(subscriptionRef)}`, { 'expand[]': 'default_payment_method' }).catch(orNullWhenMissing)
      if (!subscription) return null
      const status = typeof subscription.status === 'string' ? SUBSCRIPTION_STATUSES[subscription.status] : undefined
      const period = periodOf(subscription)
      if (!status || !period) throw new PaymentsVendorError(`Stripe answered a subscription ${String(subscription.status)} without a status or period we know`)
      const method = subscription.default_payment_method
      return {
        ref: idOf(subscription, 'subscription'),
        status,
        providerStatus: String(subscription.status),
        periodStart: period.start,
        periodEnd: period.end,
        cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
        canceledAt: typeof subscription.canceled_at === 'number' ? new Date(subscription.canceled_at * 1000) : null,
        // Expanded, the card is an object; a bare id would mean Stripe did not expand it.
        card: method && typeof method === 'object' ? cardOf(method) : null,
      }
    },

    async readCard(cardRef) {
      return cardOf(await call('GET', `/v1/payment_methods/${encodeURIComponent(cardRef)}`).catch(orNullWhenMissing))
    },

    async setDefaultCard(customer, cardRef) {
      await call('POST', `/v1/customers/${encodeURIComponent(customer)}`, { 'invoice_settings[default_payment_method]': cardRef })
    },

    async detachCard(cardRef) {
      try {
        await call('POST', `/v1/payment_methods/${encodeURIComponent(cardRef)}/detach`)
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error
        const gone = error.status === 404 || error.error.code === 'resource_missing'
        const notAttached = error.status === 400 && /not attached/i.test(error.error.message ?? '')
        if (!gone && !notAttached) throw error
      }
    },

    async chargeOffSession(input): Promise<ChargeOutcome> {
      const params: Record<string, string> = {
        amount: String(input.amountCents),
        currency: 'usd',
        customer: input.customer,
        payment_method: input.cardRef,
        off_session: 'true',
        confirm: 'true',
        description: input.description,
      }
      for (const [key, value] of Object.entries(input.metadata)) params[`metadata[${key}]`] = value
      let intent: Json
      try {
        intent = await call('POST', '/v1/payment_intents', params, input.idempotencyKey)
      } catch (error) {
        if (!(error instanceof StripeApiError) || error.status !== 402) throw error
        const ref = error.error.payment_intent?.id ?? null
        if (error.error.code === 'authentication_required' && ref) return { status: 'requires_authentication', ref }
        return { status: 'declined', ref, code: error.error.decline_code ?? error.error.code ?? 'card_declined' }
      }
      const ref = idOf(intent, 'PaymentIntent')
      if (intent.status === 'succeeded') return { status: 'succeeded', ref }
      if (intent.status === 'requires_action') return { status: 'requires_authentication', ref }
      throw new PaymentsVendorError(`Stripe answered a PaymentIntent ${String(intent.status)}`)
    },

    async refund({ paymentRef, amountCents, idempotencyKey, metadata }) {
      const params: Record<string, string> = { payment_intent: paymentRef, amount: String(amountCents), reason: 'requested_by_customer' }
      for (const [key, value] of Object.entries(metadata)) params[`metadata[${key}]`] = value
      const refund = await call('POST', '/v1/refunds', params, idempotencyKey)
      // `pending` settles later (https://docs.stripe.com/refunds#refund-statuses); `failed` and `canceled` gave nothing back.
      if (refund.status === 'failed' || refund.status === 'canceled') throw new PaymentsVendorError(`Stripe answered a refund ${String(refund.status)}`)
      return { ref: idOf(refund, 'refund') }
    },

    parseWebhook(payload, signatureHeader, now = new Date()) {
      verifyStripeSignature(payload, signatureHeader, options.webhookSecret, now)
      let event: PaymentEvent
      try {
        event = JSON.parse(payload) as PaymentEvent
      } catch {
        throw new InvalidSignatureError('The payload is not JSON')
      }
      const object = event?.data?.object
      if (
        typeof event?.id !== 'string' ||
        typeof event.type !== 'string' ||
        typeof event.created !== 'number' ||
        typeof object?.id !== 'string' ||
        typeof object.object !== 'string'
      ) {
        throw new InvalidSignatureError('Not an event')
      }
      return event
    },
  }
}
