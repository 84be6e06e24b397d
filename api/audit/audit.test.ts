import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLogPageSchema, type AuditEntry } from '#contract/audit.ts'
import { createApiHarness, signedInMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The team's audit log (issue 32 §2, decision 089) through the API: after a support agent viewed
 * Circle 55 as a member and acted for her, an admin reads who did what as whom; the filters (team
 * member, member, kind) and the pages, newest first; and nobody else on the team reads it.
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

type Caller = Awaited<ReturnType<typeof signedInMember>>

/** The audit log as `admin` reads it with `query`, checked against the contract. */
async function read(admin: Caller, query = '') {
  const response = await admin.call('GET', `v1/admin/audit-log${query ? `?${query}` : ''}`)
  expect(response.status).toBe(200)
  return auditLogPageSchema.parse(response.json)
}
const actions = (entries: AuditEntry[]) => entries.map((entry) => entry.action)

describe('the audit log', () => {
  it('tells an admin who did what as whom after a support agent viewed Circle 55 as a member and acted for her', async () => {
    const admin = await signedInMember(api, { staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor' })
    const sam = await signedInMember(api, { staff_role: 'support', first_name: 'Sam', last_name: 'Rivera', last_sign_in_at: new Date() })
    const margaret = await signedInMember(api, { first_name: 'Margaret', last_name: 'Kowalczyk', city: 'Portland' })

    const started = await sam.call('POST', `v1/admin/users/${margaret.user.id}/impersonation`, { reason: 'She says her city is wrong.' })
    expect(started.status).toBe(200)
    const impersonation = started.json.data[0].id as string
    const as = { 'x-impersonation': impersonation }
    expect((await sam.call('PUT', 'v1/users/me', { city: 'Salem' }, as)).status).toBe(403)
    expect((await sam.call('POST', 'v1/impersonation/acting', { reason: 'She asked me on the phone to change it.' }, as)).status).toBe(200)
    expect((await sam.call('PUT', 'v1/users/me', { city: 'Salem' }, as)).status).toBe(200)
    expect((await sam.call('DELETE', 'v1/impersonation', undefined, as)).status).toBe(204)

    const { data, metadata } = await read(admin, `staff=${sam.user.id}`)
    expect(metadata.next_before).toBeNull()
    expect(actions(data)).toEqual(['impersonation.stop', 'impersonation.call', 'impersonation.acting', 'impersonation.call', 'impersonation.start'])
    const samAsHimself = { id: sam.user.id, display_name: 'Sam R.' }
    const margaretNamed = { id: margaret.user.id, display_name: 'Margaret K.' }
    const [stop, changed, acting, refused, start] = data as [AuditEntry, AuditEntry, AuditEntry, AuditEntry, AuditEntry]
    expect(start).toMatchObject({ kind: 'impersonation', who: samAsHimself, as_member: null, target: { type: 'user', ...margaretNamed }, details: [{ key: 'reason', value: 'She says her city is wrong.' }] })
    expect(refused).toMatchObject({
      who: samAsHimself,
      as_member: margaretNamed,
      target: { type: 'request', id: 'PUT /v1/users/me', display_name: null },
      details: [
        { key: 'impersonation_id', value: impersonation },
        { key: 'status', value: 403 },
      ],
    })
    expect(acting).toMatchObject({ who: samAsHimself, as_member: null, details: [{ key: 'reason', value: 'She asked me on the phone to change it.' }] })
    expect(changed).toMatchObject({ who: samAsHimself, as_member: margaretNamed, target: { id: 'PUT /v1/users/me' }, details: [{ key: 'impersonation_id', value: impersonation }, { key: 'status', value: 200 }] })
    expect(stop).toMatchObject({ who: samAsHimself, target: { type: 'user', ...margaretNamed }, details: [{ key: 'end', value: 'stopped' }] })
    for (const entry of data) {
      expect(Date.parse(entry.at)).not.toBeNaN()
      expect(entry.request_id).toEqual(expect.any(String))
    }
    expect(new Set(data.map((entry) => entry.request_id)).size).toBe(5)

    // Margaret's own changes name her alone; a team member suspended since shows as the generic member label.
    expect((await margaret.call('DELETE', 'v1/users/me/sessions')).status).toBe(204)
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', sam.user.id).execute()
    const about = await read(admin, `member=${margaret.user.id}`)
    expect(actions(about.data)).toEqual(['user.sign_out_everywhere', 'impersonation.stop', 'impersonation.call', 'impersonation.acting', 'impersonation.call', 'impersonation.start'])
    expect(about.data[0]).toMatchObject({ kind: 'user', who: margaretNamed, as_member: null, target: { type: 'user', ...margaretNamed } })
    expect(about.data[1]!.who).toEqual({ id: sam.user.id, display_name: null })
    expect(about.data[2]!.as_member).toEqual(margaretNamed)
  })

  it('filters by team member, member and kind', async () => {
    const admin = await signedInMember(api, { staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor' })
    const other = await signedInMember(api, { staff_role: 'admin' })
    const ruth = await signedInMember(api, { first_name: 'Ruth', last_name: 'Owens', email: `ruth-${randomUUID()}@example.com` })
    // The admin gives Ruth a role and takes it back, saves a flag; another admin changes a flag too.
    expect((await admin.call('POST', 'v1/admin/staff', { email: ruth.user.email, role: 'moderator' })).status).toBe(200)
    expect((await admin.call('PUT', `v1/admin/staff/${ruth.user.id}`, { role: null })).status).toBe(200)
    const flag = { description: 'Audit', enabled: false, rollout_percent: 0, variants: [], roles: [], regions: [], languages: [] }
    expect((await admin.call('PUT', 'v1/admin/flags/audit-one', flag)).status).toBe(200)
    expect((await other.call('PUT', 'v1/admin/flags/audit-two', flag)).status).toBe(200)
    // An identity check about Ruth (its target is the check; the row names her).
    await database.db.insertInto('audit_log').values({ actor_id: other.user.id, action: 'verification.approve', target_type: 'verification', target_id: randomUUID(), data: JSON.stringify({ user_id: ruth.user.id }) }).execute()

    expect(actions((await read(admin, `staff=${admin.user.id}`)).data)).toEqual(['flag.save', 'staff.role', 'staff.role'])
    expect(actions((await read(admin, `staff=${admin.user.id}&kind=staff`)).data)).toEqual(['staff.role', 'staff.role'])
    expect(actions((await read(admin, `staff=${admin.user.id}&kind=fee`)).data)).toEqual([])
    const roles = (await read(admin, `member=${ruth.user.id}`)).data
    expect(actions(roles)).toEqual(['verification.approve', 'staff.role', 'staff.role'])
    expect(roles[1]).toMatchObject({ kind: 'staff', who: { id: admin.user.id, display_name: 'Diane O.' }, target: { type: 'user', id: ruth.user.id, display_name: 'Ruth O.' }, details: [{ key: 'from', value: 'moderator' }, { key: 'to', value: 'null' }] })
    expect(roles[0]).toMatchObject({ kind: 'verification', target: { type: 'verification', display_name: null } })
    expect(actions((await read(admin, `member=${ruth.user.id}&staff=${other.user.id}`)).data)).toEqual(['verification.approve'])
    // A flag's value before and after is nested: written as JSON, cut to 200 characters.
    const saved = (await read(admin, `staff=${other.user.id}&kind=flag`)).data
    expect(saved).toHaveLength(1)
    expect(saved[0]!.target).toEqual({ type: 'feature_flag', id: 'audit-two', display_name: null })
    expect(saved[0]!.details.map((detail) => detail.key)).toEqual(['after', 'before'])
    const after = saved[0]!.details.find((detail) => detail.key === 'after')!.value as string
    expect(after.startsWith('{"key":"audit-two"')).toBe(true)
    expect(after.length).toBeLessThanOrEqual(200)
    expect(saved[0]!.details.find((detail) => detail.key === 'before')!.value).toBe('null')
  })

  it('pages newest first, 50 at a time, each page starting below the last', async () => {
    const admin = await signedInMember(api, { staff_role: 'admin' })
    const busy = await signedInMember(api, { staff_role: 'admin' })
    await database.db
      .insertInto('audit_log')
      .values(Array.from({ length: 120 }, (_, index) => ({ actor_id: busy.user.id, action: 'banner.update', target_type: 'banner', target_id: randomUUID(), data: JSON.stringify({ n: index, shown: index % 2 === 0 }) })))
      .execute()
    const first = await read(admin, `staff=${busy.user.id}`)
    expect(first.data).toHaveLength(50)
    expect(first.data[0]!.details).toEqual([{ key: 'n', value: 119 }, { key: 'shown', value: false }])
    const second = await read(admin, `staff=${busy.user.id}&before=${first.metadata.next_before}`)
    expect(second.data).toHaveLength(50)
    const third = await read(admin, `staff=${busy.user.id}&before=${second.metadata.next_before}`)
    expect(third.data).toHaveLength(20)
    expect(third.metadata.next_before).toBeNull()
    const ids = [...first.data, ...second.data, ...third.data].map((entry) => entry.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(new Set(ids).size).toBe(120)
    expect(first.metadata.next_before).toBe(first.data[49]!.id)
    expect(third.data.at(-1)!.details[0]).toEqual({ key: 'n', value: 0 })
  })

  it('is for admins only: moderators, support, finance and members are refused (403), visitors asked to sign in (401)', async () => {
    for (const staff_role of ['moderator', 'support', 'finance', null] as const) {
      const someone = await signedInMember(api, { staff_role })
      const refused = await someone.call('GET', 'v1/admin/audit-log')
      expect(refused.status, String(staff_role)).toBe(403)
      // A malformed filter is theirs to be refused too, not read.
      expect((await someone.call('GET', 'v1/admin/audit-log?kind=everything')).status).toBe(403)
    }
    expect((await api.request('GET', 'v1/admin/audit-log')).status).toBe(401)
    const admin = await signedInMember(api, { staff_role: 'admin' })
    const bad = await admin.call('GET', 'v1/admin/audit-log?kind=everything&staff=nobody&member=1&before=0')
    expect(bad.status).toBe(422)
    expect(bad.json.error.fields).toEqual({ kind: ['kind_invalid'], staff: ['staff_invalid'], member: ['member_invalid'], before: ['before_invalid'] })
  })
})
