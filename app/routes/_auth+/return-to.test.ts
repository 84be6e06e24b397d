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
import { createDocumentHandler } from '#tests/web-document.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import * as company from '../_content+/company.$page.tsx'
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

/**
 * Signs `member` in the way the browser does: /api/auth/login?returnTo=…, then back from the
 * identity provider at /login-success (with `query`, a code by default). Answers the last step.
 */
async function signInFrom(member: { auth_subject: string | null }, returnTo: string, query = 'code=a-code') {
  signingIn = member.auth_subject ?? ''
  const start = await answer(() =>
    authLoginLoader({
      request: new Request(`${TEST_PUBLIC_URL}/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`),
      context: newContext(),
      params: {},
    }),
  )
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state')
  const request = new Request(`${TEST_PUBLIC_URL}/login-success?${query}&state=${state ?? ''}`, {
    headers: { cookie: setCookies(start).join('; ') },
  })
  return answer(() => loginSuccessLoader({ request, context: newContext(), params: {} }))
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
    for (const attack of attacks) {
      const response = await signInFrom(member, attack)
      expect(expectLocationOnSite(response, `sign-in with returnTo=${attack}`).pathname).toBe('/')
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

describe('where signing in and signing up lead (issue 12 §4)', () => {
  const day = 24 * 60 * 60 * 1000
  const activity = '/activities/42?tab=chat'
  const welcomeBackTo = `/welcome-back?returnTo=${encodeURIComponent(activity)}`

  it('a member who signed in lately goes straight back to where they were, and is told they are signed in', async () => {
    for (const last of [new Date(Date.now() - day), null]) {
      const response = await signInFrom(await createUser(database.db, { last_sign_in_at: last }), activity)
      expect(response.headers.get('location'), `last signed in ${String(last)}`).toBe(activity)
      expect(setCookies(response).some((cookie) => cookie.startsWith('toast='))).toBe(true)
    }
  })

  it('so does a plain sign-in from the home page: no stop on /welcome-back', async () => {
    const response = await signInFrom(await createUser(database.db, { last_sign_in_at: new Date(Date.now() - 89 * day) }), '/')
    expect(response.headers.get('location')).toBe('/')
  })

  it('a member back after 90 days or more is welcomed on /welcome-back, which knows where to go next', async () => {
    const away = await createUser(database.db, { last_sign_in_at: new Date(Date.now() - 120 * day) })
    expect((await signInFrom(away, activity)).headers.get('location')).toBe(welcomeBackTo)
    // The sign-in is recorded: the next one is not a long absence.
    expect((await signInFrom(away, activity)).headers.get('location')).toBe(activity)
    const alsoAway = await createUser(database.db, { last_sign_in_at: new Date(Date.now() - 365 * day) })
    expect((await signInFrom(alsoAway, '/')).headers.get('location')).toBe('/welcome-back')
  })

  it('a new member goes through /get-started, which keeps where to go next', async () => {
    const fresh = await createUser(database.db, { onboarded_at: null, state: 'created' })
    expect((await signInFrom(fresh, activity)).headers.get('location')).toBe(`/get-started?returnTo=${encodeURIComponent(activity)}`)
    const another = await createUser(database.db, { onboarded_at: null, state: 'created' })
    expect((await signInFrom(another, '/')).headers.get('location')).toBe('/get-started')
  })

  it('a member who stopped halfway through onboarding resumes at their step (issue 13 §6)', async () => {
    const halfway = await createUser(database.db, { onboarding_step: 'profile-photo' })
    expect((await signInFrom(halfway, activity)).headers.get('location')).toBe(`/get-started/profile-photo?returnTo=${encodeURIComponent(activity)}`)
    const done = await createUser(database.db, { onboarding_step: 'done' })
    expect((await signInFrom(done, activity)).headers.get('location')).toBe(activity)
  })

  it('cancelling sign-in goes Home, never back into sign-in, and forgets the email typed', async () => {
    // A members-only page would send the member straight back to the sign-in they cancelled.
    for (const from of [activity, '/create-activity']) {
      const response = await signInFrom(await createUser(database.db), from, 'error=access_denied')
      expect(response.headers.get('location')).toBe('/')
      expect(response.headers.getSetCookie().some((cookie) => /^identity-step=;.*Max-Age=0/i.test(cookie))).toBe(true)
    }
  })

  it('/signup for a member already signed in goes to returnTo, on the site', async () => {
    const cookie = await signedInCookie((await createUser(database.db)).id)
    for (const [target, expected] of [
      [activity, activity],
      ['//evil.example', '/'],
    ] as const) {
      const request = new Request(`${TEST_PUBLIC_URL}/signup?returnTo=${encodeURIComponent(target)}`, { headers: { cookie } })
      expect((await answer(() => signupLoader({ request, context: newContext(), params: {} }))).headers.get('location')).toBe(expected)
    }
  })
})

describe('the Sign in and Join links of every page come back to it (issue 12 §4)', () => {
  const handle = createDocumentHandler([{ id: 'routes/_content+/company.$page', path: 'company/:page', module: company as never }])

  async function signInLinks(path: string) {
    const html = await (await handle(new Request(`${TEST_PUBLIC_URL}${path}`), newContext())).text()
    return [...html.matchAll(/href="(\/(?:login|signup)[^"]*)"/g)].map(([, href]) => href?.replace(/&amp;/g, '&'))
  }

  it('in the header and the bottom bar', async () => {
    const here = encodeURIComponent('/company/about?from=footer')
    expect(await signInLinks('/company/about?from=footer')).toEqual([`/login?returnTo=${here}`, `/signup?returnTo=${here}`, `/login?returnTo=${here}`])
  })
})
