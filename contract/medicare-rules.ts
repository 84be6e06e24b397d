import { coverageTypes, type CoverageType } from './enums.ts'

/**
 * Permission to be called about Medicare plans by one named, licensed insurance agency (spec §3
 * "Medicare registration", issue 33 §2, decision 086), without zod: the pages load only these
 * words and rules, not the schemas in `medicare.ts`.
 */

/** The topics a member may want to talk about (spec §3's coverage types), in the order the form lists them. */
export const medicareTopics = coverageTypes
export type MedicareTopic = CoverageType

/**
 * The version of the words the member agrees to (`medicare:disclosure.<version>.*` in every
 * language). The words are stored with each consent exactly as shown; changing the English words
 * means a new version key beside the old one and this constant moved to it (medicare.test.ts pins
 * the English words of each version by their hash, so a silent change fails).
 */
export const MEDICARE_CONSENT_VERSION = '2026-05-1'

/** How a consent was given: the web form (its box ticked, then the button), or another API client. */
export const medicareConsentMethods = ['web_form', 'api'] as const
export type MedicareConsentMethod = (typeof medicareConsentMethods)[number]

/**
 * How a consent ended (decision 086): the member's own "Stop these calls" (or the API's DELETE),
 * a STOP texted from the consent's phone number, or the account deleted.
 */
export const medicareRevocationMethods = ['member', 'sms_stop', 'account_deleted'] as const
export type MedicareRevocationMethod = (typeof medicareRevocationMethods)[number]

/** Limits of the agency's details as the team types them. */
export const medicarePartnerLimits = {
  name: 120,
  license: 500,
  disclaimer: 2000,
  /** Business days within which the agency calls. */
  callbackDays: { min: 1, max: 10 },
  count: { min: 1, max: 9999 },
} as const

/** The page a consent was given on, as the web app sends it (a path of the site). */
export const medicarePagePattern = /^\/[\w\-/]{0,199}$/
