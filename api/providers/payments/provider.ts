import type { CardBrand } from '../../db/schema.ts'

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
   * Starts a hosted payment page for a yearly subscription (premium, decision 074): the member
   * types a card, it is charged `amountCents` now and saved for the renewals (Stripe: Checkout in
   * `mode=subscription`; built in: `/checkout/{id}` in payment mode, renewed by our own job).
   */
  startSubscriptionCheckout(input: SubscriptionCheckoutStart): Promise<{ ref: string; url: string }>
  /** Where a subscription checkout stands; `complete` with the card, the provider's subscription and the period paid for. */
  readSubscriptionCheckout(ref: string): Promise<SubscriptionCheckoutOutcome>
  /** Stops the renewals at the end of the period paid for (Stripe: `cancel_at_period_end=true`); built in: nothing to tell. */
  cancelSubscriptionAtPeriodEnd(subscriptionRef: string): Promise<void>
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
