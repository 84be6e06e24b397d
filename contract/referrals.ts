import { z } from 'zod'
import { maxEmailLength } from './limits.ts'
import { referralCodePattern } from './referral-code.ts'

/**
 * Referrals (issue 33 §1, decision 087): each member's invite link and what came of it, the
 * referral banner's first name, "Invite a friend" from an activity, and what a new account brings
 * with it at sign-up (the invite it followed, its campaign). The zod-free rules (the code's
 * format, the campaign cookie's values) are in `referral-code.ts`, for the browser.
 */

/** `GET v1/users/me/referrals`: the caller's invite link and how it went. */
export const referralSummarySchema = z
  .object({
    code: z
      .string()
      .meta({
        description:
          'The invite code: 8 letters and digits, read aloud easily (no 0, O, 1, I or L).',
      }),
    link: z.string().meta({ description: 'The invite link at the public site (`/i/{code}`).' }),
    show_first_name: z
      .boolean()
      .meta({
        description:
          'Whether the referral banner names the caller (first name only) to the people they invite.',
      }),
    clicks: z.number().int().min(0).meta({ description: 'How often the link was opened.' }),
    joined: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'How many people made an account after following it.' }),
    attended: z
      .number()
      .int()
      .min(0)
      .meta({
        description:
          'How many of them came to a first activity (marked present by its host): what counts.',
      }),
    incentive: z.string().nullable().meta({
      description:
        'What the caller gets for a friend who counts, in their language; null: nothing (today). When set, every share text says so (FTC Endorsement Guides).',
    }),
  })
  .meta({ id: 'ReferralSummary' })
export type ReferralSummary = z.infer<typeof referralSummarySchema>

/** `PUT v1/users/me/referrals`: the caller's choice. */
export const referralSettingsSchema = z
  .object({ show_first_name: z.boolean({ error: 'show_first_name_invalid' }) })
  .meta({ id: 'ReferralSettings' })
export type ReferralSettings = z.infer<typeof referralSettingsSchema>

/** `GET v1/referrals/{code}`: what the referral banner may say of whoever shared the link. */
export const referralBannerSchema = z
  .object({
    first_name: z
      .string()
      .nullable()
      .meta({
        description:
          'The first name, only if they allowed it; null: say "a friend". Nothing else of them is ever given.',
      }),
  })
  .meta({ id: 'ReferralBanner' })
export type ReferralBanner = z.infer<typeof referralBannerSchema>

/** An opaque first-party value the web app keeps for the browser or reads from the request (never stored as given). */
const opaque = z.string().trim().min(1).max(100)
/** A campaign value as the sign-up cookie keeps it (already cleaned by the web). */
const campaignValue = z.string().trim().max(100).nullable().optional()

/**
 * `POST v1/users/me/attribution`: sent by the web app when a member signs in. Every time: the
 * browser and internet address it came from (kept as keyed hashes, to tell a second account of a
 * referrer's own). Once, within a day of the account being made: the invite it followed and the
 * campaign it came from.
 */
export const attributionSchema = z
  .object({
    device: opaque
      .optional()
      .meta({ description: 'The browser’s first-party device id (a random value).' }),
    address: opaque
      .optional()
      .meta({ description: 'The internet address the member signed in from.' }),
    referral_code: z.string().trim().regex(referralCodePattern, 'referral_code_invalid').optional(),
    experience_id: z
      .uuid({ error: 'experience_id_invalid' })
      .optional()
      .meta({ description: 'The activity the invite was for.' }),
    utm_source: campaignValue,
    utm_medium: campaignValue,
    utm_campaign: campaignValue,
  })
  .meta({ id: 'Attribution' })
export type Attribution = z.infer<typeof attributionSchema>

export const attributionResultSchema = z
  .object({
    sign_up: z
      .boolean()
      .meta({ description: 'The account was new: its invite and campaign were recorded (once).' }),
  })
  .meta({ id: 'AttributionResult' })
export type AttributionResult = z.infer<typeof attributionResultSchema>

/** `POST v1/experiences/{id}/invite-friend`: one address, as typed. */
export const inviteFriendSchema = z
  .object({
    email: z
      .string({ error: 'email_required' })
      .trim()
      .min(1, 'email_required')
      .max(maxEmailLength, 'email_invalid')
      .pipe(z.email({ error: 'email_invalid' }))
      .meta({ description: 'The friend’s address (email_required, email_invalid).' }),
  })
  .meta({ id: 'InviteFriend' })
export type InviteFriend = z.infer<typeof inviteFriendSchema>

/** The same answer whether or not the address belongs to a member (decision 066). */
export const inviteFriendResultSchema = z
  .object({
    email: z
      .string()
      .meta({
        description:
          'The address, as it was invited: a member there gets an invitation to the activity, anyone else an invitation to join Circle 55 and come to it. Once per address, activity and inviter; which it was is not said.',
      }),
  })
  .meta({ id: 'InviteFriendResult' })
export type InviteFriendResult = z.infer<typeof inviteFriendResultSchema>
