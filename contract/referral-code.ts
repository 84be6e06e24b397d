/**
 * The zod-free rules of referrals (decision 087), shared by the API, the web server and the
 * browser: the invite code's alphabet and how a typed code is read, and what the sign-up cookie
 * may keep of a campaign's parameters.
 */
import type { keptQueryParameters } from './campaign-parameters.ts'

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand (no 0/O, 1/I/L). */
export const referralCodeAlphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
export const referralCodeLength = 8
export const referralCodePattern = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/

/** A code as someone typed or copied it ("abcd-2345", "ABCD 2345") in its stored form, or null when it cannot be one. */
export function normalizeReferralCode(input: string | null | undefined): string | null {
  if (!input) return null
  const code = input.toUpperCase().replace(/[\s-]/g, '')
  return referralCodePattern.test(code) ? code : null
}

/** How the code is shown to people: two groups of four ("ABCD-2345"). */
export function displayReferralCode(code: string) {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/** The campaign parameters the sign-up cookie keeps (spec §5): these three of those analytics keeps, nothing else. */
export const signupCampaignKeys = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const satisfies readonly (typeof keptQueryParameters)[number][]
export type SignupCampaignKey = (typeof signupCampaignKeys)[number]
export type SignupCampaign = Partial<Record<SignupCampaignKey, string>>

/** A campaign value is at most this long once cleaned. */
export const campaignValueMaxLength = 100

/** Something that looks like an email address: never kept (UTM values are public, research §3). */
const looksLikeEmail = /[^\s@]+@[^\s@]+\.[^\s@]+/

/**
 * One campaign value as the cookie may keep it, or null: letters, digits and `-_.+ ` only (other
 * characters dropped), trimmed, at most 100 characters; a value that looks like an email address
 * is dropped whole, since campaign links must not carry who they were sent to.
 */
export function cleanCampaignValue(value: string | null | undefined): string | null {
  if (!value) return null
  if (looksLikeEmail.test(value) || value.includes('@')) return null
  const cleaned = value
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}\-_.+ ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, campaignValueMaxLength)
    .trim()
  return cleaned || null
}

/** The allow-listed, cleaned campaign parameters of a URL's query; null when it has none worth keeping. */
export function campaignFromQuery(params: URLSearchParams): SignupCampaign | null {
  const campaign: SignupCampaign = {}
  for (const key of signupCampaignKeys) {
    const value = cleanCampaignValue(params.get(key))
    if (value) campaign[key] = value
  }
  return Object.keys(campaign).length > 0 ? campaign : null
}

/** "Invite a friend": addresses one member may invite in a day, across all activities (decision 087). */
export const maxFriendInvitationsPerDay = 20
