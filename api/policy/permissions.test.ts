import { describe, expect, it } from 'vitest'
import { actions, can, grants, permissions, requirePermission, roleOf, type Caller } from './permissions.ts'

const member = (overrides: Partial<NonNullable<Caller>> = {}): NonNullable<Caller> => ({
  id: 'member-1',
  is_admin: false,
  banned: false,
  is_suspended: false,
  state: 'active',
  ...overrides,
})

describe('roleOf', () => {
  it('treats a suspended, banned or deleted member as having no user (spec §6)', () => {
    expect(roleOf(null)).toBe('anonymous')
    for (const overrides of [{ is_suspended: true }, { banned: true }, { state: 'suspended' as const }, { state: 'deleted' as const }]) {
      expect(roleOf(member({ ...overrides, is_admin: true }))).toBe('anonymous')
    }
    expect(roleOf(member())).toBe('member')
    expect(roleOf(member({ is_admin: true }))).toBe('admin')
  })
})

describe('can', () => {
  const host = member({ id: 'host-1' })
  const experience = { host_id: host.id }

  it('allows :own on the caller’s own resource and :any everywhere', () => {
    expect(can(host, 'update:experience', experience)).toBe(true)
    expect(can(member(), 'update:experience', experience)).toBe(false)
    expect(can(member({ is_admin: true }), 'update:experience', experience)).toBe(true)
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
    expect(can(member({ id: 'admin-1', is_admin: true }), 'respond:invitation', invitation)).toBe(false)
    expect(can(null, 'respond:invitation', invitation)).toBe(false)
  })

  it('refuses a suspended admin everything a member could do', () => {
    const suspendedAdmin = member({ is_admin: true, is_suspended: true })
    expect(can(suspendedAdmin, 'update:experience', experience)).toBe(false)
    expect(can(suspendedAdmin, 'create:report')).toBe(false)
    expect(can(suspendedAdmin, 'read:experience')).toBe(true)
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
    expect(() => requirePermission(member({ is_admin: true }), 'review:reports')).not.toThrow()
  })
})
