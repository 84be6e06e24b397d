import { sql } from 'kysely'
import { z } from 'zod'
import type { DB } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { defineJob } from './job.ts'

/**
 * The longest rate-limit window is 15 minutes (sign-in attempts per account); a counter untouched
 * for a day is past any window, and the next hit would start it again from 1 anyway.
 */
const rateLimitRetention = sql`interval '1 day'`

/**
 * Spent and expired sign-in codes stay an hour: until then a late try still hears "this code has
 * expired" rather than "wrong code".
 */
const loginCodeGrace = sql`interval '1 hour'`

/**
 * The outboxes keep a copy of every email and text message, sign-in and phone confirmation codes
 * (and phone numbers) included: a month is long enough for support to see whether a message went
 * out, and no longer than that is worth keeping.
 */
const outboxRetention = sql`interval '30 days'`

/**
 * A reminder's record (decision 050) only stops a retried job from reminding twice, and a job for
 * a start already past reminds nobody: a day after the start it is never read again.
 */
const reminderRetention = sql`interval '1 day'`

/**
 * A profile photo is uploaded (`POST v1/medias`, target `avatar`) and then put on the profile
 * (`PUT v1/users/me/avatar`); one never put there is a member's face that nobody shows. A day is
 * long enough for any client to finish the second call.
 */
const unusedPhotoRetention = sql`interval '1 day'`

export interface CleanupCounts {
  oidcPayloads: number
  rateLimits: number
  loginCodes: number
  webSessions: number
  emails: number
  texts: number
  reminders: number
  unusedPhotos: number
}

/**
 * Deletes the profile photos uploaded more than a day ago that no profile shows, rows then files
 * (a file that cannot be removed now is left to the storage: its row is gone, nothing serves it).
 */
export async function deleteUnusedProfilePhotos(db: DB, storage: MediaStorage): Promise<number> {
  const removed = await db
    .deleteFrom('media')
    .where('target', '=', 'avatar')
    .where('created_at', '<', sql<Date>`now() - ${unusedPhotoRetention}`)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.avatar_media_id', '=', 'media.id'))))
    .returning(['storage_key', 'thumbnail_key'])
    .execute()
  for (const key of removed.flatMap((row) => [row.storage_key, ...(row.thumbnail_key ? [row.thumbnail_key] : [])])) {
    await storage.delete(key).catch(() => undefined)
  }
  return removed.length
}

/** Deletes every expired row (and unused photos' files); returns how many went from each table. */
export async function deleteExpiredRows(db: DB, storage: MediaStorage): Promise<CleanupCounts> {
  const oidcPayloads = await db.deleteFrom('oidc_payloads').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst()
  const rateLimits = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', sql<Date>`now() - ${rateLimitRetention}`)
    .executeTakeFirst()
  const loginCodes = await db
    .deleteFrom('login_codes')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', sql<Date>`now() - ${loginCodeGrace}`),
        eb('consumed_at', '<', sql<Date>`now() - ${loginCodeGrace}`),
      ]),
    )
    .executeTakeFirst()
  const webSessions = await db.deleteFrom('web_sessions').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst()
  const emails = await db.deleteFrom('email_outbox').where('created_at', '<', sql<Date>`now() - ${outboxRetention}`).executeTakeFirst()
  const texts = await db.deleteFrom('sms_outbox').where('created_at', '<', sql<Date>`now() - ${outboxRetention}`).executeTakeFirst()
  const reminders = await db.deleteFrom('experience_reminders').where('start_at', '<', sql<Date>`now() - ${reminderRetention}`).executeTakeFirst()
  return {
    oidcPayloads: Number(oidcPayloads.numDeletedRows),
    rateLimits: Number(rateLimits.numDeletedRows),
    loginCodes: Number(loginCodes.numDeletedRows),
    webSessions: Number(webSessions.numDeletedRows),
    emails: Number(emails.numDeletedRows),
    texts: Number(texts.numDeletedRows),
    reminders: Number(reminders.numDeletedRows),
    unusedPhotos: await deleteUnusedProfilePhotos(db, storage),
  }
}

/**
 * Rows that only matter until they expire, removed by a scheduled job (issue 10 §8): the
 * identity provider's records (interactions, codes, sessions, grants, tokens), rate-limit
 * counters, sign-in codes, web sessions, emails and text messages older than a month, the
 * records of reminders for starts long past, and profile photos that were uploaded but never put
 * on a profile. Nothing reads them once expired, so removing them changes
 * nothing a member sees, and running twice (or on two instances at once) removes nothing more.
 */
export const cleanupJob = defineJob({
  name: 'cleanup-expired-rows',
  payload: z.object({}),
  // Every 15 minutes (UTC).
  schedule: { cron: '*/15 * * * *' },
  // A run cut short (its instance died) or failed is tried again shortly, then at the next tick.
  retryLimit: 2,
  async handler(_, { db, storage, logger }: { db: DB; storage: MediaStorage; logger: Logger }) {
    const removed = await deleteExpiredRows(db, storage)
    logger.info({ job: 'cleanup-expired-rows', removed }, 'Expired rows removed')
  },
})
