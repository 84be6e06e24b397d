import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { action } from './_index.tsx'

/** Onboarding's "About you" (spec §2 onboarding start), as the browser posts it without JavaScript. */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

async function newMember(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { onboarded_at: null, state: 'created', ...overrides })
  return { user, cookie: await web.signedInCookie(user.id) }
}

async function post(cookie: string, fields: [string, string][], query = '') {
  const body = new URLSearchParams(fields)
  const request = new Request(`${TEST_PUBLIC_URL}/get-started${query}`, { method: 'POST', headers: { cookie }, body })
  return (await action({ request, context: web.newContext(), params: {} }).catch((thrown: unknown) => thrown)) as Response
}

const about: [string, string][] = [
  ['firstName', 'Walter'],
  ['lastName', 'Hughes'],
  ['reasons', 'new_people'],
]

async function savedGender(id: string) {
  return (await database.db.selectFrom('users').select(['gender', 'onboarded_at']).where('id', '=', id).executeTakeFirstOrThrow())
}

describe('gender is optional (issue 12 §4)', () => {
  it('saves no gender when none is chosen', async () => {
    const { user, cookie } = await newMember()
    const response = await post(cookie, about)
    expect(response.status).toBe(302)
    expect(await savedGender(user.id)).toMatchObject({ gender: null, onboarded_at: expect.any(Date) })
  })

  it('saves "Prefer not to say" as no gender, also over one chosen before', async () => {
    const { user, cookie } = await newMember({ gender: 'woman' })
    const response = await post(cookie, [...about, ['gender', 'prefer_not_to_say']])
    expect(response.status).toBe(302)
    expect((await savedGender(user.id)).gender).toBeNull()
  })

  it('saves one of the options of spec §3', async () => {
    const { user, cookie } = await newMember()
    await post(cookie, [...about, ['gender', 'other']])
    expect((await savedGender(user.id)).gender).toBe('other')
  })
})

describe('returnTo (issue 12 §4)', () => {
  it('goes on to the next step, carrying where the member was before signing up', async () => {
    const { user, cookie } = await newMember()
    const response = await post(cookie, about, `?index&returnTo=${encodeURIComponent('/activities/42')}`)
    expect(response.headers.get('location')).toBe(`/get-started/location?returnTo=${encodeURIComponent('/activities/42')}`)
    // Remembered, so that a member who stops here resumes here after signing in (issue 13 §6).
    const saved = await database.db.selectFrom('users').select('onboarding_step').where('id', '=', user.id).executeTakeFirstOrThrow()
    expect(saved.onboarding_step).toBe('location')
  })

  it('only when it is a path on the site', async () => {
    const { cookie } = await newMember()
    const response = await post(cookie, about, `?index&returnTo=${encodeURIComponent('/.//evil.example')}`)
    expect(response.headers.get('location')).toBe('/get-started/location')
  })
})
