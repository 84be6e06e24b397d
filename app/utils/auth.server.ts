import { createCookie, data, redirect, type AppLoadContext } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { Auth0Strategy } from 'remix-auth-auth0'
import { OAuth2Strategy } from 'remix-auth-oauth2'
import type { User } from '#contract/users.ts'
import { createApi, type Api } from './api/clients.server.ts'
import { ApiError } from './api.server.ts'
import { isFormKeptDuringOutage } from './forms.server.ts'
import { isLanguage } from './i18n.ts'
import { safeRedirectPath } from './redirect.ts'
import {
  commitSession,
  destroySession,
  getSession,
  getSessionStorage,
  type SessionData,
} from './session.server.ts'
import { redirectWithToast } from './toast.server.ts'
import { identifyVisitor } from './analytics.server.ts'

/** Access tokens are reused for 59 seconds (spec §7), then renewed with the refresh token. */
export const accessTokenCacheMs = 59_000

interface TokenSet {
  accessToken: string
  refreshToken: string | null
  idToken: string | null
}

type Strategy = OAuth2Strategy<TokenSet> | Auth0Strategy<TokenSet>

const authenticators = new WeakMap<object, { authenticator: Authenticator<TokenSet>; strategy: Strategy }>()

function tokensFrom(tokens: {
  accessToken(): string
  hasRefreshToken(): boolean
  refreshToken(): string
  idToken(): string
}): TokenSet {
  let idToken: string | null = null
  try {
    idToken = tokens.idToken()
  } catch {
    idToken = null
  }
  return {
    accessToken: tokens.accessToken(),
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
    idToken,
  }
}

/** Passes `screen_hint=signup`, `prompt=login` (a fresh sign-in, decision 078) and the member's language through to the identity provider. */
function extraParams(params: URLSearchParams, request: Request) {
  const url = new URL(request.url)
  if (url.searchParams.get('screen_hint') === 'signup') params.set('screen_hint', 'signup')
  if (url.searchParams.get('prompt') === 'login') params.set('prompt', 'login')
  const language = url.searchParams.get('ui_locales')
  if (isLanguage(language)) params.set('ui_locales', language)
  return params
}

class BuiltinStrategy extends OAuth2Strategy<TokenSet> {
  protected override authorizationParams(params: URLSearchParams, request: Request) {
    return extraParams(params, request)
  }

  /**
   * Renews without a `scope` parameter, which (RFC 6749 §6) keeps the scopes first granted.
   * oidc-provider leaves offline_access out of a grant made without prompt=consent, so asking
   * for it again here would be refused with invalid_scope and end the session.
   */
  override refreshToken(refreshToken: string) {
    return this.client.refreshAccessToken(this.options.tokenEndpoint.toString(), refreshToken, [])
  }
}
class Auth0WithHints extends Auth0Strategy<TokenSet> {
  protected override authorizationParams(params: URLSearchParams, request: Request) {
    return extraParams(super.authorizationParams(params, request), request)
  }
}

export function getAuthenticator(context: AppLoadContext) {
  const existing = authenticators.get(context.services)
  if (existing) return existing
  const { config } = context.services
  const cookie = {
    name: signInStateCookieName(config.secureCookies),
    path: '/',
    httpOnly: true as const,
    sameSite: 'Lax' as const,
    ...(config.secureCookies ? { secure: true as const } : {}),
    maxAge: signInRoundTripSeconds,
  }
  const redirectURI = `${config.publicUrl}/login-success`
  const verify = async ({ tokens }: { tokens: Parameters<typeof tokensFrom>[0] }) => tokensFrom(tokens)
  const strategy: Strategy =
    config.auth.kind === 'builtin'
      ? new BuiltinStrategy(
          {
            cookie,
            clientId: config.auth.clientId,
            clientSecret: config.auth.clientSecret,
            authorizationEndpoint: `${config.auth.issuer}/auth`,
            tokenEndpoint: `${config.auth.issuer}/token`,
            redirectURI,
            scopes: ['openid', 'profile', 'email', 'offline_access'],
          },
          verify,
        )
      : new Auth0WithHints(
          {
            cookie,
            domain: config.auth.domain,
            clientId: config.auth.clientId,
            clientSecret: config.auth.clientSecret,
            redirectURI,
            scopes: ['openid', 'profile', 'email', 'offline_access'],
            audience: config.auth.audience,
          },
          verify,
        )
  const authenticator = new Authenticator<TokenSet>()
  authenticator.use(strategy, 'oidc')
  const entry = { authenticator, strategy }
  authenticators.set(context.services, entry)
  return entry
}

const inflightRefreshes = new Map<string, Promise<TokenSet>>()

/**
 * The member's access token: the cached one while it is younger than 59 s, otherwise a new one
 * from the refresh token. Returns null when signed out or when the session can no longer be
 * renewed (the session is then ended).
 */
export async function getAccessToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const session = await getSession(request, context)
  const accessToken = session.get('accessToken')
  if (!accessToken) return null
  if (Date.now() < (session.get('accessTokenRenewAt') ?? 0)) return accessToken
  const refreshToken = session.get('refreshToken')
  if (!refreshToken) return accessToken
  const key = session.id
  let pending = inflightRefreshes.get(key)
  if (!pending) {
    pending = getAuthenticator(context)
      .strategy.refreshToken(refreshToken)
      .then(tokensFrom)
      .finally(() => inflightRefreshes.delete(key))
    inflightRefreshes.set(key, pending)
  }
  try {
    const tokens = await pending
    session.set('accessToken', tokens.accessToken)
    session.set('accessTokenRenewAt', Date.now() + accessTokenCacheMs)
    if (tokens.refreshToken) session.set('refreshToken', tokens.refreshToken)
    if (tokens.idToken) session.set('idToken', tokens.idToken)
    // Persist now (the record, not the cookie) so parallel requests see the new tokens.
    await commitSession(session, context)
    context.sessionRenewed = true
    return tokens.accessToken
  } catch (error) {
    context.services.log('warn', 'Token refresh failed; ending the session', { error: String(error) })
    await destroySession(session, context)
    context.sessionEnded = true
    return null
  }
}

/**
 * The product API's resource clients for this request, made on first use and kept in the load
 * context: they hold the member's token, the page's language and the request id (decision 015).
 */
export function getApi(request: Request, context: AppLoadContext): Api {
  context.api ??= createApi({
    apiFetch: context.services.apiFetch,
    baseUrl: context.services.config.apiBaseUrl,
    getToken: () => getAccessToken(request, context),
    language: () => context.language ?? 'en',
    requestId: context.requestId,
    impersonation: async () => (await getSession(request, context)).get('impersonation') ?? null,
    privacyHeaders: Object.fromEntries(['sec-gpc', 'dnt'].flatMap((name) => (request.headers.has(name) ? [[name, request.headers.get(name) ?? '']] : []))),
  })
  return context.api
}

export type AuthState =
  | { status: 'signed-in'; user: User }
  | { status: 'signed-out' }
  | { status: 'suspended' }
  /** Not known: the database is down and a form is being shown again (see keepFormOnOutage). */
  | { status: 'unavailable' }

/**
 * Spec §4's auth gate, resolved once per request: a suspended or banned member is treated as
 * signed out (and their session ends).
 */
export async function getAuthState(request: Request, context: AppLoadContext): Promise<AuthState> {
  if (context.member) return context.member
  // The action just found the database down: the page is drawn without asking it again.
  if (isFormKeptDuringOutage(context)) return { status: 'unavailable' }
  // Loaders run side by side: the first one asks, the others wait for the same answer. A
  // failure is not kept, so a later call (the page drawn after an outage) asks again.
  const pending = resolveAuthState(request, context)
  context.member = pending
  pending.then(
    (state) => {
      context.memberKnown = state
    },
    () => {
      if (context.member === pending) context.member = undefined
    },
  )
  return pending
}

async function resolveAuthState(request: Request, context: AppLoadContext): Promise<AuthState> {
  let state: AuthState = { status: 'signed-out' }
  // Asked the way every API call of this page asks (a renewed token when it is due), so this call
  // is sent first: its caller lookup, shared with the page's own calls, reads the header's facts
  // with the member (decision 055).
  const token = await getAccessToken(request, context)
  if (token) {
    try {
      // The header's unread totals come with the member: one call for every page's shell (decision 052).
      state = { status: 'signed-in', user: await getApi(request, context).users.me({ badges: true, token }) }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'impersonation_ended') {
        // The 30 minutes ran out (or the role changed): back to the staff member's own account.
        await endImpersonationInSession(request, context)
        throw await redirectWithToast(context, '/admin', { kind: 'info', key: 'common:impersonation.ended' })
      } else if (error instanceof ApiError && error.code === 'user_suspended') {
        state = { status: 'suspended' }
        await destroySession(await getSession(request, context), context)
        context.sessionEnded = true
      } else if (error instanceof ApiError && error.status === 401) {
        await destroySession(await getSession(request, context), context)
        context.sessionEnded = true
      } else if (error instanceof ApiError && error.status >= 500) {
        // The API or its database is down: a helpful 503 page, and the session is kept.
        throw data(null, { status: 503 })
      } else {
        throw error
      }
    }
  }
  return state
}

/** The session stops naming an impersonation: its calls are the staff member's own again (decision 078). */
export async function endImpersonationInSession(request: Request, context: AppLoadContext) {
  const session = await getSession(request, context)
  session.unset('impersonation')
  await commitSession(session, context)
  context.api = undefined
}

export async function getOptionalUser(request: Request, context: AppLoadContext) {
  const state = await getAuthState(request, context)
  return state.status === 'signed-in' ? state.user : null
}

/**
 * The member this request has already resolved, without asking the session store or the API
 * (null when not resolved yet or not signed in): for pages drawn while the database is down.
 */
export function knownUser(context: AppLoadContext): User | null {
  const state = context.memberKnown
  return state?.status === 'signed-in' ? state.user : null
}

/** The signed-in member, or a redirect to sign in that comes back here. */
export async function requireUser(request: Request, context: AppLoadContext) {
  const state = await getAuthState(request, context)
  if (state.status === 'signed-in') return state.user
  if (state.status === 'unavailable') throw data(null, { status: 503 })
  const url = new URL(request.url)
  throw redirect(`/login?returnTo=${encodeURIComponent(url.pathname + url.search)}`)
}

export async function requireAnonymous(request: Request, context: AppLoadContext) {
  const user = await getOptionalUser(request, context)
  if (user) throw redirect('/')
}

/**
 * Completes sign-in: stores the tokens in a fresh session record and records the sign-in (the
 * answer says whether the member is back after a long absence, decision 020). A suspended or
 * banned member (the API answers `user_suspended`) gets none: back home with the §8 message instead.
 */
export async function startSession(
  request: Request,
  context: AppLoadContext,
  tokens: TokenSet,
): Promise<{ user: User; cookie: string; welcomeBack: boolean }> {
  const api = getApi(request, context)
  let user: User
  try {
    user = await api.users.me({ token: tokens.accessToken })
  } catch (error) {
    if (error instanceof ApiError && error.code === 'user_suspended') throw await refuseSuspended(request, context, tokens)
    if (error instanceof ApiError && error.status >= 500) throw data(null, { status: 503 })
    throw error
  }
  // Not worth failing a sign-in over: without the answer the member simply is not welcomed back.
  const signIn = await api.users
    .recordSignIn({ token: tokens.accessToken })
    .catch((error: unknown) => {
      context.services.log('warn', 'Recording the sign-in failed', { error: String(error), requestId: context.requestId })
      return null
    })
  // The day's visitor becomes the member (decision 081): a first sign-in is the end of a sign-up.
  await identifyVisitor(request, context, user, signIn && signIn.previous_sign_in_at === null ? 'sign_up' : 'sign_in', () => api.analytics.consent({ token: tokens.accessToken }))
  const session = await getSession(request, context)
  const fresh = await getSessionStorage(context).getSession()
  const values: SessionData = {
    userId: user.id,
    subject: user.id,
    accessToken: tokens.accessToken,
    accessTokenRenewAt: Date.now() + accessTokenCacheMs,
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
  }
  // A new id on every sign-in (no session fixation): drop the old record, then create one.
  if (session.id) await destroySession(session, context)
  for (const [key, value] of Object.entries(values)) fresh.set(key as keyof SessionData, value as never)
  return { user, cookie: await commitSession(fresh, context), welcomeBack: signIn?.welcome_back ?? false }
}

/**
 * Sign-in refused for a suspended member: no session is left behind, neither ours (none is
 * made, an earlier one ends) nor the identity provider's (it would sign them straight back in).
 */
async function refuseSuspended(request: Request, context: AppLoadContext, tokens: TokenSet) {
  const headers = new Headers()
  headers.append('Set-Cookie', await endSession(request, context, tokens.refreshToken))
  return redirectWithToast(context, '/', { kind: 'error', key: 'errors.user_suspended' }, headers)
}

/** Ends the web session and the identity provider's session; returns the cookie to clear. */
export async function endSession(request: Request, context: AppLoadContext, newRefreshToken: string | null = null) {
  const session = await getSession(request, context)
  const refreshToken = newRefreshToken ?? session.get('refreshToken')
  const cookie = await destroySession(session, context)
  if (context.services.identity) {
    await context.services.identity.endSession(request.headers.get('Cookie'))
  } else if (refreshToken) {
    await getAuthenticator(context)
      .strategy.revokeToken(refreshToken)
      .catch(() => {})
  }
  return cookie
}

export function returnToFrom(request: Request) {
  return safeRedirectPath(new URL(request.url).searchParams.get('returnTo'))
}

/**
 * How long a sign-in may take, from /api/auth/login back to /login-success: as long as the
 * identity provider keeps its sign-in page (api/identity/provider.ts, ttl.Interaction), so that a
 * member who signs up, goes to the mail app for the code and comes back still lands where they
 * were, signed in (issue 12 §4).
 */
export const signInRoundTripSeconds = 60 * 60

/** Where to go after sign-in, kept for the round trip through the identity provider. */
export const returnToCookie = createCookie('return-to', { path: '/', httpOnly: true, sameSite: 'lax', maxAge: signInRoundTripSeconds })

/** Options for this site's cookies: Secure on https (and localhost), as the session cookie is. */
export function cookieSecurity(context: AppLoadContext) {
  return { secure: context.services.config.secureCookies }
}

/** remix-auth-oauth2 keeps each sign-in's state and PKCE verifier in a cookie `<name>:<random id>`. */
function signInStateCookieName(secure: boolean) {
  return secure ? '__Host-oauth' : 'oauth'
}

/**
 * Set-Cookie values that clear the state cookie of the sign-in coming back with `?state=`, once
 * it has been used (the library leaves it for its ten minutes). Cleared with the attributes it
 * was set with: a browser replaces a `__Host-` cookie only with a Secure one on `/`.
 */
export function clearSignInState(request: Request, context: AppLoadContext) {
  const state = new URL(request.url).searchParams.get('state')
  const { secureCookies } = context.services.config
  const prefix = `${signInStateCookieName(secureCookies)}:`
  const cleared: string[] = []
  if (!state) return cleared
  for (const pair of (request.headers.get('Cookie') ?? '').split(';')) {
    const [name = '', ...value] = pair.trim().split('=')
    if (!name.startsWith(prefix) || !/^[\w:-]+$/.test(name)) continue
    if (!new URLSearchParams(value.join('=').replace(/^"|"$/g, '')).has(state)) continue
    cleared.push(`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`)
  }
  return cleared
}

/** Whether this session views Circle 55 as a member (decision 078): the staff member's session names the impersonation. */
export async function isImpersonating(request: Request, context: AppLoadContext) {
  return Boolean((await getSession(request, context)).get('impersonation'))
}

/** The API refused a call because it is the member's alone while the team views Circle 55 as them. */
export const isImpersonationRefusal = (error: unknown) => error instanceof ApiError && error.code === 'impersonation_refused'

/** POST /logout and /api/auth/logout: ends the session everywhere and says so. */
export async function signOut(request: Request, context: AppLoadContext) {
  // Signing out while viewing as a member stops that first, so the member is told now (decision 078).
  if (await isImpersonating(request, context)) {
    await getApi(request, context)
      .staff.stopImpersonating()
      .catch(() => undefined)
  }
  const headers = new Headers()
  headers.append('Set-Cookie', await endSession(request, context))
  return redirectWithToast(context, '/', 'logout.done', headers)
}
