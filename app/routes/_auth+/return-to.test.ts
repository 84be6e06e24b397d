import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { returnToCookie } from '#app/utils/auth.server.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import {
  createApiHarness,
  createUser,
  TEST_PUBLIC_URL,
  type ApiHarness,
} from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import { loader as authLoginLoader } from '../api+/auth.login.tsx'
import { action as localizeAction } from '../api+/localize.tsx'
import { loader as loginSuccessLoader } from './login-success.tsx'
import { loader as loginLoader } from './login.tsx'
import { loader as signupLoader } from './signup.tsx'

/**
 * Issue 10 §2: every route that redirects to a path the visitor supplies (`returnTo` in the
 * query, the form or the return-to cookie) keeps the browser on the site, whatever the path
 * hides: dot segments that collapse into `//host`, backslashes, encodings, tabs and newlines.
 */
const attacks = [
  'https://evil.example',
  '//evil.example',
  '/\\evil.example',
  '/%2F%2Fevil.example',
  '/./%2Fevil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/a/..//evil.example',
  '/a/%2e%2e//evil.example',
  '/%252e%252e//evil.example',
  '/.\\/evil.example',
  '/.%5C%5Cevil.example',
  '/%255C%255Cevil.example',
  '/.\t//evil.example',
  '/.%0A//evil.example',
]

let database: TestDatabase
let api: ApiHarness
let services: WebServices
/** The subject the fake token endpoint signs in, set by each sign-in test. */
let signingIn = ''

const tokenEndpoint = setupServer()

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  services = testWebServices(api, database.db)
  // The identity provider's token endpoint, as the web app calls it after sign-in.
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

const newContext = () => testContext(services)
const signedInCookie = (userId: string) => sessionCookie(api, services, userId)

/** A loader's or action's answer, returned or thrown. */
async function answer(run: () => Promise<unknown>): Promise<Response> {
  const result = await run().catch((thrown: unknown) => thrown)
  if (result instanceof Response) return result
  throw new Error(`Expected a response, got ${String(result)}`)
}

/** The redirect's target, checked to be on the site the way a browser resolves it. */
function expectLocationOnSite(response: Response, label: string) {
  expect(response.status, label).toBeGreaterThanOrEqual(300)
  expect(response.status, label).toBeLessThan(400)
  const location = response.headers.get('location') ?? ''
  expect(location, label).toMatch(/^\/(?![/\\])/)
  // eslint-disable-next-line no-control-regex
  expect(location, label).not.toMatch(/[\u0000-\u001f\u007f\\]/)
  const resolved = new URL(location, `${TEST_PUBLIC_URL}/login`)
  expect(resolved.origin, label).toBe(TEST_PUBLIC_URL)
  return resolved
}

/** `returnTo` both as a browser encodes it and pasted raw into the query string. */
function queries(target: string) {
  return [`returnTo=${encodeURIComponent(target)}`, `returnTo=${target}`]
}

function setCookies(response: Response) {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '')
}

describe('returnTo on every route that redirects to it (issue 10 §2)', () => {
  it('/login for a signed-in member stays on the site', async () => {
    const cookie = await signedInCookie((await createUser(database.db)).id)
    for (const attack of attacks) {
      for (const query of queries(attack)) {
        const request = new Request(`${TEST_PUBLIC_URL}/login?${query}`, { headers: { cookie } })
        const response = await answer(() => loginLoader({ request, context: newContext(), params: {} }))
        expectLocationOnSite(response, `/login?${query}`)
      }
    }
  })

  it('/login still returns a signed-in member to a good path', async () => {
    const cookie = await signedInCookie((await createUser(database.db)).id)
    const request = new Request(`${TEST_PUBLIC_URL}/login?returnTo=${encodeURIComponent('/activities/42?tab=chat')}`, {
      headers: { cookie },
    })
    const response = await answer(() => loginLoader({ request, context: newContext(), params: {} }))
    expect(response.headers.get('location')).toBe('/activities/42?tab=chat')
  })

  it('/login and /signup hand only a same-site path on to the identity provider', async () => {
    for (const [route, loader] of [
      ['/login', loginLoader],
      ['/signup', signupLoader],
    ] as const) {
      for (const attack of attacks) {
        for (const query of queries(attack)) {
          const request = new Request(`${TEST_PUBLIC_URL}${route}?${query}`)
          const response = await answer(() => loader({ request, context: newContext(), params: {} }))
          const next = expectLocationOnSite(response, `${route}?${query}`)
          expect(next.pathname).toBe('/api/auth/login')
          expect(next.searchParams.get('returnTo'), `${route}?${query}`).toBe('/')
        }
      }
    }
  })

  it('/api/auth/login keeps only a same-site path in the return-to cookie', async () => {
    for (const attack of attacks) {
      for (const query of queries(attack)) {
        const request = new Request(`${TEST_PUBLIC_URL}/api/auth/login?${query}`)
        const response = await answer(() => authLoginLoader({ request, context: newContext(), params: {} }))
        const kept: unknown = await returnToCookie.parse(setCookies(response).join('; '))
        expect(kept, `/api/auth/login?${query}`).toBe('/')
      }
    }
  })

  it('/login-success after signing in with a hostile returnTo lands on the site', async () => {
    const member = await createUser(database.db)
    signingIn = member.auth_subject ?? ''
    for (const attack of attacks) {
      const start = await answer(() =>
        authLoginLoader({
          request: new Request(`${TEST_PUBLIC_URL}/api/auth/login?returnTo=${encodeURIComponent(attack)}`),
          context: newContext(),
          params: {},
        }),
      )
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state')
      const request = new Request(`${TEST_PUBLIC_URL}/login-success?code=a-code&state=${state ?? ''}`, {
        headers: { cookie: setCookies(start).join('; ') },
      })
      const response = await answer(() => loginSuccessLoader({ request, context: newContext(), params: {} }))
      expect(expectLocationOnSite(response, `sign-in with returnTo=${attack}`).pathname).toBe('/welcome-back')
    }
  })

  it('/login-success also refuses a hostile return-to cookie set some other way', async () => {
    const member = await createUser(database.db)
    signingIn = member.auth_subject ?? ''
    for (const attack of attacks) {
      const start = await answer(() =>
        authLoginLoader({ request: new Request(`${TEST_PUBLIC_URL}/api/auth/login`), context: newContext(), params: {} }),
      )
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state')
      const oauthCookie = setCookies(start).filter((cookie) => !cookie.startsWith('return-to='))
      const hostile = (await returnToCookie.serialize(attack)).split(';')[0] ?? ''
      const request = new Request(`${TEST_PUBLIC_URL}/login-success?code=a-code&state=${state ?? ''}`, {
        headers: { cookie: [...oauthCookie, hostile].join('; ') },
      })
      const response = await answer(() => loginSuccessLoader({ request, context: newContext(), params: {} }))
      expectLocationOnSite(response, `return-to cookie ${attack}`)
    }
  })

  it('POST /api/localize goes back only to a same-site path', async () => {
    const cookie = await signedInCookie((await createUser(database.db)).id)
    for (const attack of attacks) {
      for (const headers of [{}, { cookie }] as Record<string, string>[]) {
        const request = new Request(`${TEST_PUBLIC_URL}/api/localize`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ lng: 'fr', returnTo: attack }),
        })
        const response = await answer(() => localizeAction({ request, context: newContext(), params: {} }))
        expect(expectLocationOnSite(response, `/api/localize returnTo=${attack}`).pathname).toBe('/')
      }
    }
  })
})
