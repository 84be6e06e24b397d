import type { DB } from '../db/database.ts'

/** A member's latest verification request, or undefined. */
export function latestVerification(db: DB, userId: string) {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * Which of `ids` are verified members (their latest request was approved): for a `VerifiedBadge`
 * on profiles and attendee lists (decision 025). One query whatever the number of ids.
 */
export async function verifiedUserIds(db: DB, ids: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Set()
  // DISTINCT ON keeps each member's latest request; only those that are `verified` count.
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('verifications')
        .select(['user_id', 'status'])
        .distinctOn('user_id')
        .where('user_id', 'in', unique)
        .orderBy('user_id')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .as('latest'),
    )
    .select('latest.user_id')
    .where('latest.status', '=', 'verified')
    .execute()
  return new Set(rows.map((row) => row.user_id))
}
