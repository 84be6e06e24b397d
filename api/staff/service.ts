import { sql } from 'kysely'
import { displayName } from '#contract/display-name.ts'
import type { AdminMember, StaffMember, StaffOverview, StaffRole, StaffTool } from '#contract/staff.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { can, isSuspended, requirePermission, roleOf, type Caller } from '../policy/permissions.ts'
import { isOn } from '../flags/service.ts'
import { waitingConversations } from '../support/service.ts'

/**
 * The Circle 55 team (issue 32 §1, decision 077): `/admin`'s start page, with what needs the
 * caller's attention in the tools their role may use, and the team itself, whose roles only an
 * admin gives, changes or takes back, each change in `audit_log`.
 */

/** Each tool of `/admin`, in its order, and the permission that opens it. */
const tools: ReadonlyArray<[StaffTool, 'read:user:admin' | 'review:reports' | 'review:verification' | 'answer:support' | 'review:fees' | 'manage:partnerships' | 'manage:medicare_partner' | 'manage:staff' | 'manage:flags' | 'manage:banners' | 'read:analytics' | 'read:audit']> = [
  ['members', 'read:user:admin'],
  ['reports', 'review:reports'],
  ['verifications', 'review:verification'],
  ['support', 'answer:support'],
  ['payments', 'review:fees'],
  ['partners', 'manage:partnerships'],
  ['medicare', 'manage:medicare_partner'],
  ['staff', 'manage:staff'],
  ['flags', 'manage:flags'],
  ['banners', 'manage:banners'],
  ['analytics', 'read:analytics'],
  ['audit', 'read:audit'],
]

/** `GET v1/admin/overview`: the caller's tools, and the counts of what waits in each. */
export async function staffOverview(db: DB, caller: Caller): Promise<StaffOverview> {
  requirePermission(caller, 'read:staff:overview')
  const mine = tools.filter(([, permission]) => can(caller, permission)).map(([tool]) => tool)
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ count: string | number | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).count)
  const attention: StaffOverview['attention'] = {}
  if (mine.includes('reports')) attention.reports = await count(db.selectFrom('reports').select((eb) => eb.fn.countAll().as('count')).where('resolved_at', 'is', null))
  if (mine.includes('verifications')) {
    attention.verifications = await count(db.selectFrom('verifications').select((eb) => eb.fn.countAll().as('count')).where('status', '=', 'processing').where('provider', '=', 'builtin'))
  }
  if (mine.includes('support')) attention.support = await waitingConversations(db)
  if (mine.includes('payments')) attention.disputes = await count(db.selectFrom('no_show_fees').select((eb) => eb.fn.countAll().as('count')).where('status', '=', 'disputed'))
  return { role: roleOf(caller) as StaffRole, tools: mine, attention }
}

const staffRows = (db: DB) =>
  db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'staff_role'])
    .where('staff_role', 'is not', null)
    .where('state', '!=', 'deleted')

function staffJson(row: Pick<User, 'id' | 'first_name' | 'last_name' | 'email' | 'staff_role'>): StaffMember {
  return { id: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' '), email: row.email, role: row.staff_role! }
}

/** `GET v1/admin/staff`: the team, by role then name. */
export async function listStaff(db: DB, caller: Caller): Promise<StaffMember[]> {
  requirePermission(caller, 'manage:staff')
  const rows = await staffRows(db).orderBy('staff_role').orderBy('first_name').orderBy('last_name').execute()
  return rows.map(staffJson)
}

/** `POST v1/admin/staff`: gives the member with this email a role on the team. */
export async function grantStaffRole(db: DB, caller: User, body: { email: string; role: StaffRole }, requestId: string | null) {
  requirePermission(caller, 'manage:staff')
  const member = await db.selectFrom('users').select('id').where(sql`lower(email)`, '=', body.email.trim().toLowerCase()).where('state', '!=', 'deleted').executeTakeFirst()
  if (!member) throw problems.invalid({ email: ['member_not_found'] })
  return setStaffRole(db, caller, member.id, body.role, requestId)
}

/** `PUT v1/admin/staff/{id}`: changes a team member's role, or takes them off the team (null). */
export async function changeStaffRole(db: DB, caller: User, id: string, role: StaffRole | null, requestId: string | null) {
  requirePermission(caller, 'manage:staff')
  if (!isUuid(id)) throw problems.notFound('No such member')
  return setStaffRole(db, caller, id, role, requestId)
}

/**
 * Sets a member's role, audited with the role before and after. Never one's own (an admin cannot
 * lock the team out, or raise themself); never a suspended or banned member. The member's very
 * next request is answered with the new role's permissions (the caller is read per request).
 */
async function setStaffRole(db: DB, caller: User, id: string, role: StaffRole | null, requestId: string | null): Promise<StaffMember | null> {
  if (id === caller.id) throw problems.conflict('own_role', 'Ask another admin to change your own role.')
  return db.transaction().execute(async (trx) => {
    const member = await trx.selectFrom('users').selectAll().where('id', '=', id).where('state', '!=', 'deleted').forUpdate().executeTakeFirst()
    if (!member) throw problems.notFound('No such member')
    if (role && isSuspended(member)) throw problems.conflict('member_suspended', 'A suspended member cannot join the team.')
    if (member.staff_role === role) return role ? staffJson(member) : null
    const updated = await trx.updateTable('users').set({ staff_role: role, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    await trx
      .insertInto('audit_log')
      .values({ actor_id: caller.id, action: 'staff.role', target_type: 'user', target_id: id, data: JSON.stringify({ from: member.staff_role, to: role }), request_id: requestId })
      .execute()
    return role ? staffJson(updated) : null
  })
}

function adminMemberJson(row: User, caller: Caller, impersonationOn: boolean, viewedAs: AdminMember['viewed_as'] = []): AdminMember {
  return {
    id: row.id,
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    display_name: displayName(row),
    email: row.email,
    city: row.city,
    region: row.region,
    state: row.state,
    suspended: isSuspended(row),
    role: row.staff_role,
    joined_at: row.created_at.toISOString(),
    last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
    can_impersonate: impersonationOn && can(caller, 'impersonate:user') && row.staff_role === null && !isSuspended(row) && row.state !== 'deleted' && row.id !== caller?.id,
    viewed_as: viewedAs,
  }
}

/** `GET v1/admin/users?q=`: members whose name or email holds `q` (at most 20), for the team (decision 078). */
export async function findMembers(db: DB, caller: Caller, q: string): Promise<AdminMember[]> {
  requirePermission(caller, 'read:user:admin')
  const text = q.trim()
  if (text.length < 2) return []
  const like = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('state', '!=', 'deleted')
    .where((eb) => eb.or([eb('email', 'ilike', like), eb(sql`concat_ws(' ', first_name, last_name)`, 'ilike', like)]))
    .orderBy('first_name')
    .orderBy('last_name')
    .limit(20)
    .execute()
  const impersonationOn = await isOn(db, caller, 'impersonation', true)
  return rows.map((row) => adminMemberJson(row, caller, impersonationOn))
}

/** `GET v1/admin/users/{id}`: one member as the team sees them. */
export async function adminMember(db: DB, caller: Caller, id: string): Promise<AdminMember> {
  requirePermission(caller, 'read:user:admin')
  const row = isUuid(id) ? await db.selectFrom('users').selectAll().where('id', '=', id).where('state', '!=', 'deleted').executeTakeFirst() : undefined
  if (!row) throw problems.notFound('No such member')
  // The team's own record of looking at this account (decision 078), for every team role to see.
  const views = await db
    .selectFrom('impersonations as i')
    .innerJoin('users as a', 'a.id', 'i.actor_id')
    .select(['i.reason', 'i.acting_reason', 'i.started_at', 'i.ended_at', 'a.first_name', 'a.last_name', 'a.formatted_name', 'a.name', 'a.banned', 'a.is_suspended', 'a.state'])
    .where('i.subject_id', '=', row.id)
    .orderBy('i.started_at', 'desc')
    .limit(10)
    .execute()
  const viewedAs = views.map((view) => ({
    staff_name: displayName(view) ?? '',
    reason: view.reason,
    acting_reason: view.acting_reason,
    started_at: view.started_at.toISOString(),
    ended_at: view.ended_at?.toISOString() ?? null,
  }))
  return adminMemberJson(row, caller, await isOn(db, caller, 'impersonation', true), viewedAs)
}
