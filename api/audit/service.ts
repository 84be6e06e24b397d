import { sql, type Selectable } from 'kysely'
import { auditDetailLength, auditKindOf, auditPageSize } from '#contract/audit-kinds.ts'
import type { AuditEntry, AuditLogPage, AuditLogQuery } from '#contract/audit.ts'
import { displayName } from '#contract/display-name.ts'
import type { DB } from '../db/database.ts'
import type { AuditLogTable, User } from '../db/schema.ts'
import { isUuid } from '../http/params.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'

/**
 * The team's audit log (issue 32 §2, decision 089): every row each part of the API writes to
 * `audit_log`, read back by admins (`read:audit`) as who did what, as whom, to what. The rows are
 * never changed here; each is named at read time with the display-name rule (spec §3), so a
 * member suspended or deleted since shows as the generic member label.
 */

type Row = Selectable<AuditLogTable>
type Named = Pick<User, 'id' | 'first_name' | 'last_name' | 'formatted_name' | 'name' | 'banned' | 'is_suspended' | 'state'>

/**
 * `GET v1/admin/audit-log`: a page of rows, newest first, filtered by team member, member and kind.
 * The query is read once the caller may (a member's malformed filter is their 403, not a 422).
 */
export async function auditLog(db: DB, caller: Caller, readQuery: () => AuditLogQuery): Promise<AuditLogPage> {
  requirePermission(caller, 'read:audit')
  const query = readQuery()
  let select = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(auditPageSize + 1)
  if (query.before !== undefined) select = select.where('id', '<', query.before)
  const { staff, member, kind } = query
  // What the team member did themselves, and every change made while they viewed Circle 55 as someone.
  if (staff) select = select.where((eb) => eb.or([eb('impersonator_id', '=', staff), eb.and([eb('actor_id', '=', staff), eb('impersonator_id', 'is', null)])]))
  // What the member did (or the team did as them), what was done to their account, and rows that name them (a report about them, their identity check).
  if (member) {
    select = select.where((eb) =>
      eb.or([eb('actor_id', '=', member), eb.and([eb('target_type', '=', 'user'), eb('target_id', '=', member)]), eb(sql<string>`data->>'user_id'`, '=', member)]),
    )
  }
  if (kind) select = select.where((eb) => eb.or([eb('action', '=', kind), eb('action', 'like', `${kind}.%`)]))
  const rows = await select.execute()
  const page = rows.slice(0, auditPageSize)
  const names = await namesOf(db, page)
  return {
    data: page.map((row) => entryOf(row, names)),
    metadata: { next_before: rows.length > auditPageSize ? (page.at(-1)?.id ?? null) : null },
  }
}

/** Everyone a page names (actors, team members, members acted upon), read once. */
async function namesOf(db: DB, rows: Row[]) {
  const ids = new Set<string>()
  for (const row of rows) {
    if (row.actor_id) ids.add(row.actor_id)
    if (row.impersonator_id) ids.add(row.impersonator_id)
    if (row.target_type === 'user' && row.target_id && isUuid(row.target_id)) ids.add(row.target_id)
  }
  if (ids.size === 0) return new Map<string, Named>()
  const users = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'formatted_name', 'name', 'banned', 'is_suspended', 'state'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(users.map((user) => [user.id, user]))
}

function entryOf(row: Row, names: Map<string, Named>): AuditEntry {
  const person = (id: string | null) => (id ? { id, display_name: nameOf(names.get(id)) } : null)
  return {
    id: row.id,
    at: row.created_at.toISOString(),
    action: row.action,
    kind: auditKindOf(row.action),
    who: person(row.impersonator_id ?? row.actor_id),
    as_member: row.impersonator_id ? person(row.actor_id) : null,
    target: row.target_type
      ? { type: row.target_type, id: row.target_id, display_name: row.target_type === 'user' && row.target_id ? nameOf(names.get(row.target_id)) : null }
      : null,
    details: detailsOf(row.data),
    request_id: row.request_id,
  }
}

/** The display name, or null for the generic member label (suspended, banned, deleted, or gone). */
function nameOf(user: Named | undefined) {
  return !user || user.state === 'deleted' ? null : displayName(user)
}

/**
 * The row's data as a flat list, by key in alphabetical order (jsonb keeps no writer's order: it
 * sorts shorter keys first); plain values as they are, anything nested (or null) as JSON, cut short.
 */
export function detailsOf(data: unknown): AuditEntry['details'] {
  if (data === null || data === undefined) return []
  if (typeof data !== 'object' || Array.isArray(data)) return [{ key: 'value', value: valueOf(data) }]
  return Object.entries(data as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, value: valueOf(value) }))
}

function valueOf(value: unknown): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  const json = JSON.stringify(value) ?? 'null'
  return json.length > auditDetailLength ? `${json.slice(0, auditDetailLength - 1)}…` : json
}
