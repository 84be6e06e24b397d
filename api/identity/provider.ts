import express from 'express'
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import { isLanguage } from '#contract/languages.ts'
import { isDatabaseUnavailable, type DB } from '../db/database.ts'
import type { Env } from '../env.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import type { Secrets } from '../secrets.ts'
import { createAccounts } from './accounts.ts'
import { pgAdapterFactory } from './adapter.ts'

export const webClientId = 'circle55-web'
const day = 24 * 60 * 60

/**
 * The built-in OpenID Connect provider (oidc-provider), mounted at /oidc. Its sign-in pages are
 * server-rendered routes of the web app at /identity/:uid, which drive it through the bridge
 * below. Tokens for the API are JWTs with the API's audience.
 */
export function createIdentityProvider(options: { env: Env; db: DB; mailer: Mailer; secrets: Secrets }) {
  const { env, db, secrets } = options
  const issuer = `${env.PUBLIC_URL}/oidc`
  const accounts = createAccounts({ db, mailer: options.mailer, codeSecret: secrets.codeSecret })
  const scopes = 'openid profile email offline_access'

  const configuration: Configuration = {
    adapter: pgAdapterFactory(db),
    clients: [
      {
        client_id: webClientId,
        client_secret: secrets.oidcClientSecret,
        client_name: 'Circle 55',
        redirect_uris: [`${env.PUBLIC_URL}/login-success`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // Discovery advertises what the one registered client does, and the provider accepts no more:
    // the code flow (PKCE S256, below) authenticated with HTTP Basic; no implicit or hybrid
    // response types, no JWT client authentication.
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic'],
    jwks: secrets.oidcJwks,
    cookies: {
      keys: secrets.oidcCookieKeys,
      long: { signed: true, sameSite: 'lax', httpOnly: true },
      short: { signed: true, sameSite: 'lax', httpOnly: true },
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'locale'],
    },
    scopes: scopes.split(' '),
    extraParams: ['screen_hint'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      // Unused by the web app, so not offered: pushed requests, DPoP-bound tokens, and userinfo
      // (every access token is issued for the API's audience, which userinfo would refuse).
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => env.API_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api',
          audience: env.API_AUDIENCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 10 * 60,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    ttl: {
      AccessToken: 10 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 30 * day,
      Grant: 30 * day,
      RefreshToken: 30 * day,
    },
    // Members stay signed in for 30 days of activity: the refresh token is renewed about daily.
    rotateRefreshToken: (ctx) => (ctx.oidc.entities.RefreshToken?.ttlPercentagePassed() ?? 0) >= 3,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Our own first-party web app: no consent screen, the grant covers what it asks for.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId)
        if (existing) return existing
      }
      if (ctx.oidc.client?.clientId !== webClientId || !ctx.oidc.session?.accountId) return undefined
      const grant = new ctx.oidc.provider.Grant({
        clientId: webClientId,
        accountId: ctx.oidc.session.accountId,
      })
      grant.addOIDCScope(scopes)
      grant.addResourceScope(env.API_AUDIENCE, 'api')
      await grant.save()
      return grant
    },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.claims(sub)
      if (!account || account.state === 'deleted') return undefined
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email ?? undefined,
          email_verified: true,
          given_name: account.first_name ?? undefined,
          family_name: account.last_name ?? undefined,
          name: [account.first_name, account.last_name].filter(Boolean).join(' ') || undefined,
          locale: account.locale ?? undefined,
        }),
      }
    },
    interactions: { url: (_ctx, interaction) => `/identity/${interaction.uid}` },
    renderError: (ctx, _out, error) => {
      ctx.type = 'html'
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in problem</title></head><body><main><h1>Sign-in problem</h1><p lang="en">Something went wrong while signing you in. Please go back and try again.</p><p lang="fr">Un problème est survenu pendant la connexion. Revenez en arrière et réessayez.</p><p lang="nl">Er ging iets mis bij het inloggen. Ga terug en probeer het opnieuw.</p><p><a href="/login">Sign in / Se connecter / Inloggen</a></p></main></body></html>`
      void error
    },
  }

  const provider = new Provider(issuer, configuration)
  provider.proxy = env.TRUST_PROXY > 0
  pinToIssuer(provider)

  const bridge = answerUnavailableWhenDown({
    async interaction(uid: string) {
      const interaction = await provider.Interaction.find(uid)
      if (!interaction) return null
      const params = interaction.params as Record<string, unknown>
      const hint = typeof params.ui_locales === 'string' ? params.ui_locales.split(' ')[0] : undefined
      const language = isLanguage(hint) ? hint : null
      return {
        uid,
        prompt: interaction.prompt.name,
        screenHint: params.screen_hint === 'signup' ? ('signup' as const) : null,
        loginHint: typeof params.login_hint === 'string' ? params.login_hint : null,
        language,
        clientName: 'Circle 55',
      }
    },
    async finish(uid: string, accountId: string) {
      const interaction = await provider.Interaction.find(uid)
      if (!interaction) throw new Error('Interaction expired')
      interaction.result = { login: { accountId, remember: true } }
      await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 60))
      return interaction.returnTo
    },
    async abort(uid: string) {
      const interaction = await provider.Interaction.find(uid)
      if (!interaction) return '/'
      interaction.result = { error: 'access_denied', error_description: 'The member canceled sign-in.' }
      await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 60))
      return interaction.returnTo
    },
    verifyPassword: (email: string, password: string) => accounts.verifyPassword(email, password),
    sendCode: (email: string, purpose: 'sign_in' | 'reset_password', language: 'en' | 'fr' | 'nl') =>
      accounts.sendCode(email, purpose, language),
    verifyCode: (email: string, code: string, purpose: 'sign_in' | 'reset_password') => accounts.verifyCode(email, code, purpose),
    startSignUp: (input: Parameters<typeof accounts.startSignUp>[0]) => accounts.startSignUp(input),
    resendSignUp: (email: string, language: 'en' | 'fr' | 'nl') => accounts.resendSignUp(email, language),
    confirmSignUp: (email: string, code: string) => accounts.confirmSignUp(email, code),
    resetPassword: (email: string, code: string, password: string) => accounts.resetPassword(email, code, password),
    /** Ends the provider's session (from its cookie) and every grant it holds. */
    async endSession(cookieHeader: string | null) {
      const sessionId = readCookie(cookieHeader, '_session')
      if (!sessionId) return
      const session = await provider.Session.find(sessionId)
      if (!session) return
      for (const { grantId } of Object.values(session.authorizations ?? {})) {
        if (grantId) await db.deleteFrom('oidc_payloads').where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('type', '=', 'Grant'), eb('id', '=', grantId)])])).execute()
      }
      await session.destroy()
    },
  })
  return { provider, issuer, bridge }
}

/**
 * Every address the provider publishes (discovery, the return into sign-in it stores for an
 * interaction) comes from the issuer, never from the request (decision 016). oidc-provider builds
 * them with `ctx.oidc.urlFor`, from Koa's view of the request: the scheme from the connection or
 * X-Forwarded-Proto, the host from Host or X-Forwarded-Host, the mount path as the client spelled
 * it (`/OIDC/…`), and for a request target in absolute form (`GET http://attacker.example/oidc/…
 * HTTP/1.1`, which Node accepts and Express routes by its path) the target itself, whatever Host
 * says. `Provider#urlFor` builds the same paths on the issuer; and the scheme and host the
 * provider sees are the issuer's, so its cookies are `Secure` when PUBLIC_URL is https even
 * behind a proxy that does not say so.
 */
function pinToIssuer(provider: Provider) {
  const { protocol, host } = new URL(provider.issuer)
  provider.OIDCContext.prototype.urlFor = (name: string, options?: Record<string, unknown>) => provider.urlFor(name, options)
  provider.use(async (ctx, next) => {
    Object.defineProperties(ctx.request, {
      protocol: { value: protocol.slice(0, -1) },
      host: { value: host },
    })
    await next()
  })
}

/**
 * The provider on the Express host (server.ts): under the issuer's path, spelled as configured,
 * and at RFC 8414 §3.1's metadata address for an issuer with a path
 * (`/.well-known/oauth-authorization-server/oidc`), which answers what discovery answers.
 */
export function identityRoutes(provider: Provider) {
  const oidc = provider.callback()
  const issuerPath = new URL(provider.issuer).pathname
  const serve: express.RequestHandler = (req, res, next) => {
    oidc(req, res).catch(next)
  }
  const router = express.Router({ caseSensitive: true, strict: false })
  router.get(`/.well-known/oauth-authorization-server${issuerPath}`, (req, res, next) => {
    req.url = '/.well-known/oauth-authorization-server'
    serve(req, res, next)
  })
  router.use(issuerPath, serve)
  return router
}

/**
 * The sign-in pages call the bridge; with the database down they must show their outage answer
 * (503, and a form keeps what the member typed), not a crash. Every method's database failure
 * becomes a thrown 503 Response, which the web app treats as an outage (app/utils/forms.server.ts).
 */
function answerUnavailableWhenDown<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(methods)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await method(...args)
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw new Response(null, { status: 503 })
        throw error
      }
    }
  }
  return wrapped as T
}
export type IdentityBridgeImpl = ReturnType<typeof createIdentityProvider>['bridge']

function readCookie(header: string | null, name: string) {
  if (!header) return null
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return null
}
