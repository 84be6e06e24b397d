import type { DB } from '../db/database.ts'
import { existingMembers } from '../policy/members.ts'

/** What a report can point at; each lookup answers whether it exists (and may be reported). */

export async function experienceExists(db: DB, id: string) {
  const row = await db.selectFrom('experiences').select('id').where('id', '=', id).executeTakeFirst()
  return row !== undefined
}

/** A member that has not deleted their account (suspended and banned members can be reported). */
export async function memberExists(db: DB, id: string) {
  const row = await db.selectFrom('users').select('id').where('id', '=', id).where(existingMembers()).executeTakeFirst()
  return row !== undefined
}

/** A message that has not been deleted. */
export async function messageExists(db: DB, id: string) {
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return row !== undefined
}
