import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { createApiHarness, type ApiHarness, signedInMember } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { bucketOf, evaluateFlag, type FlagRow } from './evaluate.ts'

/**
 * Feature flags (issue 32 §3, decision 079): the evaluation (a stable, even split by member, the
 * rules by role, region and language, weighted variants), admins editing them through the API
 * (audited), each member's values through OpenFeature, and the impersonation kill switch.
 */
const flag = (overrides: Partial<FlagRow> = {}): FlagRow => ({ key: 'new-help-chat', enabled: true, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [], ...overrides })
const memberContext = (id: string) => ({ targetingKey: id, role: 'member', region: 'OR', language: 'en' })
const ids = Array.from({ length: 10_000 }, () => randomUUID())

describe('evaluating a flag', () => {
  it('splits 10,000 members evenly and stably: the same member always gets the same answer', () => {
    const half = flag({ rollout_percent: 50 })
    const on = ids.filter((id) => evaluateFlag(half, memberContext(id)).on)
    expect(on.length).toBeGreaterThan(4_800)
    expect(on.length).toBeLessThan(5_200)
    for (const id of ids.slice(0, 500)) expect(evaluateFlag(half, memberContext(id)).on).toBe(on.includes(id))
    // A wider rollout keeps everyone who had it (buckets are per flag and member, not drawn again).
    const wider = flag({ rollout_percent: 80 })
    expect(on.every((id) => evaluateFlag(wider, memberContext(id)).on)).toBe(true)
    // Another flag's split is independent of this one.
    const other = flag({ key: 'calm-colours', rollout_percent: 50 })
    const both = on.filter((id) => evaluateFlag(other, memberContext(id)).on).length
    expect(both).toBeGreaterThan(2_300)
    expect(both).toBeLessThan(2_700)
    expect(bucketOf('new-help-chat:x')).toBe(bucketOf('new-help-chat:x'))
  })

  it('gives weighted variants in proportion', () => {
    const split = flag({ variants: [{ name: 'calm', weight: 1 }, { name: 'bright', weight: 1 }, { name: 'classic', weight: 2 }] })
    const counts = new Map<string, number>()
    for (const id of ids) {
      const variant = evaluateFlag(split, memberContext(id)).variant!
      counts.set(variant, (counts.get(variant) ?? 0) + 1)
    }
    expect(counts.get('calm')! / 10_000).toBeCloseTo(0.25, 1)
    expect(counts.get('bright')! / 10_000).toBeCloseTo(0.25, 1)
    expect(counts.get('classic')! / 10_000).toBeCloseTo(0.5, 1)
  })

  it('follows its rules: off when disabled, limited by role, region and language; visitors only at 100%', () => {
    const id = ids[0]!
    expect(evaluateFlag(flag({ enabled: false }), memberContext(id))).toMatchObject({ on: false, reason: 'DISABLED' })
    expect(evaluateFlag(flag({ roles: ['support'] }), memberContext(id)).on).toBe(false)
    expect(evaluateFlag(flag({ roles: ['support'] }), { ...memberContext(id), role: 'support' }).on).toBe(true)
    expect(evaluateFlag(flag({ regions: ['WA'] }), memberContext(id)).on).toBe(false)
    expect(evaluateFlag(flag({ languages: ['fr', 'nl'] }), { ...memberContext(id), language: 'nl' }).on).toBe(true)
    const visitor = { targetingKey: null, role: 'visitor', region: null, language: 'en' }
    expect(evaluateFlag(flag({ rollout_percent: 99 }), visitor).on).toBe(false)
    expect(evaluateFlag(flag(), visitor).on).toBe(true)
  })
})

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

/** A member signed in to the API (`call` with their token). */
const person = (overrides: Partial<NewUser> = {}) => signedInMember(api, { last_sign_in_at: new Date(), ...overrides })

const change = { description: 'The help chat on every page', enabled: true, rollout_percent: 100, variants: [], roles: ['support'], regions: [], languages: [] }

describe('flags through the API', () => {
  it('lets admins create and change a flag, audited, and each member reads their own value at once', async () => {
    const admin = await person({ staff_role: 'admin' })
    const member = await person({ region: 'OR', locale: 'fr' })
    const support = await person({ staff_role: 'support' })
    expect((await member.call('PUT', 'v1/admin/flags/new-help-chat', change)).status).toBe(403)
    expect((await admin.call('PUT', 'v1/admin/flags/Not%20a%20key', change)).json.error.fields).toEqual({ key: ['key_invalid'] })
    const saved = await admin.call('PUT', 'v1/admin/flags/new-help-chat', change)
    expect(saved.json.data[0]).toMatchObject({ key: 'new-help-chat', enabled: true, roles: ['support'] })
    expect((await member.call('GET', 'v1/flags')).json.data[0]['new-help-chat']).toEqual({ on: false, variant: null })
    expect((await support.call('GET', 'v1/flags')).json.data[0]['new-help-chat']).toEqual({ on: true, variant: null })
    await admin.call('PUT', 'v1/admin/flags/new-help-chat', { ...change, roles: [], languages: ['fr'], variants: [{ name: 'panel', weight: 1 }] })
    expect((await member.call('GET', 'v1/flags')).json.data[0]['new-help-chat']).toEqual({ on: true, variant: 'panel' })
    expect((await api.request('GET', 'v1/flags')).json.data[0]['new-help-chat']).toEqual({ on: false, variant: null })
    const audit = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'data']).where('target_id', '=', 'new-help-chat').orderBy('id').execute()
    expect(audit.map((row) => row.action)).toEqual(['flag.save', 'flag.save'])
    expect(audit[1]!.data).toMatchObject({ before: { roles: ['support'] }, after: { roles: [], languages: ['fr'] } })
    expect((await admin.call('GET', 'v1/admin/flags')).json.data.map((entry: { key: string }) => entry.key)).toEqual(['banners', 'help-chat', 'host-numbers', 'impersonation', 'medicare-calls', 'new-help-chat', 'referrals'])
  })

  it('turns viewing as members off: nobody starts, and one under way ends', async () => {
    const admin = await person({ staff_role: 'admin' })
    const support = await person({ staff_role: 'support' })
    const [ann, bob] = [await person(), await person()]
    const started = await support.call('POST', `v1/admin/users/${ann.user.id}/impersonation`, { reason: 'Help' })
    expect(started.status).toBe(200)
    await admin.call('PUT', 'v1/admin/flags/impersonation', { ...change, description: 'Kill switch', roles: [], enabled: false })
    expect((await support.call('GET', 'v1/users/me', undefined, { 'x-impersonation': started.json.data[0].id })).json.error.code).toBe('impersonation_ended')
    expect((await support.call('POST', `v1/admin/users/${bob.user.id}/impersonation`, { reason: 'Help' })).json.error.code).toBe('impersonation_off')
    expect((await support.call('GET', `v1/admin/users/${bob.user.id}`)).json.data[0].can_impersonate).toBe(false)
    await admin.call('PUT', 'v1/admin/flags/impersonation', { ...change, roles: [], enabled: true })
    expect((await support.call('POST', `v1/admin/users/${bob.user.id}/impersonation`, { reason: 'Help' })).status).toBe(200)
  })
})
