import { describe, expect, it } from 'vitest'
import { staffRoles } from '#contract/staff.ts'
import { actions, can, grants, permissions, requirePermission, roleOf, type Caller, type Permission } from './permissions.ts'

const member = (overrides: Partial<NonNullable<Caller>> = {}): NonNullable<Caller> => ({
  id: 'member-1',
  staff_role: null,
  banned: false,
  is_suspended: false,
  state: 'active',
  ...overrides,
})

describe('roleOf', () => {
  it('treats a suspended, banned or deleted member as having no user (spec §6)', () => {
    expect(roleOf(null)).toBe('anonymous')
    for (const overrides of [{ is_suspended: true }, { banned: true }, { state: 'suspended' as const }, { state: 'deleted' as const }]) {
      expect(roleOf(member({ ...overrides, staff_role: 'admin' }))).toBe('anonymous')
    }
    expect(roleOf(member())).toBe('member')
    expect(roleOf(member({ staff_role: 'admin' }))).toBe('admin')
  })
})

describe('can', () => {
  const host = member({ id: 'host-1' })
  const experience = { host_id: host.id }

  it('allows :own on the caller’s own resource and :any everywhere', () => {
    expect(can(host, 'update:experience', experience)).toBe(true)
    expect(can(member(), 'update:experience', experience)).toBe(false)
    expect(can(member({ staff_role: 'admin' }), 'update:experience', experience)).toBe(true)
    expect(can(null, 'update:experience', experience)).toBe(false)
    // An activity without a host is nobody's own.
    expect(can(member(), 'update:experience', { host_id: null })).toBe(false)
  })

  it('lets a seat be given up by its member or the activity’s host', () => {
    const seat = { user_id: 'member-1', experience }
    expect(can(member(), 'delete:attendance', seat)).toBe(true)
    expect(can(host, 'delete:attendance', seat)).toBe(true)
    expect(can(member({ id: 'someone-else' }), 'delete:attendance', seat)).toBe(false)
  })

  it('lets only the member an invitation is addressed to answer it, admins included', () => {
    const invitation = { user_id: 'member-1' }
    expect(can(member(), 'respond:invitation', invitation)).toBe(true)
    expect(can(member({ id: 'someone-else' }), 'respond:invitation', invitation)).toBe(false)
    expect(can(member({ id: 'admin-1', staff_role: 'admin' }), 'respond:invitation', invitation)).toBe(false)
    expect(can(null, 'respond:invitation', invitation)).toBe(false)
  })

  it('refuses a suspended admin everything a member could do', () => {
    const suspendedAdmin = member({ staff_role: 'admin', is_suspended: true })
    expect(can(suspendedAdmin, 'update:experience', experience)).toBe(false)
    expect(can(suspendedAdmin, 'create:report')).toBe(false)
    expect(can(suspendedAdmin, 'read:experience')).toBe(true)
  })

  it('gives each team role a member’s permissions and its own tools, which admins hold too; only admins manage the team (decision 077)', () => {
    for (const role of staffRoles) {
      for (const permission of grants.member) expect(grants[role].has(permission)).toBe(true)
      for (const permission of grants[role]) expect(grants.admin.has(permission)).toBe(true)
      expect(grants[role].has('read:staff:overview')).toBe(true)
    }
    const holders = (permission: Permission) => staffRoles.filter((role) => grants[role].has(permission))
    expect(holders('manage:staff')).toEqual(['admin'])
    // The audit log (decision 089): who did what, as whom, for admins only.
    expect(holders('read:audit')).toEqual(['admin'])
    expect(grants.member.has('read:audit')).toBe(false)
    expect(holders('review:reports')).toEqual(['admin', 'moderator'])
    expect(holders('review:verification')).toEqual(['admin', 'moderator'])
    expect(holders('answer:support')).toEqual(['admin', 'support'])
    expect(holders('impersonate:user')).toEqual(['admin', 'support'])
    expect(holders('review:fees')).toEqual(['admin', 'finance'])
    expect(holders('refund:fees')).toEqual(['admin', 'finance'])
    expect(holders('manage:partnerships')).toEqual(['admin', 'finance'])
    // Medicare calls (decision 086): the agency and its list for finance and admins; each member's own permission.
    expect(holders('manage:medicare_partner')).toEqual(['admin', 'finance'])
    expect(holders('export:medicare_consents')).toEqual(['admin', 'finance'])
    expect(grants.member.has('manage:medicare_consent')).toBe(true)
    expect(grants.anonymous.has('manage:medicare_consent')).toBe(false)
    expect(grants.member.has('read:staff:overview')).toBe(false)
    // Dashboards (decision 082): the team's numbers for every team role, a host's own for every member.
    expect(holders('read:analytics')).toEqual(['admin', 'moderator', 'support', 'finance'])
    expect(grants.member.has('read:analytics')).toBe(false)
    expect(grants.member.has('read:host:dashboard')).toBe(true)
    expect(grants.anonymous.has('read:host:dashboard')).toBe(false)
  })

  it('grants admins every permission a member holds', () => {
    for (const permission of grants.member) expect(grants.admin.has(permission)).toBe(true)
    for (const permission of grants.anonymous) expect(grants.member.has(permission)).toBe(true)
  })

  it('knows every action it is granted under', () => {
    const named = new Set(actions)
    for (const permission of permissions) expect(named.has(permission.replace(/:(own|any)$/, '') as never)).toBe(true)
  })
})

describe('requirePermission', () => {
  it('answers 401 to an anonymous caller and the action’s own 403 to a member', () => {
    expect(() => requirePermission(null, 'create:report')).toThrow(expect.objectContaining({ status: 401, code: 'unauthorized' }))
    expect(() => requirePermission(member(), 'update:experience:flags')).toThrow(
      expect.objectContaining({ status: 403, code: 'admin_only' }),
    )
    expect(() => requirePermission(member(), 'review:reports')).toThrow(expect.objectContaining({ status: 403, code: 'forbidden' }))
    expect(() => requirePermission(member({ staff_role: 'admin' }), 'review:reports')).not.toThrow()
  })
})
