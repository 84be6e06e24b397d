import { sql } from 'kysely'
import type { AfterCommit } from '../after-commit.ts'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { releaseSeat } from '../experiences/attendance.ts'
import { cancelInTransaction } from '../experiences/service.ts'
import type { Logger } from '../logger.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { applyMemberColumns } from './member-data.ts'
import { endMedicareConsentsOfDeletedAccount } from '../medicare/service.ts'

/**
 * The member's own account (issue 13 §4, decision 028): deleting it and signing out everywhere.
 * The email change is in email-change.ts.
 */

export interface AccountDeps extends AfterCommit {
  db: DB
  media: MediaStorage
  logger: Logger
  /** The stop notice to the Medicare agency of a consent the deletion ends (decision 086). */
  mailer: Mailer
  /** Ends a pending identity check at once and deletes its encrypted photos (api/verification). */
  forgetVerification: (userId: string) => Promise<unknown>
  /** Forgets the member's cards at the payments provider (api/payments). */
  forgetCards: (userId: string) => Promise<unknown>
}

/**
 * Ends every session of the member: the web sessions (a copied cookie stops working) and the
 * identity provider's sessions, grants and tokens (its refresh tokens cannot renew anything).
 */
async function endSessions(trx: DB | Trx, user: Pick<User, 'id' | 'auth_subject'>) {
  await trx.deleteFrom('web_sessions').where('user_id', '=', user.id).execute()
  if (user.auth_subject) {
    await trx.deleteFrom('oidc_payloads').where(sql<string>`payload->>'accountId'`, '=', user.auth_subject).execute()
  }
}

/** `DELETE v1/users/me/sessions`: "Sign out everywhere". */
export async function signOutEverywhere(db: DB, caller: User, requestId: string | null) {
  requirePermission(caller, 'update:user', { id: caller.id })
  await db.transaction().execute(async (trx) => {
    await endSessions(trx, caller)
    await trx
      .insertInto('audit_log')
      .values({ actor_id: caller.id, action: 'user.sign_out_everywhere', target_type: 'user', target_id: caller.id, request_id: requestId })
      .execute()
  })
}

/**
 * Deletes the member's account, in one transaction:
 * - the activities they host that have not started are cancelled by the organizer-cancel rule
 *   (attendees get `experience.canceled`);
 * - their seats at activities that have not started are given back by the attendance rule (the
 *   notify list is offered each seat: seated far ahead, told within 24 hours); seats at past
 *   activities stay, shown under the generic member label;
 * - their photos (rows now, files once the transaction has committed), their support
 *   conversation, sessions and the identity provider's grants and tokens, codes and the emails
 *   sent to their address go;
 * - every other row that names them is erased, anonymized or kept on purpose, as
 *   `memberColumns` (member-data.ts) says for its column: a test fails on a column naming a
 *   member that the list leaves out;
 * - the users row stays as a tombstone (state deleted, no personal data), so shared history
 *   (messages, past attendance) keeps making sense, and the address is free to sign up again;
 * - the audit log records who and when, nothing personal.
 */
export async function deleteAccount(deps: AccountDeps, caller: User, id: string, requestId: string | null) {
  requirePermission(caller, 'delete:user', { id })
  const { db } = deps
  await deps.forgetVerification(id)
  await deps.forgetCards(id)
  const files = await db.transaction().execute(async (trx) => {
    const notStarted = sql<boolean>`(start_at IS NULL OR start_at > now())`
    const hosted = await trx
      .selectFrom('experiences')
      .select('id')
      .where('host_id', '=', id)
      .where('canceled_at', 'is', null)
      .where(notStarted)
      .orderBy('id')
      .execute()
    for (const experience of hosted) await cancelInTransaction(trx, deps, experience.id, id)

    const seats = await trx
      .selectFrom('experience_attendees as a')
      .innerJoin('experiences as e', 'e.id', 'a.experience_id')
      .select('a.experience_id')
      .where('a.user_id', '=', id)
      .where('e.canceled_at', 'is', null)
      .where(sql<boolean>`(e.start_at IS NULL OR e.start_at > now())`)
      .orderBy('a.experience_id')
      .execute()
    for (const seat of seats) await releaseSeat(trx, deps, seat.experience_id, id)
    const media = await trx.deleteFrom('media').where('owner_id', '=', id).returning(['storage_key', 'thumbnail_key']).execute()
    // Their conversation with the team (they are alone in it with the team's answers).
    await trx.deleteFrom('message_channels').where('kind', '=', 'support').where('created_by', '=', id).execute()

    await endSessions(trx, caller)
    // Codes sent to the address: a sign-up code's payload holds the name, birth date and password
    // hash, from which "Send a new code" could otherwise make the account again. An email change
    // or a phone confirmation waiting for its code goes too (a phone code is keyed on the number,
    // its payload names the member).
    if (caller.email) await trx.deleteFrom('login_codes').where('email', '=', caller.email).execute()
    await trx
      .deleteFrom('login_codes')
      .where('purpose', 'in', ['change_email', 'confirm_phone'])
      .where(sql<string>`payload->>'user_id'`, '=', id)
      .execute()
    // The emails kept for support (a month, api/jobs/cleanup.ts): their name, codes, activities.
    if (caller.email) await trx.deleteFrom('email_outbox').where('to_address', '=', caller.email).execute()

    // Permission to be called about Medicare plans ends, its agency is emailed (with the name and
    // number as still recorded: before the blanking below), and its phone and topics are blanked (decision 086).
    await endMedicareConsentsOfDeletedAccount(deps, trx, id)
    await applyMemberColumns(trx, id)

    await trx
      .updateTable('users')
      .set({
        state: 'deleted',
        deleted_at: new Date(),
        // The slug is made from the name: the tombstone keeps one that says nothing.
        slug: `member-${id}`,
        auth_subject: null,
        email: null,
        phone: null,
        phone_confirmed_at: null,
        analytics_consent: null,
        first_name: null,
        last_name: null,
        name: null,
        formatted_name: null,
        dob: null,
        gender: null,
        join_reasons: [],
        lat: null,
        long: null,
        city: null,
        region: null,
        locale: null,
        last_sign_in_at: null,
        onboarding_step: null,
        avatar_media_id: null,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute()
    await trx
      .insertInto('audit_log')
      .values({ actor_id: id, action: 'user.delete', target_type: 'user', target_id: id, request_id: requestId })
      .execute()
    // With Stream: their user there goes nameless and leaves the channels they were still in.
    await deps.chatMirror.record(trx, { type: 'member', user_id: id })
    return media.flatMap((row) => [row.storage_key, ...(row.thumbnail_key ? [row.thumbnail_key] : [])])
  })
  // The files go once the rows are gone for good; one that cannot be removed now is logged
  // (its row is gone: nothing serves it) rather than undoing the deletion.
  for (const key of files) {
    await deps.media.delete(key).catch((error: unknown) => deps.logger.error({ err: error, key }, 'A deleted member’s file could not be removed'))
  }
}
