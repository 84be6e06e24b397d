import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import type { FeatureFlagBody } from '#contract/flags.ts'
import type { MedicareState } from '#contract/medicare.ts'
import { createApiHarness, signedInMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { changeFlag } from '#tests/flags.ts'

/**
 * The `medicare-calls` feature flag (migration 0044, decision 086) through the API, against the
 * real database: on by default; off for a member, nothing is offered to them (the offer is null,
 * as with no agency) and an agreement is refused as when none is offered — but a member with a
 * consent in force still sees it and stops it, the agency is told, and the team's list still
 * holds the consents given. The flag is changed as an admin does (`PUT v1/admin/flags/medicare-calls`).
 */
let database: TestDatabase
let api: ApiHarness
let admin: Person

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  admin = await person({ staff_role: 'admin' })
  const named = await admin.call('PUT', 'v1/admin/medicare/partner', {
    name: 'Evergreen Benefits Agency',
    license: 'Oregon license 1234567',
    phone: '(503) 555-0100',
    disclaimer: 'Evergreen is not affiliated with any plan.',
    organization_count: 3,
    plan_count: 14,
    callback_days: 2,
    active: true,
    notices_email: 'stops@evergreen-benefits.example',
  })
  expect(named.status).toBe(200)
})

afterAll(async () => {
  await database?.drop()
})

function person(overrides: Partial<NewUser> = {}) {
  return signedInMember(api, { last_sign_in_at: new Date(), ...overrides })
}
type Person = Awaited<ReturnType<typeof person>>

let restore: (() => Promise<void>) | null = null

/** Changes the `medicare-calls` flag as an admin does at `/admin/flags`; put back as seeded after each test. */
async function setMedicareCalls(change: Partial<FeatureFlagBody>) {
  const back = await changeFlag(api, 'medicare-calls', change)
  restore ??= back
}

afterEach(async () => {
  await restore?.()
  restore = null
})

const stateOf = async (member: Person): Promise<MedicareState> => (await member.call('GET', 'v1/users/me/medicare')).json.data[0] as MedicareState

/** The member agrees to the words offered to them now. */
async function agree(member: Person) {
  const { offer } = await stateOf(member)
  return member.call('POST', 'v1/users/me/medicare', { phone: '503 555 0177', topics: ['hearing'], agree: true, version: offer!.version, partner_revision: offer!.partner_revision })
}

const listed = async () =>
  ((await admin.call('GET', 'v1/admin/medicare/export?format=json')).json.data as Array<{ consent_id: string }>).map((row) => row.consent_id)

describe('the medicare-calls flag', () => {
  it('exists on for everyone, saying what off does', async () => {
    const flag = (await admin.call('GET', 'v1/admin/flags')).json.data.find(
      (item: { key: string }) => item.key === 'medicare-calls',
    )
    expect(flag).toMatchObject({ enabled: true, rollout_percent: 100, roles: [], regions: [], languages: [] })
    expect(flag.description).toMatch(/Off: nothing is offered/)
    expect((await stateOf(await person())).offer).toMatchObject({ partner: { name: 'Evergreen Benefits Agency' } })
  })

  it('off: nothing is offered and an agreement is refused as when no agency is; on again, it is offered', async () => {
    const member = await person()
    const { offer } = await stateOf(member)
    await setMedicareCalls({ enabled: false })
    expect(await stateOf(member)).toEqual({ consent: null, offer: null })
    const refused = await member.call('POST', 'v1/users/me/medicare', { phone: '503 555 0177', topics: ['hearing'], agree: true, version: offer!.version, partner_revision: offer!.partner_revision })
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('medicare_not_offered')
    expect(await database.db.selectFrom('medicare_consents').select('id').where('user_id', '=', member.user.id).execute()).toEqual([])

    await setMedicareCalls({ enabled: true })
    expect((await agree(member)).status).toBe(201)
  })

  it('off: a member with a consent in force still sees it and stops it, the agency is told, and the list holds it until then', async () => {
    const member = await person()
    const given = await agree(member)
    expect(given.status).toBe(201)
    const consentId = given.json.data[0].consent.id as string
    await setMedicareCalls({ enabled: false })

    const state = await stateOf(member)
    expect(state.offer).toBeNull()
    expect(state.consent).toMatchObject({ id: consentId, formatted_phone: '(503) 555-0177', topics: ['hearing'] })
    // The team's list still holds the consents given (and the agency's page still counts them).
    expect(await listed()).toContain(consentId)
    expect((await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0].consents_in_force).toBeGreaterThanOrEqual(1)

    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    expect(await stateOf(member)).toEqual({ consent: null, offer: null })
    expect(await listed()).not.toContain(consentId)
    expect(
      await database.db.selectFrom('medicare_stop_notices').select(['consent_id', 'to_address']).where('consent_id', '=', consentId).execute(),
    ).toEqual([{ consent_id: consentId, to_address: 'stops@evergreen-benefits.example' }])
  })

  it('is evaluated for the member: on in one language only, only those members are offered calls', async () => {
    const english = await person({ locale: 'en' })
    const french = await person({ locale: 'fr' })
    await setMedicareCalls({ languages: ['en'] })
    expect((await stateOf(english)).offer).not.toBeNull()
    expect((await stateOf(french)).offer).toBeNull()
  })
})
