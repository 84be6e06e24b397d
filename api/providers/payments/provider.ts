import type { CardBrand, SubscriptionStatus } from '../../db/schema.ts'

/**
 * Payments (ARCHITECTURE §4 "Payments", issue 31, decision 073): a card vault and a hosted card
 * page, behind one interface.
 * - built in (builtin.ts, the default): a vault in PostgreSQL holding only a token, the brand, the
 *   last four digits and the expiry; our own hosted card page (`/checkout/{id}`) standing in for
 *   Stripe Checkout; a deterministic bank that follows Stripe's documented test cards.
 * - Stripe (stripe.ts) when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set: Checkout in
 *   setup mode, off-session PaymentIntents, signed webhooks, over REST with `fetch`.
 * The payments module (`api/payments/`) keeps the member's cards (`payment_methods`) as its own
 * record and asks the provider only for what the provider holds.
 */
export interface PaymentsProvider {
  name: 'builtin' | 'stripe'
  /**
   * The member's customer at the provider, created once: `existing` when the member already has
   * one (answered as is), else a new one (Stripe: a Customer with the member's id in its metadata).
   */
  ensureCustomer(member: { id: string; email: string; name: string }, existing: string | null): Promise<string>
  /**
   * Starts a hosted card page in setup mode for `customer`: answers the provider's id of the
   * session and the page to send the member to. The provider sends them back to `successUrl`
   * (which may hold `{CHECKOUT_SESSION_ID}`) or, when they give up, to `cancelUrl`.
   */
  startCardSetup(input: { customer: string; userId: string; successUrl: string; cancelUrl: string; locale: string }): Promise<{ ref: string; url: string }>
  /** Where a setup session stands; `complete` with the card it saved. */
  readCardSetup(ref: string): Promise<CardSetupOutcome>
  /** Makes the card the one the provider charges by default (Stripe: the customer's `invoice_settings.default_payment_method`). */
  setDefaultCard(customer: string, cardRef: string): Promise<void>
  /** Forgets the card at the provider (Stripe: detaches the PaymentMethod). A card already gone is not an error. */
  detachCard(cardRef: string): Promise<void>
  /**
   * Charges a saved card with the member absent (off-session). The same `idempotencyKey` never
   * charges twice: a second call answers the first call's outcome.
   */
  chargeOffSession(input: OffSessionCharge): Promise<ChargeOutcome>
  /**
   * Starts a hosted page where the member pays a one-off amount while present (on-session): a
   * no-show fee the bank wanted them to confirm, or refused off-session. Stripe: Checkout in
   * `mode=payment`; built in: `/checkout/{id}` in payment mode.
   */
  startPaymentCheckout(input: PaymentCheckoutStart): Promise<{ ref: string; url: string }>
  /** Where a one-off payment's page stands; `complete` with the provider's payment (Stripe: its PaymentIntent). */
  readPaymentCheckout(ref: string): Promise<PaymentCheckoutOutcome>
  /**
   * Gives back `amountCents` of a payment (Stripe: a Refund of its PaymentIntent). The same
   * `idempotencyKey` never refunds twice; a refund the provider refuses throws PaymentsVendorError.
   */
  refund(input: RefundRequest): Promise<{ ref: string }>
  /**
   * Starts a hosted payment page for a yearly subscription (premium, decision 074): the member
   * types a card, it is charged `amountCents` now and saved for the renewals (Stripe: Checkout in
   * `mode=subscription`; built in: `/checkout/{id}` in payment mode, renewed by our own job).
   */
  startSubscriptionCheckout(input: SubscriptionCheckoutStart): Promise<{ ref: string; url: string }>
  /** Where a subscription checkout stands; `complete` with the card, the provider's subscription and the period paid for. */
  readSubscriptionCheckout(ref: string): Promise<SubscriptionCheckoutOutcome>
  /** Stops the renewals at the end of the period paid for (Stripe: `cancel_at_period_end=true`); built in: nothing to tell. */
  cancelSubscriptionAtPeriodEnd(subscriptionRef: string): Promise<void>
  /**
   * Ends a subscription at once (Stripe: `DELETE /v1/subscriptions/{id}`, which also stops collecting
   * its open invoice): a past-due plan the member cancels has no paid period left to run to.
   * Built in: nothing to tell.
   */
  endSubscriptionNow(subscriptionRef: string): Promise<void>
  /** The card a subscription renews on (Stripe: its `default_payment_method`, used before the customer's); built in: nothing to tell. */
  setSubscriptionCard(subscriptionRef: string, cardRef: string): Promise<void>
  /**
   * Where a subscription stands at the provider now, for our record to follow it (decision 076);
   * null when the provider holds no such subscription. Stripe: `GET /v1/subscriptions/{id}` with
   * its card. Built in: always null, since the built-in provider keeps no subscription of its own
   * (our `subscriptions` row is the only record, and our renewal job moves it).
   */
  readSubscription(subscriptionRef: string): Promise<ProviderSubscription | null>
  /** A saved card as the provider holds it now (a card network may have changed its expiry or number); null when it has none by that id. */
  readCard(cardRef: string): Promise<SavedCard | null>
  /** Stripe only: the event of a webhook request whose `Stripe-Signature` is valid; throws `InvalidSignatureError` otherwise. */
  parseWebhook?(payload: string, signatureHeader: string | undefined, now?: Date): PaymentEvent
}

/** A card as the provider holds it: never its number or CVC. */
export interface SavedCard {
  /** The provider's id of the card (Stripe: `pm_…`; built in: `card_…`). */
  ref: string
  brand: CardBrand
  last4: string
  exp_month: number
  exp_year: number
  /** Forgotten at the provider since it was saved (a detach read before its event arrived). */
  detached?: boolean
}

export type CardSetupOutcome =
  | { status: 'complete'; card: SavedCard }
  /** The member has not finished (a declined card leaves it open: they may try another). */
  | { status: 'open' }
  | { status: 'expired' }

export interface OffSessionCharge {
  customer: string
  cardRef: string
  /** In cents, US dollars. */
  amountCents: number
  idempotencyKey: string
  /** On the member's statement and receipt. */
  description: string
  metadata: Record<string, string>
}

export type ChargeOutcome =
  | { status: 'succeeded'; ref: string }
  /** The bank wants the member to confirm it (3-D Secure): they must come back on-session. */
  | { status: 'requires_authentication'; ref: string }
  /** Refused: `code` is the decline code (`card_declined`, `insufficient_funds`, `expired_card`, …). */
  | { status: 'declined'; ref: string | null; code: string }

/** A webhook event (only the fields we read); the object is re-read from the API before it is applied. */
export interface PaymentEvent {
  id: string
  type: string
  created: number
  data: { object: { id: string; object: string; [key: string]: unknown } }
}

/** The provider answered with an error, or could not be reached. */
export class PaymentsVendorError extends Error {
  override name = 'PaymentsVendorError'
}

export interface SubscriptionCheckoutStart {
  customer: string
  userId: string
  /** Per interval, in cents, US dollars. */
  amountCents: number
  interval: 'year'
  /** What it is for (Stripe: the product's name on the page and the receipt). */
  description: string
  /** Back to us; may hold `{CHECKOUT_SESSION_ID}`. */
  successUrl: string
  cancelUrl: string
  locale: string
  metadata: Record<string, string>
}

/** A subscription as the provider holds it (decision 076). */
export interface ProviderSubscription {
  ref: string
  /**
   * Its status as `subscriptions.status` holds it. Stripe's `active` and `trialing` are `active`;
   * `past_due`, `unpaid` (its retries are over, the invoice stays open) and `paused` (nothing is
   * charged) are `past_due`; `canceled` and `incomplete_expired` are `canceled`; `incomplete` is
   * `incomplete`.
   */
  status: SubscriptionStatus
  /** The provider's own word for it (Stripe: `unpaid`, `trialing`, …), for the logs. */
  providerStatus: string
  /** The provider's current period. Stripe moves it on when the renewal's invoice is made, paid or not. */
  periodStart: Date
  periodEnd: Date
  /** It ends at `periodEnd` and is not renewed. */
  cancelAtPeriodEnd: boolean
  /** When it was cancelled, or asked to end at its period end (Stripe: `canceled_at`); null otherwise. */
  canceledAt: Date | null
  /** The card it renews on; null when it names none (Stripe then charges the customer's default). */
  card: SavedCard | null
}

export type SubscriptionCheckoutOutcome =
  | {
      status: 'complete'
      card: SavedCard
      /** The provider's subscription (Stripe: `sub_…`; built in: the checkout's own id, renewed by our job). */
      subscriptionRef: string
      periodStart: Date
      periodEnd: Date
    }
  /** The member has not paid yet (a declined card leaves it open: they may try another). */
  | { status: 'open' }
  | { status: 'expired' }

/** A one-off payment on a hosted page: as a subscription's first payment, without the renewals. */
export type PaymentCheckoutStart = Omit<SubscriptionCheckoutStart, 'interval'>

export type PaymentCheckoutOutcome =
  /** Paid: `paymentRef` is the provider's payment (Stripe: `pi_…`), the one a refund names; the card paid with, for the receipt. */
  | { status: 'complete'; paymentRef: string; card: Pick<SavedCard, 'brand' | 'last4'> | null }
  /** The member has not paid yet (a declined card leaves it open: they may try another). */
  | { status: 'open' }
  | { status: 'expired' }

export interface RefundRequest {
  /** The provider's payment to refund (Stripe: `pi_…`). */
  paymentRef: string
  /** In cents, US dollars; at most what was paid. */
  amountCents: number
  idempotencyKey: string
  metadata: Record<string, string>
}
