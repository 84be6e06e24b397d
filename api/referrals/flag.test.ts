import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import type { FeatureFlagBody } from '#contract/flags.ts'
import {
  createApiHarness,
  createExperience,
  signedInMember,
  type ApiHarness,
} from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { changeFlag } from '#tests/flags.ts'

/**
 * The `referrals` feature flag (migration 0044, decision 087) through the API, against the real
 * database: on by default; off for a member, their invite page, settings and "Invite a friend"
 * answer 404 as addresses that do not exist, their links already sent are neither counted nor
 * named nor credited at sign-up or at a first activity; on again, everything is back. The flag is
 * changed as an admin does (`PUT v1/admin/flags/referrals`), which the API reads again at once.
 */
let database: TestDatabase
let api: ApiHarness
let admin: Member

const HOUR = 3_600_000
const DAY = 24 * HOUR

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  admin = await member({ staff_role: 'admin' })
})

afterAll(async () => {
  await database?.drop()
})

function member(overrides: Partial<NewUser> = {}) {
  return signedInMember(api, { created_at: new Date(Date.now() - 400 * DAY), ...overrides })
}
type Member = Awaited<ReturnType<typeof member>>

/** An older member who shares their invite link (asked while referrals are on): their code. */
async function referrer(overrides: Partial<NewUser> = {}) {
  const who = await member(overrides)
  const summary = await who.call('GET', 'v1/users/me/referrals')
  expect(summary.status).toBe(200)
  return { ...who, code: summary.json.data[0].code as string }
}

let restore: (() => Promise<void>) | null = null

/** Changes the `referrals` flag as an admin does at `/admin/flags`; put back as seeded after each test. */
async function setReferrals(change: Partial<FeatureFlagBody>) {
  const back = await changeFlag(api, 'referrals', change)
  restore ??= back
}

afterEach(async () => {
  await restore?.()
  restore = null
})

const clicksOf = async (code: string) =>
  (
    await database.db
      .selectFrom('referral_codes')
      .select('clicks')
      .where('code', '=', code)
      .executeTakeFirstOrThrow()
  ).clicks
const referralOf = (userId: string) =>
  database.db
    .selectFrom('referrals')
    .select(['referrer_id', 'status'])
    .where('referred_user_id', '=', userId)
    .executeTakeFirst()
const toldTimes = async (userId: string) =>
  (
    await database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('type', '=', 'referral.qualified')
      .execute()
  ).length

describe('the referrals flag', () => {
  it('exists on for everyone, saying what off does', async () => {
    const flag = (await admin.call('GET', 'v1/admin/flags')).json.data.find(
      (item: { key: string }) => item.key === 'referrals',
    )
    expect(flag).toMatchObject({ enabled: true, rollout_percent: 100, roles: [], regions: [], languages: [] })
    expect(flag.description).toMatch(/Off: none of it is offered/)
    const margaret = await member()
    expect((await margaret.call('GET', 'v1/flags')).json.data[0].referrals).toEqual({ on: true, variant: null })
  })

  it('off: the member’s own referral calls answer 404 as addresses that do not exist, and no invitation is sent', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    const experience = await createExperience(database.db, margaret.user.id, { title: 'Garden walk' })
    await setReferrals({ enabled: false })

    for (const [method, path, body] of [
      ['GET', 'v1/users/me/referrals', undefined],
      ['PUT', 'v1/users/me/referrals', { show_first_name: true }],
      ['POST', `v1/experiences/${experience.id}/invite-friend`, { email: 'new.friend@example.net' }],
    ] as const) {
      const answer = await margaret.call(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.json.error.code).toBe('not_found')
    }
    expect(
      await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', 'new.friend@example.net').execute(),
    ).toEqual([])
    expect(
      (await database.db.selectFrom('referral_codes').select('show_first_name').where('user_id', '=', margaret.user.id).executeTakeFirstOrThrow())
        .show_first_name,
    ).toBe(false)

    await setReferrals({ enabled: true })
    expect((await margaret.call('GET', 'v1/users/me/referrals')).status).toBe(200)
    expect(
      (await margaret.call('POST', `v1/experiences/${experience.id}/invite-friend`, { email: 'new.friend@example.net' })).status,
    ).toBe(200)
  })

  it('off: a link already sent names nobody, is not counted, and a sign-up through it is not recorded (the campaign is)', async () => {
    const margaret = await referrer({ first_name: 'Margaret' })
    await margaret.call('PUT', 'v1/users/me/referrals', { show_first_name: true })
    await setReferrals({ enabled: false })

    expect((await api.request('GET', `v1/referrals/${margaret.code}`)).status).toBe(404)
    expect((await api.request('POST', `v1/referrals/${margaret.code}/clicks`)).status).toBe(404)
    expect(await clicksOf(margaret.code)).toBe(0)

    const ruth = await member({ created_at: new Date() })
    const arrived = await ruth.call('POST', 'v1/users/me/attribution', { referral_code: margaret.code, utm_source: 'friends' })
    expect(arrived.json.data).toEqual([{ sign_up: true }])
    expect(await referralOf(ruth.user.id)).toBeUndefined()
    expect(
      await database.db.selectFrom('signup_attributions').select('utm_source').where('user_id', '=', ruth.user.id).executeTakeFirst(),
    ).toEqual({ utm_source: 'friends' })

    await setReferrals({ enabled: true })
    expect((await api.request('GET', `v1/referrals/${margaret.code}`)).json.data).toEqual([{ first_name: 'Margaret' }])
    expect((await api.request('POST', `v1/referrals/${margaret.code}/clicks`)).status).toBe(204)
    expect(await clicksOf(margaret.code)).toBe(1)
  })

  it('off: a friend who joined earlier is not credited at a first activity; on again, the next marking credits them', async () => {
    const margaret = await referrer()
    const ruth = await member({ created_at: new Date() })
    await ruth.call('POST', 'v1/users/me/attribution', { referral_code: margaret.code })
    expect(await referralOf(ruth.user.id)).toEqual({ referrer_id: margaret.user.id, status: 'signed_up' })
    const host = await member()
    const experience = await createExperience(database.db, host.user.id, { start_at: new Date(Date.now() - HOUR), attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: ruth.user.id }).execute()
    const markPresent = () => host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [{ user_id: ruth.user.id, present: true }] })

    await setReferrals({ enabled: false })
    expect((await markPresent()).status).toBe(200)
    expect((await referralOf(ruth.user.id))?.status).toBe('signed_up')
    expect(await toldTimes(margaret.user.id)).toBe(0)

    await setReferrals({ enabled: true })
    expect((await markPresent()).status).toBe(200)
    expect((await referralOf(ruth.user.id))?.status).toBe('qualified')
    expect(await toldTimes(margaret.user.id)).toBe(1)
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]).toMatchObject({ joined: 1, attended: 1 })
  })

  it('is evaluated for the member whose invite it is: on in one state only, only that state’s members have it', async () => {
    const oregon = await referrer({ region: 'OR' })
    const florida = await referrer({ region: 'FL' })
    await setReferrals({ regions: ['FL'] })
    expect((await oregon.call('GET', 'v1/users/me/referrals')).status).toBe(404)
    expect((await florida.call('GET', 'v1/users/me/referrals')).status).toBe(200)
    // A visitor following each link: the Floridian's counts, the Oregonian's is nobody's.
    expect((await api.request('POST', `v1/referrals/${oregon.code}/clicks`)).status).toBe(404)
    expect((await api.request('POST', `v1/referrals/${florida.code}/clicks`)).status).toBe(204)
  })
})
