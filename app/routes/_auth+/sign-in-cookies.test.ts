import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebServices } from '#app/utils/load-context.ts'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { testContext, testWebServices } from '#tests/web-harness.ts'
import { loader as authLoginLoader } from '../api+/auth.login.tsx'
import { loader as loginSuccessLoader } from './login-success.tsx'

/**
 * Issue 11 §6: the cookies of the sign-in round trip. On https (`secureCookies`, as for the
 * session) the return-to cookie is Secure like the others; after sign-in completes, the
 * `__Host-oauth:*` cookie holding its state and PKCE verifier is cleared, not left for ten minutes.
 */
let database: TestDatabase
let api: ApiHarness
let secure: WebServices
let plain: WebServices
let signingIn = ''

const tokenEndpoint = setupServer()

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  plain = testWebServices(api, database.db)
  secure = { ...plain, config: { ...plain.config, secureCookies: true } }
  tokenEndpoint.use(
    http.post(`${api.issuer}/token`, async () =>
      HttpResponse.json({ token_type: 'Bearer', expires_in: 600, access_token: await api.signToken(signingIn) }),
    ),
  )
  tokenEndpoint.listen({ onUnhandledRequest: 'error' })
})

afterAll(async () => {
  tokenEndpoint.close()
  await database?.drop()
})

async function answer(run: () => Promise<unknown>): Promise<Response> {
  const result = await run().catch((thrown: unknown) => thrown)
  if (result instanceof Response) return result
  throw new Error(`Expected a response, got ${String(result)}`)
}

/** Set-Cookie headers by cookie name. */
function setCookies(response: Response) {
  return new Map(response.headers.getSetCookie().map((cookie) => [cookie.slice(0, cookie.indexOf('=')), cookie]))
}

/** Starts sign-in (as /login does), then comes back from the provider with a code. */
async function signIn(services: WebServices, returnTo = '/attending') {
  const member = await createUser(database.db)
  signingIn = member.auth_subject ?? ''
  const start = await answer(() =>
    authLoginLoader({ request: new Request(`${TEST_PUBLIC_URL}/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`), context: testContext(services), params: {} }),
  )
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? ''
  const browserCookies = [...setCookies(start).values()].map((cookie) => cookie.split(';')[0]).join('; ')
  const back = await answer(() =>
    loginSuccessLoader({
      request: new Request(`${TEST_PUBLIC_URL}/login-success?code=a-code&state=${state}`, { headers: { cookie: browserCookies } }),
      context: testContext(services),
      params: {},
    }),
  )
  return { start: setCookies(start), back: setCookies(back), location: back.headers.get('location') }
}

const attribute = (cookie: string | undefined, name: string) =>
  (cookie ?? '').split(';').slice(1).some((part) => part.trim().toLowerCase().split('=')[0] === name.toLowerCase())

const maxAge = (cookie: string | undefined) => /;\s*max-age=(-?\d+)/i.exec(cookie ?? '')?.[1]

describe('the return-to cookie', () => {
  it('is Secure on https, where the session cookie is, both when set and when cleared', async () => {
    const { start, back, location } = await signIn(secure)
    expect(location).toBe('/attending')
    expect(attribute(start.get('return-to'), 'secure'), start.get('return-to')).toBe(true)
    expect(maxAge(back.get('return-to'))).toBe('0')
    expect(attribute(back.get('return-to'), 'secure'), back.get('return-to')).toBe(true)
  })

  it('is not Secure on plain http (a LAN address), where a Secure cookie would not be kept', async () => {
    const { start, location } = await signIn(plain)
    expect(location).toBe('/attending')
    expect(attribute(start.get('return-to'), 'secure')).toBe(false)
  })
})

describe('the sign-in state cookie', () => {
  it('__Host-oauth:* is cleared once sign-in has completed, Secure and on / so the browser accepts it', async () => {
    const { start, back } = await signIn(secure)
    const names = [...start.keys()].filter((name) => name.startsWith('__Host-oauth:'))
    expect(names).toHaveLength(1)
    const cleared = back.get(names[0]!)
    expect(cleared, 'a Set-Cookie clearing the state cookie').toBeDefined()
    expect(maxAge(cleared)).toBe('0')
    expect(attribute(cleared, 'secure')).toBe(true)
    expect(cleared).toMatch(/;\s*path=\/(;|$)/i)
    expect(attribute(cleared, 'domain')).toBe(false)
  })

  it('is cleared on plain http too (named oauth:*)', async () => {
    const { start, back } = await signIn(plain)
    const name = [...start.keys()].find((key) => key.startsWith('oauth:'))
    expect(name).toBeDefined()
    expect(maxAge(back.get(name!))).toBe('0')
  })
})

describe('a sign-in that takes a while (issue 12 §4)', () => {
  it('keeps its state and where to return for an hour, as long as the identity provider keeps its sign-in page', async () => {
    const { start } = await signIn(plain)
    const state = [...start.keys()].find((key) => key.startsWith('oauth:'))
    // A member signing up goes to the mail app for the code and comes back: ten minutes is short.
    expect(maxAge(start.get(state!))).toBe('3600')
    expect(maxAge(start.get('return-to'))).toBe('3600')
  })
})
