import { sql, type Expression, type SqlBool } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { isSuspended } from './permissions.ts'

/**
 * Query filters for who appears where (decisions 012, 030). Every query that lists members
 * (attendees, the notify list, add-by-email lookups) or picks a member to act on uses one of
 * these, so a new state is added once.
 *
 * `alias` is the name the `users` table has in the query (`users`, `u`, …).
 */

/** Members that exist: not deleted (a deleted account is a tombstone kept for shared history). */
export function existingMembers(alias = 'users'): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.state`)} <> 'deleted'`
}

/**
 * Members others may see and act on: not deleted, suspended or banned (spec §6: such a member
 * is treated as having no user).
 *
 * Blocks are not part of it (decision 030): this also decides who holds a seat (attendee lists,
 * the CSV, the notify list), which a block does not change. Lists that hide blocked members add
 * `unblockedBy` or `notBlocking` below.
 */
export function visibleMembers(alias = 'users'): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`)
  return sql<SqlBool>`(${column('state')} NOT IN ('deleted', 'suspended') AND NOT ${column('banned')} AND NOT ${column('is_suspended')})`
}

/**
 * Members as shared history shows them (the attendee list of an activity): like
 * `visibleMembers`, except that a deleted account stays, under the generic member label, where
 * its member took part (a past activity's seat), so the list and its count agree (decision 028).
 */
export function membersInHistory(alias = 'users'): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`)
  return sql<SqlBool>`(${column('state')} <> 'suspended' AND NOT ${column('banned')} AND NOT ${column('is_suspended')})`
}

/**
 * Members not in a block relation with `viewerId` either way (decision 027): a member someone
 * blocked, or who blocked them, is not suggested to them (`GET v1/members`).
 */
export function unblockedBy(viewerId: string, alias = 'users'): Expression<SqlBool> {
  const id = sql.ref(`${alias}.id`)
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM blocks b
    WHERE (b.blocker_id = ${viewerId} AND b.blocked_id = ${id}) OR (b.blocker_id = ${id} AND b.blocked_id = ${viewerId}))`
}

/** Members who have not blocked `viewerId`: whoever blocked someone is hidden from them (their profile answers 404). */
export function notBlocking(viewerId: string, alias = 'users'): Expression<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${sql.ref(`${alias}.id`)} AND b.blocked_id = ${viewerId})`
}

/**
 * The block relation between two members, either way, in one query: whether `a` blocked `b` and
 * whether `b` blocked `a` (decision 030; `GET v1/block/{id}/me`, opening a direct channel).
 */
export async function blocksBetween(db: DB, a: string, b: string) {
  const rows = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .execute()
  return { aBlockedB: rows.some((row) => row.blocker_id === a), bBlockedA: rows.some((row) => row.blocker_id === b) }
}

/**
 * Shown to other members as the generic member label with no details: suspended, banned, or a
 * deleted account's tombstone (issue 13 §3).
 */
export function showsAsGenericMember(user: Pick<User, 'banned' | 'is_suspended' | 'state'>) {
  return isSuspended(user) || user.state === 'deleted'
}
