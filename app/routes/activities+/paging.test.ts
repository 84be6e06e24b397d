import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader as exploreLoader } from '#app/routes/activities+/_index.tsx'
import { loader as attendingLoader } from '#app/routes/attending.tsx'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'

/**
 * Issue 10 §8: the web pages read `page` as plain decimal digits, as the API does: `0x10` is not
 * page 16, `1e1` not page 10. Anything that is not a page number shows the first page.
 */
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

const pages = [
  ['2', 2],
  ['0x10', 1],
  ['1e1', 1],
  ['+3', 1],
  ['2.5', 1],
  ['', 1],
] as const

describe('page numbers in the address', () => {
  it.each(pages)('Explore reads page=%j as page %i', async (raw, expected) => {
    const request = new Request(`${TEST_PUBLIC_URL}/activities?page=${encodeURIComponent(raw)}`)
    const response = await exploreLoader({ request, context: web.newContext(), params: {} })
    expect(response.data.page).toBe(expected)
  })

  it.each(pages)('My activities reads page=%j as page %i', async (raw, expected) => {
    const member = await createUser(database.db)
    const headers = { cookie: await web.signedInCookie(member.id) }
    const request = new Request(`${TEST_PUBLIC_URL}/attending?page=${encodeURIComponent(raw)}`, { headers })
    expect((await attendingLoader({ request, context: web.newContext(), params: {} })).page).toBe(expected)
  })
})
