import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { loadExplore } from './explore.server.ts'

/** Issue 11 §6: the cookie that remembers Explore's filters is Secure on https, as the session's is. */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

const isSecure = (cookie: string) => cookie.split(';').slice(1).some((part) => part.trim().toLowerCase() === 'secure')

describe('the explore cookie', () => {
  it('is Secure on https (secureCookies) and not on plain http', async () => {
    const request = () => new Request(`${TEST_PUBLIC_URL}/activities?date=today&distance=10`)
    const plain = web.services.config
    try {
      web.services.config = { ...plain, secureCookies: true }
      const secure = await loadExplore(request(), web.newContext())
      expect(secure.cookie).toMatch(/^explore=/)
      expect(isSecure(secure.cookie), secure.cookie).toBe(true)
    } finally {
      web.services.config = plain
    }
    const insecure = await loadExplore(request(), web.newContext())
    expect(isSecure(insecure.cookie), insecure.cookie).toBe(false)
  })
})
