import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAuthenticator } from '#app/utils/auth.server.ts'
import type { AppLoadContext } from '@remix-run/node'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createApiHarness, builtinAfterCommit } from '#tests/api-harness.ts'
import { auth0Handlers } from '#tests/msw/auth0.ts'
import { parseEnv } from '../env.ts'
import { createTokenVerifier } from '../providers/identity/token-verifier.ts'
import { createApiApp } from '../app.ts'
import { createProviders } from '#api/providers.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createLogger } from '../logger.ts'

const domain = 'circle55-test.us.auth0.com'
const clientId = 'auth0-client-id'
const clientSecret = 'auth0-client-secret-that-is-long-enough'
const audience = 'https://api.circle55.example/'
const auth0Env = {
  NODE_ENV: 'test' as const,
  PUBLIC_URL: 'http://localhost:3999',
  AUTH0_DOMAIN: domain,
  AUTH0_CLIENT_ID: clientId,
  AUTH0_CLIENT_SECRET: clientSecret,
  AUTH0_AUDIENCE: audience,
}

let privateKey: CryptoKey
let publicJwk: JWK
let database: TestDatabase
const issued: string[] = []

async function auth0Token(sub: string, overrides: Record<string, unknown> = {}) {
  return new SignJWT({ iss: `https://${domain}/`, aud: [audience, `https://${domain}/userinfo`], sub, scope: 'openid profile email offline_access', ...overrides })
    .setProtectedHeader({ alg: 'RS256', kid: 'auth0-key' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey)
}

const server = setupServer(
  ...auth0Handlers({
    domain,
    clientId,
    clientSecret,
    jwks: () => ({ keys: [publicJwk] }),
    issueTokens: async (grant) => {
      issued.push(grant.grantType)
      return { access_token: await auth0Token('auth0|abc123'), refresh_token: 'rotated-refresh-token', id_token: await auth0Token('auth0|abc123', { aud: clientId }) }
    },
  }),
)

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true })
  privateKey = pair.privateKey
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'auth0-key', alg: 'RS256', use: 'sig' }
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
})
afterAll(async () => {
  server.close()
  await database.drop()
})

describe('Auth0 configuration', () => {
  it('switches identity to Auth0 with its audience when the three variables are set', () => {
    const env = parseEnv(auth0Env)
    expect(env.auth).toBe('auth0')
    expect(env.API_AUDIENCE).toBe(audience)
    expect(() => parseEnv({ NODE_ENV: 'test', AUTH0_DOMAIN: domain })).toThrow(/must be set together/)
  })

  it('verifies Auth0 access tokens against the tenant JWKS with exact iss and aud', async () => {
    const verify = createTokenVerifier({ issuer: `https://${domain}/`, audience, jwksUrl: `https://${domain}/.well-known/jwks.json` })
    await expect(verify(await auth0Token('auth0|abc123'))).resolves.toMatchObject({ sub: 'auth0|abc123' })
    await expect(verify(await auth0Token('auth0|abc123', { iss: `https://${domain}` }))).rejects.toThrow()
    await expect(verify(await auth0Token('auth0|abc123', { aud: 'https://other.example/' }))).rejects.toThrow()
  })

  it('creates the member on their first API call with an Auth0 token', async () => {
    const env = parseEnv({ ...auth0Env, LOG_LEVEL: 'silent' })
    const verifyToken = createTokenVerifier({ issuer: `https://${domain}/`, audience, jwksUrl: `https://${domain}/.well-known/jwks.json` })
    const app = createApiApp({
      env,
      db: database.db,
      logger: createLogger(env),
      verifyToken,
      ...builtinAfterCommit(database.db),
      mailer: createMailer({ db: database.db }),
      codeSecret: 'a test code secret',
      ...createProviders(env, database.db),
    })
    const token = await auth0Token('auth0|new-member', { email: 'new.member@example.com' })
    const response = await app.fetch(new Request('http://localhost:3999/api/v1/users/me', { headers: { authorization: `Bearer ${token}` } }))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { data: { email: string; state: string; onboarded: boolean }[] }
    expect(body.data[0]).toMatchObject({ email: 'new.member@example.com', state: 'created', onboarded: false })
    // The built-in provider's tokens are not accepted in Auth0 mode.
    const builtin = await createApiHarness(database.db)
    const foreign = await builtin.signToken('auth0|new-member')
    const refused = await app.fetch(new Request('http://localhost:3999/api/v1/users/me', { headers: { authorization: `Bearer ${foreign}` } }))
    expect(refused.status).toBe(401)
  })

  it('sends the web app to Auth0 for sign-in and renews tokens at its token endpoint', async () => {
    const context = {
      services: {
        config: {
          publicUrl: 'http://localhost:3999',
          secureCookies: true,
          auth: { kind: 'auth0', domain, clientId, clientSecret, audience },
        },
      },
    } as unknown as AppLoadContext
    const { authenticator, strategy } = getAuthenticator(context)
    const redirect = await authenticator
      .authenticate('oidc', new Request('http://localhost:3999/api/auth/login?screen_hint=signup&ui_locales=fr'))
      .then(() => null, (thrown: unknown) => thrown as Response)
    expect(redirect?.status).toBe(302)
    const location = new URL(redirect!.headers.get('location')!)
    expect(location.origin).toBe(`https://${domain}`)
    expect(location.pathname).toBe('/authorize')
    expect(location.searchParams.get('client_id')).toBe(clientId)
    expect(location.searchParams.get('audience')).toBe(audience)
    expect(location.searchParams.get('screen_hint')).toBe('signup')
    expect(location.searchParams.get('ui_locales')).toBe('fr')
    expect(location.searchParams.get('code_challenge_method')).toBe('S256')
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3999/login-success')

    const tokens = await strategy.refreshToken('old-refresh-token')
    expect(issued).toContain('refresh_token')
    expect(tokens.refreshToken()).toBe('rotated-refresh-token')
    expect(tokens.accessToken().split('.')).toHaveLength(3)
  })
})
