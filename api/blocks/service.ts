import { sql } from 'kysely'
import type { ChatMirror } from '../chat/mirror.ts'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { blocksBetween, existingMembers } from '../policy/members.ts'
import { isSuspended, requirePermission } from '../policy/permissions.ts'
import type { BlockState, Reachability } from '#contract/blocks.ts'

/**
 * Blocking (decision 030). A block is the caller's own and private: it is never announced to the
 * member blocked, nothing is logged about who blocked whom, and no notification is sent. Its
 * effects elsewhere come from the policy's filters (`unblockedBy`, `notBlocking` in
 * api/policy/members.ts), which read the `blocks` table directly.
 */

/** Member `{id}` as these endpoints know it: any member that exists (not deleted); 404 otherwise. */
async function existingMember(db: DB, id: string) {
  if (!isUuid(id)) throw problems.notFound('User not found')
  const member = await db
    .selectFrom('users')
    .select(['id', 'banned', 'is_suspended', 'state'])
    .where('id', '=', id)
    .where(existingMembers())
    .executeTakeFirst()
  if (!member) throw problems.notFound('User not found')
  return member
}

/** A block changes who may write in the pair's direct channel, which the chat vendor's copy follows. */
export interface BlockDeps {
  db: DB
  chatMirror: ChatMirror
}

async function blockState(db: DB, blockerId: string, blockedId: string): Promise<BlockState> {
  const row = await db
    .selectFrom('blocks')
    .select('created_at')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .executeTakeFirst()
  return { is_blocked: row !== undefined, blocked_at: row?.created_at.toISOString() ?? null }
}

/** `GET v1/block/{id}`: whether the caller blocked member `{id}`, and since when. */
export async function getBlock(db: DB, caller: User, id: string): Promise<BlockState> {
  requirePermission(caller, 'read:block')
  const member = await existingMember(db, id)
  return blockState(db, caller.id, member.id)
}

/**
 * `PUT v1/block/{id}`: blocks member `{id}`. Idempotent: blocking again keeps the first block
 * and its time. Any existing member may be blocked, admins and suspended members included, and
 * whether they blocked the caller first changes nothing (refusing would tell the caller so).
 */
export async function blockMember({ db, chatMirror }: BlockDeps, caller: User, id: string): Promise<BlockState> {
  return db.transaction().execute((trx) => blockInTransaction(trx, chatMirror, caller, id))
}

/** `blockMember` inside `trx` (a report that blocks too, api/reports/service.ts). */
export async function blockInTransaction(trx: Trx, chatMirror: ChatMirror, caller: User, id: string): Promise<BlockState> {
  requirePermission(caller, 'create:block')
  if (id === caller.id) throw problems.invalid({ id: ['cannot_block_self'] })
  if (!isUuid(id)) throw problems.notFound('User not found')
  // One statement: the member is checked and the block made together, so an account deleted
  // meanwhile cannot be blocked after its blocks were removed.
  await trx
    .insertInto('blocks')
    .columns(['blocker_id', 'blocked_id'])
    .expression(
      trx
        .selectFrom('users')
        .select([sql<string>`${caller.id}::uuid`.as('blocker_id'), 'users.id as blocked_id'])
        .where('users.id', '=', id)
        .where(existingMembers()),
    )
    .onConflict((conflict) => conflict.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute()
  const state = await blockState(trx, caller.id, id)
  if (!state.is_blocked) throw problems.notFound('User not found')
  await chatMirror.record(trx, { type: 'block', blocker_id: caller.id, blocked_id: id, blocked: true })
  return state
}

/** `DELETE v1/block/{id}`: unblocks member `{id}`. Idempotent: not blocked is not an error. */
export async function unblockMember({ db, chatMirror }: BlockDeps, caller: User, id: string): Promise<void> {
  requirePermission(caller, 'delete:block')
  const member = await existingMember(db, id)
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('blocks').where('blocker_id', '=', caller.id).where('blocked_id', '=', member.id).execute()
    await chatMirror.record(trx, { type: 'block', blocker_id: caller.id, blocked_id: member.id, blocked: false })
  })
}

/**
 * `GET v1/block/{id}/me`: whether the caller can message member `{id}`. False when either
 * blocked the other, or the member is suspended or banned (spec §8); the answer is the same in
 * each case, so a member is never told that someone blocked them (issue 14 §4).
 */
export async function reachability(db: DB, caller: User, id: string): Promise<Reachability> {
  requirePermission(caller, 'read:block')
  const member = await existingMember(db, id)
  if (member.id === caller.id || isSuspended(member)) return { can_message: false }
  const { aBlockedB, bBlockedA } = await blocksBetween(db, caller.id, member.id)
  return { can_message: !aBlockedB && !bBlockedA }
}
