import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { releaseSeat } from '../experiences/attendance.ts'
import { cancelInTransaction, type Trx } from '../experiences/service.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'

/**
 * The member's own account (issue 13 §4, decision 028): deleting it and signing out everywhere.
 * The email change is in email-change.ts.
 */

/**
 * The member's own rows, erased with the account: profile, interests, prompts, identity
 * verification, Medicare registration, devices, cards, notification settings, popups and their
 * own notifications (those just queued for others stay), the text messages sent to them (their
 * phone number, codes included), credentials.
 */
const personalTables = [
  'profiles',
  'user_interests',
  'profile_prompts',
  'verifications',
  'medicare_registrations',
  'devices',
  'payment_methods',
  'notification_global_settings',
  'notification_workflow_settings',
  'popups',
  'notifications',
  'sms_outbox',
  'credentials',
] as const

export interface AccountDeps {
  db: DB
  notify: Notify
  media: MediaStorage
  logger: Logger
  /** Ends a pending identity check at once and deletes its encrypted photos (api/verification). */
  forgetVerification: (userId: string) => Promise<unknown>
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
 * - their notify-list places and invitations go;
 * - personal data is erased: the profile, interests, prompts, photos (rows now, files once the
 *   transaction has committed), verifications, contact details, birth date, devices, cards,
 *   settings, notifications, blocks, credentials, codes, sessions and the identity provider's
 *   grants and tokens;
 * - the users row stays as a tombstone (state deleted, no personal data), so shared history
 *   (messages, past attendance) keeps making sense, and the address is free to sign up again;
 * - the audit log records who and when, nothing personal.
 */
export async function deleteAccount(deps: AccountDeps, caller: User, id: string, requestId: string | null) {
  requirePermission(caller, 'delete:user', { id })
  const { db, notify } = deps
  await deps.forgetVerification(id)
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
    for (const experience of hosted) await cancelInTransaction(trx, notify, experience.id, id)

    const seats = await trx
      .selectFrom('experience_attendees as a')
      .innerJoin('experiences as e', 'e.id', 'a.experience_id')
      .select('a.experience_id')
      .where('a.user_id', '=', id)
      .where('e.canceled_at', 'is', null)
      .where(sql<boolean>`(e.start_at IS NULL OR e.start_at > now())`)
      .orderBy('a.experience_id')
      .execute()
    for (const seat of seats) await releaseSeat(trx, notify, seat.experience_id, id)
    await trx.deleteFrom('waitlist_entries').where('user_id', '=', id).execute()
    await trx.deleteFrom('experience_invitations').where('user_id', '=', id).execute()

    for (const table of personalTables) await trx.deleteFrom(table).where('user_id', '=', id).execute()
    await trx.deleteFrom('blocks').where((eb) => eb.or([eb('blocker_id', '=', id), eb('blocked_id', '=', id)])).execute()
    const media = await trx.deleteFrom('media').where('owner_id', '=', id).returning(['storage_key', 'thumbnail_key']).execute()

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
    return media.flatMap((row) => [row.storage_key, ...(row.thumbnail_key ? [row.thumbnail_key] : [])])
  })
  // The files go once the rows are gone for good; one that cannot be removed now is logged
  // (its row is gone: nothing serves it) rather than undoing the deletion.
  for (const key of files) {
    await deps.media.delete(key).catch((error: unknown) => deps.logger.error({ err: error, key }, 'A deleted member’s file could not be removed'))
  }
}
