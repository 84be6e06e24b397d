import { z } from 'zod'
import { cardBrands } from './enums.ts'

/**
 * Payment cards (spec §1, §3 "Payment method", §7 `v1/payment-methods…`, issue 31 §2,
 * decision 073). A card is only ever its brand, last four digits and expiry: its number and CVC
 * go to the provider's hosted card page, never through this API.
 */

/** The card brands of spec §3 with a logo, and `unknown` for the rest (shown as "Card"). */
export const paymentCardBrands = [...cardBrands, 'unknown'] as const
export type PaymentCardBrand = (typeof paymentCardBrands)[number]

export const paymentMethodSchema = z
  .object({
    id: z.uuid(),
    brand: z.enum(paymentCardBrands),
    last4: z.string().regex(/^\d{4}$/),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int(),
    is_default: z.boolean().meta({ description: 'The card fees and the subscription are charged to.' }),
    is_expired: z.boolean().meta({ description: 'Its expiry month has passed (in US Eastern time): it cannot be charged.' }),
  })
  .meta({ id: 'PaymentMethod' })
export type PaymentMethod = z.infer<typeof paymentMethodSchema>

/** `POST v1/payment-methods/setup` and `GET v1/payment-methods/setup/{id}`: adding a card through the provider's hosted page. */
export const cardSetupSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['open', 'complete', 'expired']).meta({
      description: '`open`: the member has not finished on the hosted page (a declined card leaves it open); `complete`: the card is saved; `expired`: start again.',
    }),
    redirect_url: z.string().meta({ description: 'The hosted card page to send the member to (built in: `/checkout/{id}`; Stripe: Checkout).' }),
    payment_method: paymentMethodSchema.nullable().meta({ description: 'The card saved, once `complete`.' }),
  })
  .meta({ id: 'CardSetup' })
export type CardSetup = z.infer<typeof cardSetupSchema>

/** `POST v1/payment-methods/setup`: where the hosted page sends the member back (a path of the web app). */
export const startCardSetupBodySchema = z
  .object({
    return_path: z
      .string()
      .regex(/^\/(?!\/)[^\s]*$/, 'return_path_invalid')
      .max(500, 'return_path_invalid')
      .optional()
      .meta({ description: 'A path of the web app (default `/account/payments`); `?setup={id}` is added on return, `?setup={id}&canceled=1` when the member gave up.' }),
  })
  .meta({ id: 'StartCardSetup' })

/** `POST v1/payment-methods/default?id=`: the card to make the default. */
export const defaultCardQuerySchema = z.object({ id: z.uuid({ error: 'id_invalid' }) })

// The built-in hosted card page (decision 073): only while no Stripe keys are set --------------

/** Stripe's documented test cards the built-in bank knows (https://docs.stripe.com/testing). */
export const builtinTestCards = {
  '4242424242424242': 'visa',
  '4000056655665556': 'visa',
  '5555555555554444': 'mastercard',
  '2223003122003222': 'mastercard',
  '378282246310005': 'amex',
  '6011111111111117': 'discover',
  '4000000000000002': 'visa',
  '4000000000009995': 'visa',
  '4000000000000341': 'visa',
  '4000002760003184': 'visa',
  '4000002500003155': 'visa',
} as const satisfies Record<string, PaymentCardBrand>

/** `GET v1/payments/checkout/{id}`: what the built-in hosted card page shows. */
export const builtinCheckoutSchema = z
  .object({
    id: z.string().meta({ description: 'The session’s id (`cs_builtin_…`).' }),
    status: z.enum(['open', 'requires_authentication', 'complete', 'expired']),
    /** The card waiting for the bank's confirmation, while `requires_authentication`. */
    pending_card: z.object({ brand: z.enum(paymentCardBrands), last4: z.string() }).nullable(),
    return_url: z.string(),
    cancel_url: z.string(),
    mode: z.enum(['setup', 'payment']).meta({ description: '`setup` saves a card; `payment` also charges `amount_cents` (decision 074).' }),
    amount_cents: z.number().int().nullable().meta({ description: 'In payment mode: what is charged now.' }),
    recurring_interval: z.string().nullable().meta({ description: 'In payment mode: `year` when it renews each year (premium membership).' }),
    description: z.string().nullable().meta({ description: 'In payment mode: what the payment is for, as on the receipt.' }),
  })
  .meta({ id: 'BuiltinCheckout' })
export type BuiltinCheckout = z.infer<typeof builtinCheckoutSchema>

/** `POST v1/payments/checkout/{id}/card`: the card typed on the built-in hosted page. */
export const builtinCardBodySchema = z
  .object({
    number: z.string({ error: 'card_number_required' }).trim().min(1, 'card_number_required').max(40, 'card_number_invalid'),
    expiry: z.string({ error: 'card_expiry_required' }).trim().min(1, 'card_expiry_required').max(10, 'card_expiry_invalid'),
    cvc: z.string({ error: 'card_cvc_required' }).trim().min(1, 'card_cvc_required').max(8, 'card_cvc_invalid'),
    postal_code: z.string({ error: 'postal_code_required' }).trim().min(1, 'postal_code_required').max(10, 'postal_code_invalid'),
  })
  .meta({ id: 'BuiltinCard' })
export type BuiltinCardBody = z.infer<typeof builtinCardBodySchema>

/** `POST v1/payments/checkout/{id}/authentication`: the member's answer on the bank's confirmation step. */
export const builtinAuthenticationBodySchema = z.object({ outcome: z.enum(['confirm', 'fail'], { error: 'outcome_invalid' }) }).meta({ id: 'BuiltinAuthentication' })
