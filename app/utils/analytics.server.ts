import type { AppLoadContext } from '@remix-run/node'
import { analyticsMode, asksConsent, consentCookieName, privacySignals, type AnalyticsConsent } from '#contract/analytics.ts'
import type { User } from '#contract/users.ts'
import type { AnalyticsVisit } from './analytics-visit.ts'
import { commitSession, getSession } from './session.server.ts'

/**
 * The web's side of first-party analytics (decision 081): the visitor's consent (a first-party
 * cookie, and a member's account), what the root loader tells every page (whether to ask, whether
 * Segment's browser library may load), and the page view of each document, recorded once in
 * `entry.server.tsx`.
 */

/** 13 months, as CNIL allows for an audience-measurement choice. */
export const consentCookieMaxAge = 395 * 24 * 60 * 60

export function consentFromCookie(request: Request): AnalyticsConsent | null {
  const header = request.headers.get('cookie') ?? ''
  const match = new RegExp(`(?:^|;\\s*)${consentCookieName}=(granted|refused)(?:;|$)`).exec(header)
  return (match?.[1] as AnalyticsConsent | undefined) ?? null
}

export function consentCookie(choice: AnalyticsConsent, context: AppLoadContext) {
  const secure = context.services.config.secureCookies ? '; Secure' : ''
  return `${consentCookieName}=${choice}; Path=/; Max-Age=${consentCookieMaxAge}; HttpOnly; SameSite=Lax${secure}`
}

/** What every page knows of analytics (root data). */
export interface AnalyticsShell {
  /** Show the consent question (an EU language, no answer, no GPC/DNT, nobody viewing as a member). */
  ask: boolean
  /** The visitor's answer, if any. */
  choice: AnalyticsConsent | null
  /** The browser sends Global Privacy Control (honoured: shown on the privacy choices page). */
  gpc: boolean
  /** Segment's write key when its browser library may load: configured, consent, no staff viewing. */
  segmentWriteKey: string | null
}

/**
 * The visitor's consent and what follows from it. A signed-in member without the cookie (a new
 * browser) gets their account's answer, read once per session, and the cookie again.
 */
export async function analyticsShell(
  request: Request,
  context: AppLoadContext,
  options: {
    user: User | null
    language: string
    impersonating: boolean
    headers: Headers
    /** The member's answer on their account (`api.analytics.consent()`). */
    readAccount: () => Promise<AnalyticsConsent | null>
  },
): Promise<AnalyticsShell> {
  const signals = privacySignals(request.headers)
  let choice = consentFromCookie(request)
  if (choice === null && options.user && !options.impersonating) {
    // Not worth failing a page over (the database may be down): without it, nothing but the cookie counts.
    const kept = await accountConsent(request, context, options.headers, options.readAccount).catch(() => undefined)
    if (kept !== undefined && kept !== 'none') {
      choice = kept
      options.headers.append('Set-Cookie', consentCookie(kept, context))
    }
  }
  const input = { signals, choice, language: options.language }
  const writeKey = context.services.config.segmentWriteKey ?? null
  return {
    ask: !options.impersonating && asksConsent(input),
    choice,
    gpc: signals.gpc,
    segmentWriteKey: writeKey && !options.impersonating && analyticsMode(input) === 'full' ? writeKey : null,
  }
}

/** The member's answer on their account, read once per session and kept in it. */
async function accountConsent(request: Request, context: AppLoadContext, headers: Headers, readAccount: () => Promise<AnalyticsConsent | null>) {
  const session = await getSession(request, context)
  const kept = session.get('analyticsConsent')
  if (kept !== undefined) return kept
  const fetched = (await readAccount()) ?? 'none'
  session.set('analyticsConsent', fetched)
  headers.append('Set-Cookie', await commitSession(session, context))
  return fetched
}

/** Root data's part that the page view needs. */
interface RootFacts {
  language?: string
  user?: { id: string } | null
  impersonation?: unknown
  analytics?: AnalyticsShell
}

/** A document the browser fetched ahead, in case the member follows a link: not a visit. */
function isPrefetch(request: Request) {
  const purpose = `${request.headers.get('sec-purpose') ?? ''} ${request.headers.get('purpose') ?? ''}`
  return /prefetch|prerender/i.test(purpose)
}

/** What the page view of a document records, or null when it is not one (not a GET, a prefetch, an error page). */
export function visitOf(request: Request, status: number, root: RootFacts | undefined, address: string): AnalyticsVisit | null {
  if (request.method !== 'GET' || status !== 200 || !root?.analytics || isPrefetch(request)) return null
  return {
    url: request.url,
    referrer: request.headers.get('referer'),
    userAgent: request.headers.get('user-agent'),
    address,
    language: root.language ?? null,
    signals: privacySignals(request.headers),
    choice: root.analytics.choice,
    userId: root.user?.id ?? null,
    impersonated: Boolean(root.impersonation),
  }
}

/** Records the page view of a document (never delays or fails the page). */
export function recordPageView(request: Request, status: number, root: RootFacts | undefined, context: AppLoadContext) {
  const analytics = context.services.analytics
  if (!analytics) return
  const visit = visitOf(request, status, root, context.clientAddress)
  if (visit) void analytics.page(visit)
}

/** A visitor signed in or up (`startSession`): links the day's visitor to the member, with consent only. */
export async function identifyVisitor(
  request: Request,
  context: AppLoadContext,
  user: User,
  method: 'sign_in' | 'sign_up',
  readAccount: () => Promise<AnalyticsConsent | null>,
) {
  const analytics = context.services.analytics
  if (!analytics) return
  // A new browser has no cookie: the member's account answers for them (unknown: as a refusal).
  const choice = consentFromCookie(request) ?? (await readAccount().catch(() => 'refused' as const))
  await analytics.identify(
    {
      url: request.url,
      referrer: null,
      userAgent: request.headers.get('user-agent'),
      address: context.clientAddress,
      language: user.locale ?? context.language ?? null,
      signals: privacySignals(request.headers),
      choice,
      userId: user.id,
      impersonated: false,
    },
    method,
  )
}
