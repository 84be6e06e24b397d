import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * Premium activities (issue 31 §4, decision 074): only members with premium save a seat or join
 * the notify list, the API refusing the others (403 `premium_required`) and telling the page so
 * (`viewer.premium_required`); premium never puts anyone ahead (routes.test.ts: the notify list).
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

async function member(premium: boolean) {
  const user = await createUser(database.db)
  if (premium) await database.db.insertInto('subscriptions').values({ user_id: user.id, plan: 'premium', status: 'active', current_period_end: new Date(Date.now() + 100 * 86_400_000) }).execute()
  const token = await api.signToken(user.id)
  return { user, call: (method: string, path: string, body?: unknown) => api.request(method, path, { token, ...(body === undefined ? {} : { body }) }) }
}

describe('a premium activity', () => {
  it('takes a seat from a member with premium only, and says so to the others', async () => {
    const host = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { is_premium: true, max_attendees: 1 })
    const [without, withPremium, waiting] = [await member(false), await member(true), await member(false)]
    expect((await without.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer.premium_required).toBe(true)
    const refused = await without.call('POST', `v1/experiences/${experience.id}/attendees`, { user_id: without.user.id })
    expect(refused.status).toBe(403)
    expect(refused.json.error.code).toBe('premium_required')
    expect((await withPremium.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer.premium_required).toBe(false)
    expect((await withPremium.call('POST', `v1/experiences/${experience.id}/attendees`, { user_id: withPremium.user.id })).status).toBe(200)
    // Full now: the notify list is refused too.
    expect((await waiting.call('POST', `v1/experiences/${experience.id}/waitlist`)).json.error.code).toBe('premium_required')
  })

  it('is open to everyone once the team takes the mark off', async () => {
    const host = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { is_premium: false })
    const anyone = await member(false)
    expect((await anyone.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer.premium_required).toBe(false)
    expect((await anyone.call('POST', `v1/experiences/${experience.id}/attendees`, { user_id: anyone.user.id })).status).toBe(200)
  })
})
