import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader as rootLoader } from '#app/root.tsx'
import {
  createApiHarness,
  createUser,
  TEST_PUBLIC_URL,
  type ApiHarness,
} from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import { getAuthState, startSession } from './auth.server.ts'
import type { WebServices } from './load-context.ts'
import { getSession } from './session.server.ts'

/**
 * Spec §4's auth gate, through the real API and the real session store: a suspended or banned
 * member is treated as signed out, told why, and their session ends for good.
 */
let database: TestDatabase
let api: ApiHarness
let services: WebServices

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  services = testWebServices(api, database.db)
})

afterAll(async () => {
  await database?.drop()
})

const newContext = () => testContext(services)

/** A signed-in browser: a session record holding a fresh access token, and its cookie. */
const signedInCookie = (userId: string) => sessionCookie(api, services, userId)

function pageRequest(cookie: string) {
  return new Request(`${TEST_PUBLIC_URL}/`, { headers: { cookie } })
}

async function sessionRows(userId: string) {
  return database.db.selectFrom('web_sessions').select('id').where('user_id', '=', userId).execute()
}

describe('the auth gate (spec §4)', () => {
  it('lets an active member in', async () => {
    const member = await createUser(database.db)
    const state = await getAuthState(pageRequest(await signedInCookie(member.id)), newContext())
    expect(state).toMatchObject({ status: 'signed-in', user: { id: member.id } })
  })

  for (const [label, overrides] of [
    ['suspended', { is_suspended: true }],
    ['in the suspended state', { state: 'suspended' as const }],
    ['banned', { banned: true }],
  ] as const) {
    it(`treats a member who is ${label} as signed out, says why and ends the session`, async () => {
      const member = await createUser(database.db)
      const cookie = await signedInCookie(member.id)
      await database.db.updateTable('users').set(overrides).where('id', '=', member.id).execute()

      const response = await rootLoader({
        request: pageRequest(cookie),
        context: newContext(),
        params: {},
      })
      expect(response.data.user).toBeNull()
      expect(response.data.suspended).toBe(true)
      expect(response.data.toast).toEqual({ kind: 'error', key: 'errors.user_suspended' })
      // The browser is told to drop the cookie, and the record is gone even if it does not.
      expect(new Headers(response.init?.headers).get('set-cookie')).toMatch(
        /^session=;.*Expires=Thu, 01 Jan 1970/i,
      )
      expect(await sessionRows(member.id)).toEqual([])

      // Lifting the suspension does not revive the old session: the member signs in again.
      await database.db
        .updateTable('users')
        .set({ is_suspended: false, banned: false, state: 'active' })
        .where('id', '=', member.id)
        .execute()
      expect(await getAuthState(pageRequest(cookie), newContext())).toEqual({
        status: 'signed-out',
      })
    })
  }
})

describe('signing in as a suspended member (/login-success, spec §8)', () => {
  it('says user_suspended instead of a 500, and leaves no session behind', async () => {
    const member = await createUser(database.db, { is_suspended: true })
    // The browser still holds an earlier session: signing in ends it, whoever it was.
    const earlier = await createUser(database.db)
    const cookie = await signedInCookie(earlier.id)
    const tokens = { accessToken: await api.signToken(member.id), refreshToken: null, idToken: null }

    const refusal: unknown = await startSession(pageRequest(cookie), newContext(), tokens).then(
      () => null,
      (thrown: unknown) => thrown,
    )
    expect(refusal).toBeInstanceOf(Response)
    const response = refusal as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/')
    const cookies = response.headers.getSetCookie()
    expect(cookies.some((line) => /^session=;.*Expires=Thu, 01 Jan 1970/i.test(line))).toBe(true)
    const toastCookie = cookies.find((line) => line.startsWith('toast='))
    expect(toastCookie).toBeDefined()

    // The toast the next page shows is §8's user_suspended message.
    const toastRequest = new Request(`${TEST_PUBLIC_URL}/`, { headers: { cookie: (toastCookie ?? '').split(';')[0] ?? '' } })
    const home = await rootLoader({ request: toastRequest, context: newContext(), params: {} })
    expect(home.data.toast).toEqual({ kind: 'error', key: 'errors.user_suspended' })
    expect(home.data.user).toBeNull()

    expect(await sessionRows(member.id)).toEqual([])
    expect(await sessionRows(earlier.id)).toEqual([])
  })
})

// A page's loaders run side by side (the root's and the page's): the session record is read once
// for all of them, and a read that failed is not kept for the rest of the request.
/** The real session store, counting its reads; `failFirst` makes the first read fail as an outage would. */
function countingServices(options: { failFirst?: boolean } = {}) {
  let reads = 0
  const counted: WebServices = {
    ...services,
    sessions: {
      ...services.sessions,
      read: async (id) => {
        reads += 1
        if (options.failFirst && reads === 1) throw new Error('connect ECONNREFUSED')
        return services.sessions.read(id)
      },
    },
  }
  return { services: counted, reads: () => reads }
}

describe('getSession', () => {
  it('reads the session record once for loaders asking at the same time', async () => {
    const member = await createUser(database.db)
    const cookie = await sessionCookie(api, services, member.id)
    const counting = countingServices()
    const context = testContext(counting.services)
    const request = new Request(`${TEST_PUBLIC_URL}/notifications`, { headers: { cookie } })

    const [rootSession, pageSession] = await Promise.all([getSession(request, context), getSession(request, context)])
    expect(counting.reads()).toBe(1)
    expect(rootSession.get('userId')).toBe(member.id)
    expect(pageSession).toBe(rootSession)
  })

  it('answers 503 when the store is down, and reads again when asked later in the same request', async () => {
    const member = await createUser(database.db)
    const cookie = await sessionCookie(api, services, member.id)
    const counting = countingServices({ failFirst: true })
    const context = testContext(counting.services)
    const request = new Request(`${TEST_PUBLIC_URL}/notifications`, { headers: { cookie } })

    const failed = await getSession(request, context).catch((error: unknown) => error)
    expect(failed).toMatchObject({ init: { status: 503 } })
    const session = await getSession(request, context)
    expect(session.get('userId')).toBe(member.id)
    expect(counting.reads()).toBe(2)
  })
})
