import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { staffOverviewSchema, type StaffOverview, type StaffRole } from '#contract/staff.ts'
import { createApiHarness, type ApiHarness, signedInMember } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The team (issue 32 §1, decision 077): `/admin`'s overview shows each role its own tools with what
 * waits in them; only admins give, change and take back roles, each change audited, and a new role
 * holds from the member's very next request.
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

/** A member signed in to the API (`call` with their token). */
const person = (overrides: Partial<NewUser> = {}) => signedInMember(api, overrides)

describe('the team’s start page', () => {
  it('shows each role the tools it may use, with what waits in each, and nothing to members', async () => {
    const reporter = await person()
    const reported = await person()
    await database.db.insertInto('reports').values({ reporter_id: reporter.user.id, reported_user_id: reported.user.id, reason: 'something_else' }).execute()
    const overview = async (role: StaffRole): Promise<StaffOverview> => staffOverviewSchema.parse((await (await person({ staff_role: role })).call('GET', 'v1/admin/overview')).json.data[0])

    expect(await overview('admin')).toMatchObject({ role: 'admin', tools: ['members', 'reports', 'verifications', 'support', 'payments', 'partners', 'medicare', 'staff', 'flags', 'banners', 'analytics', 'audit'] })
    const moderator = await overview('moderator')
    expect(moderator).toEqual({ role: 'moderator', tools: ['members', 'reports', 'verifications', 'analytics'], attention: { reports: expect.any(Number), verifications: expect.any(Number) } })
    expect(moderator.attention.reports).toBeGreaterThanOrEqual(1)
    expect(await overview('support')).toEqual({ role: 'support', tools: ['members', 'support', 'analytics'], attention: { support: 0 } })
    // A member writes to support: one conversation waits, until support marks it done.
    const asking = await person()
    const channel = (await asking.call('POST', 'v1/support/message-channel')).json.data[0].id as string
    expect((await asking.call('POST', `v1/chat/message-channels/${channel}/messages`, { text: 'How do I change my city?' })).status).toBe(201)
    expect((await overview('support')).attention).toEqual({ support: 1 })
    expect((await (await person({ staff_role: 'support' })).call('POST', `v1/admin/support/${channel}/done`)).status).toBe(200)
    expect((await overview('support')).attention).toEqual({ support: 0 })
    expect(await overview('finance')).toEqual({ role: 'finance', tools: ['members', 'payments', 'partners', 'medicare', 'analytics'], attention: { disputes: expect.any(Number) } })
    expect((await reporter.call('GET', 'v1/admin/overview')).status).toBe(403)
  })
})

describe('roles on the team', () => {
  it('an admin gives a role by email, changes it and takes it back, each change audited; the role holds from the next request', async () => {
    const admin = await person({ staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor' })
    const ruth = await person({ first_name: 'Ruth', last_name: 'Ó Súilleabháin', email: 'Ruth.Osullivan@Example.com' })
    expect((await ruth.call('GET', 'v1/admin/reports')).status).toBe(403)

    const granted = await admin.call('POST', 'v1/admin/staff', { email: ' ruth.osullivan@example.com ', role: 'moderator' })
    expect(granted.json.data[0]).toEqual({ id: ruth.user.id, name: 'Ruth Ó Súilleabháin', email: 'Ruth.Osullivan@Example.com', role: 'moderator' })
    expect((await ruth.call('GET', 'v1/admin/reports')).status).toBe(200)
    expect((await ruth.call('GET', 'v1/admin/fees')).status).toBe(403)
    expect((await admin.call('GET', 'v1/admin/staff')).json.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: ruth.user.id, role: 'moderator' })]))

    expect((await admin.call('PUT', `v1/admin/staff/${ruth.user.id}`, { role: 'finance' })).json.data).toEqual([expect.objectContaining({ role: 'finance' })])
    expect((await ruth.call('GET', 'v1/admin/fees')).status).toBe(200)
    expect((await ruth.call('GET', 'v1/admin/reports')).status).toBe(403)
    // A team member cannot give roles, their own included.
    expect((await ruth.call('PUT', `v1/admin/staff/${ruth.user.id}`, { role: 'admin' })).status).toBe(403)

    expect((await admin.call('PUT', `v1/admin/staff/${ruth.user.id}`, { role: null })).json.data).toEqual([])
    expect((await ruth.call('GET', 'v1/admin/overview')).status).toBe(403)
    const audit = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'data']).where('target_id', '=', ruth.user.id).orderBy('created_at').orderBy('id').execute()
    expect(audit.map((row) => ({ ...row, data: row.data }))).toEqual([
      { actor_id: admin.user.id, action: 'staff.role', data: { from: null, to: 'moderator' } },
      { actor_id: admin.user.id, action: 'staff.role', data: { from: 'moderator', to: 'finance' } },
      { actor_id: admin.user.id, action: 'staff.role', data: { from: 'finance', to: null } },
    ])
  })

  it('refuses one’s own role, a suspended member, an unknown email and an unknown role', async () => {
    const admin = await person({ staff_role: 'admin' })
    const suspended = await person({ is_suspended: true, email: 'suspended-staff@example.com' })
    expect((await admin.call('PUT', `v1/admin/staff/${admin.user.id}`, { role: null })).json.error.code).toBe('own_role')
    expect((await admin.call('POST', 'v1/admin/staff', { email: 'suspended-staff@example.com', role: 'support' })).json.error.code).toBe('member_suspended')
    expect((await admin.call('POST', 'v1/admin/staff', { email: 'nobody-here@example.com', role: 'support' })).json.error.fields).toEqual({ email: ['member_not_found'] })
    expect((await admin.call('POST', 'v1/admin/staff', { email: '', role: 'chief' })).json.error.fields).toEqual({ email: ['email_required'], role: ['role_invalid'] })
    expect((await admin.call('PUT', 'v1/admin/staff/not-an-id', { role: 'support' })).status).toBe(404)
    expect(await database.db.selectFrom('users').select('staff_role').where('id', '=', suspended.user.id).executeTakeFirstOrThrow()).toEqual({ staff_role: null })
  })
})
