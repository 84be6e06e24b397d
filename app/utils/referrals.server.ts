import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { analyticsMode, privacySignals, type AnalyticsConsent } from '#contract/analytics.ts'
import {
  campaignFromQuery,
  normalizeReferralCode,
  signupCampaignKeys,
  type SignupCampaign,
} from '#contract/referral-code.ts'
import type { Api } from './api/clients.server.ts'
import { siteCookie } from './cookies.server.ts'

/**
 * The web's side of referrals and sign-up attribution (decision 087): three first-party cookies,
 * HttpOnly, SameSite=Lax, Secure on https (`siteCookie`), and what the first sign-in sends the API.
 * - `ref`: the invite the visitor followed (`/i/{code}`, with its activity), 30 days.
 * - `device`: a random id of the browser, to tell a referrer's own second account (never shared,
 *   never used for anything else), set by the invite link and at sign-in.
 * - `utm`: the campaign of the visit (spec §5, §9: `utm_source`, `utm_medium`, `utm_campaign`,
 *   cleaned, 12 hours), set only where analytics may record the visitor (decision 081: not in
 *   French or Dutch without consent, never with GPC or DNT), copied onto the new account at
 *   sign-up, then cleared.
 */

/** Spec §9: the sign-up tracking cookie lives 43200 seconds. */
export const campaignCookieMaxAge = 43_200
const referralCookieMaxAge = 30 * 24 * 60 * 60
const deviceCookieMaxAge = 2 * 365 * 24 * 60 * 60

const referralCookie = (context: AppLoadContext) => siteCookie(context, 'ref', referralCookieMaxAge)
const deviceCookie = (context: AppLoadContext) => siteCookie(context, 'device', deviceCookieMaxAge)
const campaignCookieOf = (context: AppLoadContext) =>
  siteCookie(context, 'utm', campaignCookieMaxAge)

/** The invite a visitor followed: the code, and the activity it was for. */
export interface FollowedInvite {
  code: string
  activity: string | null
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The activity id an invite link carries, if it is one. */
export function inviteActivity(value: string | null) {
  return value && uuidPattern.test(value) ? value.toLowerCase() : null
}

export async function followedInvite(
  request: Request,
  context: AppLoadContext,
): Promise<FollowedInvite | null> {
  const value: unknown = await referralCookie(context).parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object') return null
  const { code, activity } = value as Record<string, unknown>
  const normalized = normalizeReferralCode(typeof code === 'string' ? code : null)
  return normalized
    ? { code: normalized, activity: inviteActivity(typeof activity === 'string' ? activity : null) }
    : null
}

export function keepInvite(context: AppLoadContext, invite: FollowedInvite) {
  return referralCookie(context).serialize(invite)
}

/** The browser's device id, and the cookie to set when it had none. */
export async function deviceOf(
  request: Request,
  context: AppLoadContext,
): Promise<{ id: string; setCookie: string | null }> {
  const cookie = deviceCookie(context)
  const value: unknown = await cookie.parse(request.headers.get('Cookie'))
  if (typeof value === 'string' && /^[\w-]{16,64}$/.test(value))
    return { id: value, setCookie: null }
  const id = randomBytes(18).toString('base64url')
  return { id, setCookie: await cookie.serialize(id) }
}

/**
 * The sign-up tracking cookie for this document, or null: a visitor who is not signed in, arriving
 * with campaign parameters, whom analytics may record (consent where it is asked; never with GPC
 * or DNT); `choice` is the visitor's consent answer, if any.
 */
export async function campaignCookie(
  request: Request,
  context: AppLoadContext,
  visit: {
    language: string
    choice: AnalyticsConsent | null
    signedIn: boolean
    impersonating: boolean
  },
) {
  if (request.method !== 'GET' || visit.signedIn || visit.impersonating) return null
  const campaign = campaignFromQuery(new URL(request.url).searchParams)
  if (!campaign) return null
  if (
    analyticsMode({
      signals: privacySignals(request.headers),
      choice: visit.choice,
      language: visit.language,
    }) !== 'full'
  )
    return null
  return campaignCookieOf(context).serialize(campaign)
}

async function keptCampaign(request: Request, context: AppLoadContext): Promise<SignupCampaign> {
  const value: unknown = await campaignCookieOf(context).parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object') return {}
  const kept: SignupCampaign = {}
  for (const key of signupCampaignKeys) {
    const item = (value as Record<string, unknown>)[key]
    if (typeof item === 'string') kept[key] = item
  }
  return kept
}

/**
 * At sign-in (`/login-success`): tells the API the browser and address the member came from, and
 * for a new account the invite it followed and its campaign (recorded once, with the account).
 * Answers the cookies to set: the device's when new, and the invite and campaign cleared (their
 * work is done once a member is signed in). A failure never stops the sign-in.
 */
export async function recordArrival(
  request: Request,
  context: AppLoadContext,
  api: Api,
  token: string,
): Promise<string[]> {
  const device = await deviceOf(request, context)
  const invite = await followedInvite(request, context)
  const campaign = await keptCampaign(request, context)
  await api.referrals
    .arrive(
      {
        device: device.id,
        ...(context.clientAddress ? { address: context.clientAddress } : {}),
        ...(invite
          ? {
              referral_code: invite.code,
              ...(invite.activity ? { experience_id: invite.activity } : {}),
            }
          : {}),
        ...campaign,
      },
      { token },
    )
    .catch((error: unknown) =>
      context.services.log('warn', 'Recording where a sign-in came from failed', {
        error: String(error),
        requestId: context.requestId,
      }),
    )
  const cookies = device.setCookie ? [device.setCookie] : []
  if (invite) cookies.push(await referralCookie(context).serialize('', { maxAge: 0 }))
  if (Object.keys(campaign).length > 0)
    cookies.push(await campaignCookieOf(context).serialize('', { maxAge: 0 }))
  return cookies
}

/**
 * What the referral banner says to a visitor who followed an invite (Home, the activity): the
 * first name only if its member allowed it (else "a friend"); null when there is nothing to say
 * (no invite, signed in, a code that is nobody's any more, or the API unreachable: a banner is not
 * worth failing a page over).
 */
export async function referralBannerFor(
  request: Request,
  context: AppLoadContext,
  api: Api,
  signedIn: boolean,
): Promise<{ firstName: string | null } | null> {
  if (signedIn) return null
  const invite = await followedInvite(request, context)
  if (!invite) return null
  const banner = await api.referrals.banner(invite.code).catch(() => null)
  return banner ? { firstName: banner.first_name } : null
}
