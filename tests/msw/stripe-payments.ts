import { randomBytes } from 'node:crypto'
import { http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw'
import { signStripePayload } from '#api/providers/verification/stripe.ts'

/**
 * Stripe payments as its API reference documents them, for the calls the payments adapter makes
 * (form-encoded, bearer secret key, nested parameters in brackets; errors are
 * `{ error: { type, code?, message, param? } }`: 401 for a wrong key, 400 for a bad parameter,
 * 404 `resource_missing`, 402 `card_error` for a refused card, https://docs.stripe.com/api/errors):
 * - `POST /v1/customers` and `POST /v1/customers/{id}` (https://docs.stripe.com/api/customers);
 * - `POST /v1/checkout/sessions` in setup mode, which makes its SetupIntent, and
 *   `GET /v1/checkout/sessions/{id}` with `expand[]` (https://docs.stripe.com/api/checkout/sessions);
 * - `POST /v1/checkout/sessions` in subscription mode with inline, recurring `price_data`, which
 *   makes its Subscription when the member pays (`completeSubscription()`), read with
 *   `expand[]=subscription`; `POST /v1/subscriptions/{id}` with `cancel_at_period_end`
 *   (https://docs.stripe.com/api/subscriptions/update); `GET /v1/payment_methods/{id}`;
 * - `GET /v1/subscriptions/{id}` with `expand[]=default_payment_method`
 *   (https://docs.stripe.com/api/subscriptions/retrieve); after the first payment Stripe Billing
 *   is played by `renewSubscription()` (the year's invoice charged to the plan's card, paid or
 *   refused, https://docs.stripe.com/billing/subscriptions/overview#subscription-lifecycle),
 *   `deleteSubscription()` (cancelled now, https://docs.stripe.com/api/subscriptions/cancel) and
 *   `updateCardByNetwork()` (a card network's new expiry or number,
 *   https://docs.stripe.com/payments/cards/overview#automatic-card-updates), each answering the
 *   signed webhook deliveries Stripe would send, in Stripe's order;
 * - `POST /v1/payment_methods/{id}/detach` (https://docs.stripe.com/api/payment_methods/detach);
 * - `POST /v1/checkout/sessions` in payment mode (a fee paid on-session, `completePayment()`), read
 *   with `expand[]=payment_intent.payment_method`; `POST /v1/refunds` of a PaymentIntent, never
 *   more than was paid (https://docs.stripe.com/api/refunds/create);
 * - `POST /v1/payment_intents` confirmed off-session, with outcomes as Stripe's test cards
 *   document them (https://docs.stripe.com/testing#cards, #declined-payments, #authentication-and-setup).
 * A POST with an `Idempotency-Key` already used answers the stored answer (`Idempotent-Replayed: true`),
 * or 400 `idempotency_error` when its parameters differ (https://docs.stripe.com/api/idempotent_requests).
 * `completeSetup()` plays the member saving a test card on Checkout; `event()` builds a signed
 * webhook delivery (https://docs.stripe.com/webhooks).
 */

/** Stripe's test cards by their `pm_card_*` name; `charge` is what an off-session PaymentIntent on it does. */
export const TEST_CARDS = {
  pm_card_visa: { brand: 'visa', last4: '4242', charge: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', charge: 'succeeds' },
  pm_card_amex: { brand: 'amex', last4: '0005', charge: 'succeeds' },
  pm_card_jcb: { brand: 'jcb', last4: '0505', charge: 'succeeds' },
  /** Stripe's documented card for "attaching succeeds, charges fail"; real Checkout may refuse 0002 and 9995 at setup already, here they save. */
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', charge: { decline_code: 'generic_decline', message: 'Your card was declined.' } },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', charge: { decline_code: 'generic_decline', message: 'Your card was declined.' } },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    charge: { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  /** Always needs authentication, even once set up. */
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', charge: 'authentication_required' },
  /** Needs authentication to be set up, then off-session charges succeed. */
  pm_card_authenticationRequiredSetupForOffSession: { brand: 'visa', last4: '3155', charge: 'succeeds' },
} as const satisfies Record<string, { brand: string; last4: string; charge: 'succeeds' | 'authentication_required' | { decline_code: string; message: string } }>
export type TestCard = keyof typeof TEST_CARDS

export interface StripeCustomer {
  id: string
  object: 'customer'
  email: string | null
  name: string | null
  metadata: Record<string, string>
  invoice_settings: { default_payment_method: string | null }
  created: number
  livemode: false
}

export interface StripeCheckoutSession {
  id: string
  object: 'checkout.session'
  mode: 'setup' | 'subscription' | 'payment'
  status: 'open' | 'complete' | 'expired'
  /** The hosted page, while the session is open. */
  url: string | null
  customer: string
  client_reference_id: string | null
  success_url: string | null
  cancel_url: string | null
  locale: string | null
  currency: string | null
  payment_method_types: string[]
  payment_status: 'no_payment_required' | 'unpaid' | 'paid'
  /** Setup mode's SetupIntent (null in subscription mode). */
  setup_intent: string | null
  /** Subscription mode: the Subscription, once the member paid. */
  subscription: string | null
  /** Payment mode: the PaymentIntent, once the member paid. */
  payment_intent: string | null
  /** Subscription and payment modes: the `line_items[0]` asked for (price_data), as sent; `interval` null in payment mode. */
  line_item: { currency: string; unit_amount: number; interval: string | null; product_name: string } | null
  metadata: Record<string, string>
  created: number
  expires_at: number
  livemode: false
}

export interface StripeSetupIntent {
  id: string
  object: 'setup_intent'
  status: 'requires_payment_method' | 'succeeded' | 'canceled'
  customer: string
  payment_method: string | null
  payment_method_types: string[]
  usage: 'off_session'
  metadata: Record<string, string>
  client_secret: string
  created: number
  livemode: false
}

export interface StripePaymentMethod {
  id: string
  object: 'payment_method'
  type: 'card'
  card: { brand: string; last4: string; exp_month: number; exp_year: number; country: 'US'; funding: 'credit'; fingerprint: string }
  customer: string | null
  billing_details: { email: string | null; name: string | null }
  metadata: Record<string, string>
  created: number
  livemode: false
}

export interface StripePaymentIntent {
  id: string
  object: 'payment_intent'
  amount: number
  currency: string
  customer: string
  payment_method: string
  status: 'succeeded' | 'requires_payment_method' | 'requires_action'
  description: string | null
  metadata: Record<string, string>
  latest_charge: string | null
  last_payment_error: { type: 'card_error'; code: string; decline_code: string; message: string } | null
  created: number
  livemode: false
}

/** A Subscription (https://docs.stripe.com/api/subscriptions/object), the fields the adapter reads. */
export interface StripeSubscription {
  id: string
  object: 'subscription'
  status: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused'
  customer: string
  default_payment_method: string
  cancel_at_period_end: boolean
  /** When it was cancelled, or last asked to end at its period end. */
  canceled_at: number | null
  /** When it ended, once canceled. */
  ended_at: number | null
  /** The latest invoice it made (the renewals' here; null for the first, paid on Checkout). */
  latest_invoice: string | null
  /** Since API version 2025-03-31 the period lives on the items. */
  items: { object: 'list'; data: { id: string; object: 'subscription_item'; current_period_start: number; current_period_end: number; price: { unit_amount: number; currency: string; recurring: { interval: string } } }[] }
  metadata: Record<string, string>
  created: number
  livemode: false
}

/**
 * An Invoice (https://docs.stripe.com/api/invoices/object), as API version 2025-03-31 and later
 * shape it: the subscription it bills under `parent.subscription_details` (before, `subscription`).
 */
export interface StripeInvoice {
  id: string
  object: 'invoice'
  customer: string
  status: 'open' | 'paid'
  billing_reason: 'subscription_cycle'
  amount_due: number
  amount_paid: number
  currency: string
  attempt_count: number
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } }
  period_start: number
  period_end: number
  created: number
  livemode: false
}

/** A signed webhook delivery, as `event()` builds it. */
export interface StripeDelivery {
  payload: string
  signature: string
}

/** A Refund (https://docs.stripe.com/api/refunds/object), the fields the adapter reads and sends. */
export interface StripeRefund {
  id: string
  object: 'refund'
  amount: number
  currency: string
  payment_intent: string
  charge: string | null
  reason: string | null
  status: 'pending' | 'succeeded' | 'failed' | 'canceled'
  metadata: Record<string, string>
  created: number
}

export interface StripeRequest {
  method: string
  path: string
  /** The form parameters of a POST, the query of a GET. */
  params: URLSearchParams
  idempotencyKey: string | null
}

export interface StripePaymentsMock {
  handlers: HttpHandler[]
  customers: Map<string, StripeCustomer>
  sessions: Map<string, StripeCheckoutSession>
  setupIntents: Map<string, StripeSetupIntent>
  paymentMethods: Map<string, StripePaymentMethod>
  paymentIntents: Map<string, StripePaymentIntent>
  subscriptions: Map<string, StripeSubscription>
  invoices: Map<string, StripeInvoice>
  refunds: Map<string, StripeRefund>
  /** Every request that reached the handlers, in order (refused ones too). */
  requests: StripeRequest[]
  /** The member saves `card` on the open session's page: a PaymentMethod attached to the customer, a succeeded SetupIntent, a complete session. */
  completeSetup(sessionId: string, card: TestCard): { session: StripeCheckoutSession; setupIntent: StripeSetupIntent; paymentMethod: StripePaymentMethod }
  /** The member pays on the open subscription-mode session's page: a PaymentMethod, an active yearly Subscription, a complete session. */
  completeSubscription(sessionId: string, card: TestCard): { session: StripeCheckoutSession; subscription: StripeSubscription; paymentMethod: StripePaymentMethod }
  /** The member pays on the open payment-mode session's page: a succeeded PaymentIntent (the card not saved), a paid, complete session. */
  completePayment(sessionId: string, card: TestCard): { session: StripeCheckoutSession; paymentIntent: StripePaymentIntent; paymentMethod: StripePaymentMethod }
  /** The open session expires (Stripe: after 24 hours, or `POST …/expire`). */
  expire(sessionId: string): StripeCheckoutSession
  /**
   * The subscription's renewal: its period moves on a year and its invoice is charged to its card
   * as Stripe's test card says (this double's Checkout charges nothing, so a card whose charges
   * fail can start a plan). Paid: `active`, `customer.subscription.updated` then `invoice.paid`;
   * refused: `past_due` (the period has moved on all the same), `customer.subscription.updated`
   * then `invoice.payment_failed`.
   */
  renewSubscription(subscriptionId: string): { subscription: StripeSubscription; invoice: StripeInvoice; events: StripeDelivery[] }
  /** Cancelled now (Stripe's dashboard, or its retries given up): `canceled`, `customer.subscription.deleted`. */
  deleteSubscription(subscriptionId: string): { subscription: StripeSubscription; events: StripeDelivery[] }
  /** A card network gives the card a new expiry (and maybe number): `payment_method.automatically_updated`. */
  updateCardByNetwork(paymentMethodId: string, card: { exp_month: number; exp_year: number; last4?: string }): { paymentMethod: StripePaymentMethod; events: StripeDelivery[] }
  /** A signed webhook delivery about `object`. */
  event(
    type: 'checkout.session.completed' | 'checkout.session.expired' | 'payment_method.detached' | 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'invoice.paid' | 'invoice.payment_failed' | (string & {}),
    object: { id: string; object: string },
    options?: { secret?: string; at?: Date },
  ): { payload: string; signature: string }
}

const API = 'https://api.stripe.com/v1'

const now = () => Math.floor(Date.now() / 1000)
const token = (bytes = 12) => randomBytes(bytes).toString('hex')

interface Answer {
  status: number
  body: JsonBodyType
}
const ok = (body: JsonBodyType): Answer => ({ status: 200, body })
const stripeError = (status: number, type: string, message: string, extra: Record<string, unknown> = {}): Answer => ({
  status,
  body: { error: { type, message, ...extra } },
})
const missing = (what: string, id: string, param = 'id') =>
  stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing', param })
const invalid = (message: string, param?: string) => stripeError(400, 'invalid_request_error', message, param ? { param } : {})

/** The `metadata[key]=value` parameters (or `setup_intent_data[metadata][key]`, for `base` `setup_intent_data[metadata]`) as an object. */
function metadataOf(form: URLSearchParams, base = 'metadata') {
  const metadata: Record<string, string> = {}
  for (const [name, value] of form) {
    if (name.startsWith(`${base}[`) && name.endsWith(']')) metadata[name.slice(base.length + 1, -1)] = value
  }
  return metadata
}

export function stripePaymentsHandlers(options: { secretKey: string; webhookSecret: string }): StripePaymentsMock {
  const customers = new Map<string, StripeCustomer>()
  const sessions = new Map<string, StripeCheckoutSession>()
  const setupIntents = new Map<string, StripeSetupIntent>()
  const paymentMethods = new Map<string, StripePaymentMethod>()
  const paymentIntents = new Map<string, StripePaymentIntent>()
  const subscriptions = new Map<string, StripeSubscription>()
  const invoices = new Map<string, StripeInvoice>()
  const refunds = new Map<string, StripeRefund>()
  const requests: StripeRequest[] = []
  /** Idempotency key → the request's parameters and the answer given. */
  const idempotent = new Map<string, { path: string; params: string; answer: Answer }>()
  /** PaymentMethod id → the test card it was made from. */
  const cardOf = new Map<string, TestCard>()

  /**
   * Stripe's handling common to every call: the bearer key, form-encoded parameters, the
   * idempotency key on a POST (answers that ran to completion are stored; validation errors are not).
   */
  function route(method: 'get' | 'post' | 'delete', path: string, answer: (form: URLSearchParams, params: Record<string, string>) => Answer) {
    return http[method](`${API}${path}`, async ({ request, params }) => {
      const url = new URL(request.url)
      const isPost = request.method === 'POST'
      const form = isPost ? new URLSearchParams(await request.text()) : url.searchParams
      const idempotencyKey = request.headers.get('idempotency-key')
      requests.push({ method: request.method, path: url.pathname, params: form, idempotencyKey })
      const respond = ({ status, body }: Answer, headers: Record<string, string> = {}) =>
        HttpResponse.json(body, { status, headers: { 'request-id': `req_${token(7)}`, ...headers } })
      if (request.headers.get('authorization') !== `Bearer ${options.secretKey}`) {
        return respond(stripeError(401, 'invalid_request_error', 'Invalid API Key provided.'))
      }
      if (isPost && !/^application\/x-www-form-urlencoded/.test(request.headers.get('content-type') ?? '')) {
        return respond(invalid('Invalid request: expected form-encoded parameters.'))
      }
      const stored = isPost && idempotencyKey ? idempotent.get(idempotencyKey) : undefined
      if (stored) {
        if (stored.path !== url.pathname || stored.params !== form.toString()) {
          return respond(
            stripeError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            ),
          )
        }
        return respond(stored.answer, { 'idempotent-replayed': 'true' })
      }
      const answered = answer(form, params as Record<string, string>)
      if (isPost && idempotencyKey && (answered.status === 200 || answered.status === 402)) {
        idempotent.set(idempotencyKey, { path: url.pathname, params: form.toString(), answer: answered })
      }
      return respond(answered)
    })
  }

  const handlers = [
    route('post', '/customers', (form) => {
      const customer: StripeCustomer = {
        id: `cus_${token(7)}`,
        object: 'customer',
        email: form.get('email'),
        name: form.get('name'),
        metadata: metadataOf(form),
        invoice_settings: { default_payment_method: null },
        created: now(),
        livemode: false,
      }
      customers.set(customer.id, customer)
      return ok(customer)
    }),

    route('post', '/customers/:id', (form, { id = '' }) => {
      const customer = customers.get(id)
      if (!customer) return missing('customer', id)
      const defaultMethod = form.get('invoice_settings[default_payment_method]')
      if (defaultMethod !== null) {
        if (paymentMethods.get(defaultMethod)?.customer !== id) {
          return invalid(
            `The customer does not have a payment method with the ID ${defaultMethod}. The payment method must be attached to the customer.`,
            'invoice_settings[default_payment_method]',
          )
        }
        customer.invoice_settings.default_payment_method = defaultMethod
      }
      for (const name of ['email', 'name'] as const) {
        const value = form.get(name)
        if (value !== null) customer[name] = value
      }
      Object.assign(customer.metadata, metadataOf(form))
      return ok(customer)
    }),

    route('post', '/checkout/sessions', (form) => {
      const mode = form.get('mode')
      if (mode !== 'setup' && mode !== 'subscription' && mode !== 'payment') return invalid('Invalid mode: must be one of payment, setup, or subscription', 'mode')
      const customer = form.get('customer')
      if (customer === null || !customers.has(customer)) return missing('customer', customer ?? '', 'customer')
      if (mode !== 'setup') return lineItemSession(form, customer, mode)
      const types = [...form].filter(([name]) => /^payment_method_types\[\d+\]$/.test(name)).map(([, value]) => value)
      if (types.length === 0 && !form.get('currency')) return invalid('currency is required in setup mode when payment_method_types is not set', 'currency')
      const successUrl = form.get('success_url')
      if (successUrl !== null && !/^https?:\/\//.test(successUrl)) return invalid('Not a valid URL', 'success_url')
      const id = `cs_test_${token(24)}`
      const setupIntent: StripeSetupIntent = {
        id: `seti_${token(12)}`,
        object: 'setup_intent',
        status: 'requires_payment_method',
        customer,
        payment_method: null,
        payment_method_types: types.length > 0 ? types : ['card'],
        usage: 'off_session',
        metadata: metadataOf(form, 'setup_intent_data[metadata]'),
        client_secret: '',
        created: now(),
        livemode: false,
      }
      setupIntent.client_secret = `${setupIntent.id}_secret_${token(12)}`
      setupIntents.set(setupIntent.id, setupIntent)
      const session: StripeCheckoutSession = {
        id,
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        url: `https://checkout.stripe.com/c/pay/${id}#${token(16)}`,
        customer,
        client_reference_id: form.get('client_reference_id'),
        success_url: successUrl,
        cancel_url: form.get('cancel_url'),
        locale: form.get('locale'),
        currency: form.get('currency'),
        payment_method_types: setupIntent.payment_method_types,
        payment_status: 'no_payment_required',
        setup_intent: setupIntent.id,
        subscription: null,
        payment_intent: null,
        line_item: null,
        metadata: metadataOf(form),
        created: now(),
        expires_at: now() + 24 * 60 * 60,
        livemode: false,
      }
      sessions.set(id, session)
      return ok(session)
    }),

    route('get', '/checkout/sessions/:id', (query, { id = '' }) => {
      const session = sessions.get(id)
      if (!session) return missing('checkout.session', id)
      const expand = query.getAll('expand[]')
      if (session.mode === 'subscription') {
        const subscription = expand.includes('subscription') && session.subscription ? subscriptions.get(session.subscription)! : session.subscription
        return ok({ ...session, subscription })
      }
      if (session.mode === 'payment') {
        const intent = session.payment_intent ? paymentIntents.get(session.payment_intent)! : null
        if (!intent || !expand.some((path) => path === 'payment_intent' || path.startsWith('payment_intent.'))) return ok(session)
        const method = expand.includes('payment_intent.payment_method') ? paymentMethods.get(intent.payment_method)! : intent.payment_method
        return ok({ ...session, payment_intent: { ...intent, payment_method: method } })
      }
      if (!session.setup_intent || !expand.some((path) => path === 'setup_intent' || path.startsWith('setup_intent.'))) return ok(session)
      const setupIntent = setupIntents.get(session.setup_intent)!
      const method = expand.includes('setup_intent.payment_method') && setupIntent.payment_method ? paymentMethods.get(setupIntent.payment_method)! : setupIntent.payment_method
      return ok({ ...session, setup_intent: { ...setupIntent, payment_method: method } })
    }),

    route('get', '/payment_methods/:id', (_query, { id = '' }) => {
      const method = paymentMethods.get(id)
      return method ? ok(method) : missing('PaymentMethod', id)
    }),

    route('get', '/subscriptions/:id', (query, { id = '' }) => {
      const subscription = subscriptions.get(id)
      if (!subscription) return missing('subscription', id)
      if (!query.getAll('expand[]').includes('default_payment_method')) return ok(subscription)
      return ok({ ...subscription, default_payment_method: paymentMethods.get(subscription.default_payment_method) ?? subscription.default_payment_method })
    }),

    route('post', '/subscriptions/:id', (form, { id = '' }) => {
      const subscription = subscriptions.get(id)
      if (!subscription) return missing('subscription', id)
      const cancel = form.get('cancel_at_period_end')
      if (cancel !== null) {
        if (cancel !== 'true' && cancel !== 'false') return invalid('Invalid boolean', 'cancel_at_period_end')
        if (subscription.status === 'canceled') return invalid('A canceled subscription can only update its cancellation_details and metadata.')
        subscription.cancel_at_period_end = cancel === 'true'
        subscription.canceled_at = cancel === 'true' ? now() : null
      }
      const card = form.get('default_payment_method')
      if (card !== null) {
        if (paymentMethods.get(card)?.customer !== subscription.customer) return invalid(`The customer does not have a payment method with the ID ${card}.`, 'default_payment_method')
        subscription.default_payment_method = card
      }
      Object.assign(subscription.metadata, metadataOf(form))
      return ok(subscription)
    }),

    // Cancels at once (https://docs.stripe.com/api/subscriptions/cancel); its open invoices are no longer collected.
    route('delete', '/subscriptions/:id', (_form, { id = '' }) => {
      const subscription = subscriptions.get(id)
      if (!subscription) return missing('subscription', id)
      if (subscription.status === 'canceled') return invalid('A canceled subscription can only update its cancellation_details and metadata.')
      subscription.status = 'canceled'
      subscription.canceled_at = now()
      return ok(subscription)
    }),

    route('post', '/payment_methods/:id/detach', (_form, { id = '' }) => {
      const method = paymentMethods.get(id)
      if (!method) return missing('PaymentMethod', id)
      if (!method.customer) return invalid('The payment method you provided is not attached to a customer so detachment is impossible.')
      const customer = customers.get(method.customer)
      if (customer?.invoice_settings.default_payment_method === id) customer.invoice_settings.default_payment_method = null
      method.customer = null
      return ok(method)
    }),

    route('post', '/payment_intents', (form) => {
      const amount = Number(form.get('amount'))
      if (!Number.isInteger(amount) || amount < 50) return invalid('Amount must be at least $0.50 usd', 'amount')
      const currency = form.get('currency')
      if (!currency) return invalid('Missing required param: currency.', 'currency')
      const customer = form.get('customer') ?? ''
      if (!customers.has(customer)) return missing('customer', customer, 'customer')
      const methodId = form.get('payment_method') ?? ''
      const method = paymentMethods.get(methodId)
      if (!method) return missing('PaymentMethod', methodId, 'payment_method')
      if (method.customer !== customer) {
        return invalid(
          'The provided PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
          'payment_method',
        )
      }
      if (form.get('confirm') !== 'true') return invalid('This test double plays confirmed PaymentIntents only', 'confirm')
      const intent: StripePaymentIntent = {
        id: `pi_${token(12)}`,
        object: 'payment_intent',
        amount,
        currency,
        customer,
        payment_method: methodId,
        status: 'succeeded',
        description: form.get('description'),
        metadata: metadataOf(form),
        latest_charge: `ch_${token(12)}`,
        last_payment_error: null,
        created: now(),
        livemode: false,
      }
      paymentIntents.set(intent.id, intent)
      const outcome = TEST_CARDS[cardOf.get(methodId)!].charge
      if (outcome === 'succeeds') return ok(intent)
      if (outcome === 'authentication_required') {
        // On-session, the PaymentIntent waits for 3-D Secure; off-session, Stripe refuses it with a 402.
        if (form.get('off_session') !== 'true') {
          intent.status = 'requires_action'
          intent.latest_charge = null
          return ok(intent)
        }
        const message = 'Your card was declined. This transaction requires authentication.'
        return refuse(intent, method, { code: 'authentication_required', decline_code: 'authentication_required', message })
      }
      return refuse(intent, method, { code: 'card_declined', ...outcome })
    }),

    route('post', '/refunds', (form) => {
      const intentId = form.get('payment_intent') ?? ''
      const intent = paymentIntents.get(intentId)
      if (!intent) return missing('payment_intent', intentId, 'payment_intent')
      if (intent.status !== 'succeeded') return invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`)
      const already = [...refunds.values()].filter((refund) => refund.payment_intent === intentId).reduce((sum, refund) => sum + refund.amount, 0)
      const amount = form.has('amount') ? Number(form.get('amount')) : intent.amount - already
      if (already >= intent.amount) return invalid(`Charge ${intent.latest_charge} has already been refunded.`)
      if (!Number.isInteger(amount) || amount <= 0 || already + amount > intent.amount) {
        return invalid(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - already) / 100).toFixed(2)})`, 'amount')
      }
      const reason = form.get('reason')
      if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) return invalid('Invalid reason', 'reason')
      const refund: StripeRefund = {
        id: `re_${token(12)}`,
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intentId,
        charge: intent.latest_charge,
        reason,
        status: 'succeeded',
        metadata: metadataOf(form),
        created: now(),
      }
      refunds.set(refund.id, refund)
      return ok(refund)
    }),
  ]

  /** A 402 card error with the failed PaymentIntent in it, as Stripe answers a refused confirmation. */
  function refuse(intent: StripePaymentIntent, method: StripePaymentMethod, error: { code: string; decline_code: string; message: string }) {
    intent.status = 'requires_payment_method'
    intent.last_payment_error = { type: 'card_error', ...error }
    return stripeError(402, 'card_error', error.message, {
      code: error.code,
      decline_code: error.decline_code,
      charge: intent.latest_charge,
      doc_url: `https://docs.stripe.com/error-codes/${error.code.replaceAll('_', '-')}`,
      payment_intent: { ...intent },
      payment_method: { ...method },
    })
  }

  /**
   * `POST /v1/checkout/sessions` in subscription mode (one line item with inline, recurring
   * `price_data`) or payment mode (paid once: no `recurring`; `payment_intent_data` for its PaymentIntent).
   */
  function lineItemSession(form: URLSearchParams, customer: string, mode: 'subscription' | 'payment'): Answer {
    const item = (name: string) => form.get(`line_items[0]${name}`)
    const currency = item('[price_data][currency]')
    const unitAmount = Number(item('[price_data][unit_amount]'))
    const interval = item('[price_data][recurring][interval]')
    const productName = item('[price_data][product_data][name]')
    if (!currency) return invalid('Missing required param: line_items[0][price_data][currency].', 'line_items[0][price_data][currency]')
    if (!Number.isInteger(unitAmount) || unitAmount < 50) return invalid('Amount must be at least $0.50 usd', 'line_items[0][price_data][unit_amount]')
    if (mode === 'subscription' && (!interval || !['day', 'week', 'month', 'year'].includes(interval))) return invalid('Invalid recurring interval', 'line_items[0][price_data][recurring][interval]')
    if (mode === 'payment' && interval !== null) return invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'mode')
    if (!productName) return invalid('Missing required param: line_items[0][price_data][product_data].', 'line_items[0][price_data][product_data]')
    if (item('[quantity]') !== '1') return invalid('Missing required param: line_items[0][quantity].', 'line_items[0][quantity]')
    const successUrl = form.get('success_url')
    if (successUrl !== null && !/^https?:\/\//.test(successUrl)) return invalid('Not a valid URL', 'success_url')
    const id = `cs_test_${token(24)}`
    const session: StripeCheckoutSession = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      url: `https://checkout.stripe.com/c/pay/${id}#${token(16)}`,
      customer,
      client_reference_id: form.get('client_reference_id'),
      success_url: successUrl,
      cancel_url: form.get('cancel_url'),
      locale: form.get('locale'),
      currency,
      payment_method_types: [...form].filter(([name]) => /^payment_method_types\[\d+\]$/.test(name)).map(([, value]) => value),
      payment_status: 'unpaid',
      setup_intent: null,
      subscription: null,
      payment_intent: null,
      line_item: { currency, unit_amount: unitAmount, interval, product_name: productName },
      metadata: metadataOf(form),
      created: now(),
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
    }
    subscriptionMetadata.set(id, metadataOf(form, mode === 'subscription' ? 'subscription_data[metadata]' : 'payment_intent_data[metadata]'))
    if (mode === 'payment') intentDescriptions.set(id, form.get('payment_intent_data[description]'))
    sessions.set(id, session)
    return ok(session)
  }
  const subscriptionMetadata = new Map<string, Record<string, string>>()
  const intentDescriptions = new Map<string, string | null>()

  /**
   * The member pays on the open payment-mode session's page (confirming with their bank when the
   * card asks: Checkout does that on-session): a succeeded PaymentIntent, a paid, complete session.
   * The card is not saved to the customer (no `setup_future_usage`).
   */
  function completePayment(sessionId: string, card: TestCard) {
    const session = openSession(sessionId)
    if (session.mode !== 'payment' || !session.line_item) throw new Error(`The Checkout Session ${sessionId} is not in payment mode`)
    const paymentMethod = newPaymentMethod(session.customer, card)
    paymentMethod.customer = null
    const intent: StripePaymentIntent = {
      id: `pi_${token(12)}`,
      object: 'payment_intent',
      amount: session.line_item.unit_amount,
      currency: session.line_item.currency,
      customer: session.customer,
      payment_method: paymentMethod.id,
      status: 'succeeded',
      description: intentDescriptions.get(sessionId) ?? null,
      metadata: subscriptionMetadata.get(sessionId) ?? {},
      latest_charge: `ch_${token(12)}`,
      last_payment_error: null,
      created: now(),
      livemode: false,
    }
    paymentIntents.set(intent.id, intent)
    session.status = 'complete'
    session.url = null
    session.payment_status = 'paid'
    session.payment_intent = intent.id
    return { session, paymentIntent: intent, paymentMethod }
  }

  function newPaymentMethod(customerId: string, card: TestCard) {
    const customer = customers.get(customerId)
    const paymentMethod: StripePaymentMethod = {
      id: `pm_${token(12)}`,
      object: 'payment_method',
      type: 'card',
      card: { brand: TEST_CARDS[card].brand, last4: TEST_CARDS[card].last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit', fingerprint: token(8) },
      customer: customerId,
      billing_details: { email: customer?.email ?? null, name: customer?.name ?? null },
      metadata: {},
      created: now(),
      livemode: false,
    }
    paymentMethods.set(paymentMethod.id, paymentMethod)
    cardOf.set(paymentMethod.id, card)
    return paymentMethod
  }

  function completeSubscription(sessionId: string, card: TestCard) {
    const session = openSession(sessionId)
    if (session.mode !== 'subscription' || !session.line_item) throw new Error(`The Checkout Session ${sessionId} is not in subscription mode`)
    const paymentMethod = newPaymentMethod(session.customer, card)
    const start = now()
    const end = new Date(start * 1000)
    if (session.line_item.interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
    else end.setUTCMonth(end.getUTCMonth() + 1)
    const subscription: StripeSubscription = {
      id: `sub_${token(12)}`,
      object: 'subscription',
      status: 'active',
      customer: session.customer,
      default_payment_method: paymentMethod.id,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      latest_invoice: null,
      items: {
        object: 'list',
        data: [
          {
            id: `si_${token(8)}`,
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: Math.floor(end.getTime() / 1000),
            price: { unit_amount: session.line_item.unit_amount, currency: session.line_item.currency, recurring: { interval: session.line_item.interval! } },
          },
        ],
      },
      metadata: subscriptionMetadata.get(sessionId) ?? {},
      created: start,
      livemode: false,
    }
    subscriptions.set(subscription.id, subscription)
    session.status = 'complete'
    session.url = null
    session.payment_status = 'paid'
    session.subscription = subscription.id
    return { session, subscription, paymentMethod }
  }

  function openSession(sessionId: string) {
    const session = sessions.get(sessionId)
    if (!session) throw new Error(`No Checkout Session ${sessionId}`)
    if (session.status !== 'open') throw new Error(`The Checkout Session ${sessionId} is ${session.status}`)
    return session
  }

  function completeSetup(sessionId: string, card: TestCard) {
    const session = openSession(sessionId)
    const customer = customers.get(session.customer)
    const paymentMethod: StripePaymentMethod = {
      id: `pm_${token(12)}`,
      object: 'payment_method',
      type: 'card',
      card: { brand: TEST_CARDS[card].brand, last4: TEST_CARDS[card].last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit', fingerprint: token(8) },
      customer: session.customer,
      billing_details: { email: customer?.email ?? null, name: customer?.name ?? null },
      metadata: {},
      created: now(),
      livemode: false,
    }
    paymentMethods.set(paymentMethod.id, paymentMethod)
    cardOf.set(paymentMethod.id, card)
    const setupIntent = setupIntents.get(session.setup_intent ?? '')
    if (!setupIntent) throw new Error(`The Checkout Session ${sessionId} is not in setup mode`)
    setupIntent.status = 'succeeded'
    setupIntent.payment_method = paymentMethod.id
    session.status = 'complete'
    session.url = null
    return { session, setupIntent, paymentMethod }
  }

  function expire(sessionId: string) {
    const session = openSession(sessionId)
    session.status = 'expired'
    session.url = null
    const setupIntent = setupIntents.get(session.setup_intent ?? '')
    if (setupIntent) setupIntent.status = 'canceled'
    return session
  }

  function liveSubscription(subscriptionId: string) {
    const subscription = subscriptions.get(subscriptionId)
    if (!subscription) throw new Error(`No Subscription ${subscriptionId}`)
    if (subscription.status === 'canceled') throw new Error(`The Subscription ${subscriptionId} is canceled`)
    return subscription
  }

  function renewSubscription(subscriptionId: string) {
    const subscription = liveSubscription(subscriptionId)
    const item = subscription.items.data[0]!
    const start = item.current_period_end
    const end = new Date(start * 1000)
    if (item.price.recurring.interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
    else end.setUTCMonth(end.getUTCMonth() + 1)
    item.current_period_start = start
    item.current_period_end = Math.floor(end.getTime() / 1000)
    const paid = TEST_CARDS[cardOf.get(subscription.default_payment_method)!].charge === 'succeeds'
    const invoice: StripeInvoice = {
      id: `in_${token(12)}`,
      object: 'invoice',
      customer: subscription.customer,
      status: paid ? 'paid' : 'open',
      billing_reason: 'subscription_cycle',
      amount_due: item.price.unit_amount,
      amount_paid: paid ? item.price.unit_amount : 0,
      currency: item.price.currency,
      attempt_count: 1,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } } },
      period_start: start,
      period_end: item.current_period_end,
      created: now(),
      livemode: false,
    }
    invoices.set(invoice.id, invoice)
    subscription.latest_invoice = invoice.id
    subscription.status = paid ? 'active' : 'past_due'
    return {
      subscription,
      invoice,
      events: [event('customer.subscription.updated', subscription), event(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice)],
    }
  }

  function deleteSubscription(subscriptionId: string) {
    const subscription = liveSubscription(subscriptionId)
    subscription.status = 'canceled'
    subscription.canceled_at = now()
    subscription.ended_at = now()
    return { subscription, events: [event('customer.subscription.deleted', subscription)] }
  }

  function updateCardByNetwork(paymentMethodId: string, card: { exp_month: number; exp_year: number; last4?: string }) {
    const paymentMethod = paymentMethods.get(paymentMethodId)
    if (!paymentMethod) throw new Error(`No PaymentMethod ${paymentMethodId}`)
    Object.assign(paymentMethod.card, card)
    return { paymentMethod, events: [event('payment_method.automatically_updated', paymentMethod)] }
  }

  function event(type: string, object: { id: string; object: string }, eventOptions: { secret?: string; at?: Date } = {}) {
    const at = eventOptions.at ?? new Date()
    const payload = JSON.stringify({
      id: `evt_${token(12)}`,
      object: 'event',
      api_version: '2024-06-20',
      created: Math.floor(at.getTime() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    })
    return { payload, signature: signStripePayload(payload, eventOptions.secret ?? options.webhookSecret, at) }
  }

  return { handlers, customers, sessions, setupIntents, paymentMethods, paymentIntents, subscriptions, invoices, refunds, requests, completeSetup, completeSubscription, completePayment, expire, renewSubscription, deleteSubscription, updateCardByNetwork, event }
}
