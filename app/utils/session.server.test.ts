import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import type { WebServices } from './load-context.ts'
import { getSession } from './session.server.ts'

/**
 * A page's loaders run side by side (the root's and the page's): the session record is read once
 * for all of them, and a read that failed is not kept for the rest of the request.
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
