import { z } from 'zod'
import { paymentCardBrands } from './payments.ts'

/**
 * Premium membership and the partner offer (spec §1, §3 "Partnership", §7 `v1/subscriptions/…`,
 * §9 "$0 per year, formerly $20 per year"; issue 31 §4; decision 074).
 */

/** The paid plan's price: $20 per year, renewing each year until the member cancels. */
export const PREMIUM_PRICE_CENTS = 2000
/** The version of the auto-renewal terms shown above "Join premium"; a new wording is a new version. */
export const PREMIUM_TERMS_VERSION = '2026-11-premium-yearly-1'
/** How long premium stays on while a renewal is unpaid (`past_due`). */
export const PREMIUM_GRACE_DAYS = 14

/** Whole dollars for a price in cents ("$20"); cents only when there are some. */
export function dollars(cents: number) {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`
}

/** A US state code (`OR`) or a ZIP code (`97201`), as a partnership's regions hold them. */
export const regionCodePattern = /^(?:[A-Z]{2}|\d{5})$/

/** `GET v1/subscriptions/partnerships`: an offer the caller is eligible for (the first is the partnership). */
export const partnershipSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    price_cents: z
      .number()
      .int()
      .meta({ description: 'What the member pays per year (0: paid for by the partner).' }),
    regular_price_cents: z
      .number()
      .int()
      .meta({ description: 'The regular yearly price of premium.' }),
  })
  .meta({ id: 'Partnership' })
export type Partnership = z.infer<typeof partnershipSchema>

/** The admin's view of a partnership. */
export const adminPartnershipSchema = partnershipSchema
  .extend({
    regions: z
      .array(z.string())
      .meta({
        description: 'US state codes (`OR`) and ZIP codes (`97201`) where members are eligible.',
      }),
    active: z.boolean(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'AdminPartnership' })
export type AdminPartnership = z.infer<typeof adminPartnershipSchema>

/** `POST v1/admin/partnerships`, `PUT v1/admin/partnerships/{id}`: name, regions, active. */
export const partnershipBodySchema = z
  .object({
    name: z
      .string({ error: 'name_required' })
      .trim()
      .min(1, 'name_required')
      .max(100, 'name_too_long'),
    regions: z
      .array(z.string().trim().toUpperCase().regex(regionCodePattern, 'regions_invalid'), {
        error: 'regions_required',
      })
      .min(1, 'regions_required')
      .max(100, 'regions_over_limit'),
    active: z.boolean({ error: 'active_invalid' }),
  })
  .meta({ id: 'PartnershipBody' })
export type PartnershipBody = z.infer<typeof partnershipBodySchema>

/** `GET v1/subscriptions/me`: the caller's premium membership. */
export const subscriptionSchema = z
  .object({
    id: z.uuid(),
    plan: z.literal('premium'),
    status: z.enum(['incomplete', 'active', 'past_due', 'canceled']),
    price_cents: z.number().int().meta({ description: 'The yearly price (0 for a partner plan).' }),
    interval: z.literal('year'),
    current_period_end: z.iso
      .datetime({ offset: true })
      .nullable()
      .meta({ description: 'The renewal date of a paid plan; the end date once cancelled.' }),
    cancel_at_period_end: z
      .boolean()
      .meta({
        description: 'Cancelled: it ends on `current_period_end` and nothing more is charged.',
      }),
    canceled_at: z.iso.datetime({ offset: true }).nullable(),
    card: z
      .object({
        brand: z.enum(paymentCardBrands),
        last4: z.string(),
        exp_month: z.number().int(),
        exp_year: z.number().int(),
      })
      .nullable()
      .meta({ description: 'The card a paid plan renews on.' }),
    partnership: z
      .object({ id: z.uuid(), name: z.string() })
      .nullable()
      .meta({ description: 'The partner paying for a $0 plan.' }),
  })
  .meta({ id: 'Subscription' })
export type Subscription = z.infer<typeof subscriptionSchema>

/** `POST v1/subscriptions/initiate`. */
export const initiateSubscriptionBodySchema = z
  .object({
    partnership_id: z
      .uuid({ error: 'partnership_invalid' })
      .optional()
      .meta({
        description: 'An eligible partnership: premium at its price ($0: at once, no card).',
      }),
    consent_to_renewal: z
      .boolean({ error: 'consent_invalid' })
      .optional()
      .meta({
        description:
          'The paid plan: the member ticked that it renews each year until they cancel (required, true).',
      }),
    consent_text_version: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'The paid plan: `PREMIUM_TERMS_VERSION` of the terms shown.' }),
    consent_text: z
      .string()
      .max(2000)
      .optional()
      .meta({
        description:
          'The paid plan: the exact terms shown above the button, recorded with the consent.',
      }),
    locale: z.enum(['en', 'fr', 'nl']).optional(),
    return_path: z
      .string()
      .regex(/^\/(?!\/)[^\s]*$/, 'return_path_invalid')
      .max(500, 'return_path_invalid')
      .optional()
      .meta({
        description:
          'A path of the web app (default `/account/subscription`); `?checkout={id}` is added on return, `&canceled=1` when the member gave up.',
      }),
  })
  .meta({ id: 'InitiateSubscription' })
export type InitiateSubscriptionBody = z.infer<typeof initiateSubscriptionBodySchema>

export const initiatedSubscriptionSchema = z
  .object({
    subscription: subscriptionSchema,
    redirect_url: z
      .string()
      .nullable()
      .meta({
        description:
          'The paid plan: the provider’s hosted payment page to send the member to; null when premium is already active.',
      }),
  })
  .meta({ id: 'InitiatedSubscription' })
export type InitiatedSubscription = z.infer<typeof initiatedSubscriptionSchema>
