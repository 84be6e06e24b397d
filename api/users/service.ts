import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requirePermission } from '../policy/permissions.ts'
import { ageOn } from '#contract/birth-date.ts'
import { displayName } from '#contract/display-name.ts'
import { longAbsenceDays } from '#contract/limits.ts'
import type { SignIn, UpdateMe, User as UserJson } from '#contract/users.ts'

/** Parses a phone number as US and returns E.164, or null when it is not a valid number. */
export function normalizePhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, 'US')
  if (!parsed?.isValid()) return null
  return parsed.number
}

export function formatPhone(e164: string | null): string | null {
  if (!e164) return null
  const parsed = parsePhoneNumberFromString(e164, 'US')
  if (!parsed) return e164
  return parsed.country === 'US' ? parsed.formatNational() : parsed.formatInternational()
}

export function serializeUser(user: User, avatarUrl: string | null = null): UserJson {
  return {
    id: user.id,
    stream_id: user.stream_id,
    slug: user.slug,
    email: user.email,
    phone: user.phone,
    formatted_phone: formatPhone(user.phone),
    first_name: user.first_name,
    last_name: user.last_name,
    name: user.name,
    formatted_name: user.formatted_name,
    display_name: displayName(user),
    dob: user.dob,
    age: user.dob ? ageOn(user.dob) : null,
    gender: user.gender,
    join_reasons: user.join_reasons,
    avatar: avatarUrl ? { url: avatarUrl } : null,
    admin: user.is_admin,
    banned: user.banned,
    is_suspended: user.is_suspended,
    state: user.state,
    lat: user.lat,
    long: user.long,
    city: user.city,
    locale: user.locale,
    onboarded: user.onboarded_at !== null,
    created_at: user.created_at.toISOString(),
    // The built-in chat needs no third-party token; Stream's token is issued by the chat feature.
    stream_token: null,
  }
}

export async function findUserBySubject(db: DB, subject: string) {
  return db.selectFrom('users').selectAll().where('auth_subject', '=', subject).executeTakeFirst()
}

/**
 * Just-in-time record for a member whose identity lives with an external provider (Auth0):
 * the first authenticated call creates the profile row.
 */
export async function provisionUser(db: DB, subject: string, claims: Record<string, unknown>) {
  const email = typeof claims.email === 'string' ? claims.email : null
  const inserted = await db
    .insertInto('users')
    .values({
      auth_subject: subject,
      email,
      name: typeof claims.name === 'string' ? claims.name : null,
      slug: await uniqueSlug(db, typeof claims.name === 'string' ? claims.name : 'member'),
      state: 'created',
    })
    .onConflict((oc) => oc.column('auth_subject').doNothing())
    .returningAll()
    .executeTakeFirst()
  return inserted ?? (await findUserBySubject(db, subject))
}

export async function uniqueSlug(db: DB, base: string) {
  const stem =
    base
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'member'
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = `${stem}-${Math.random().toString(36).slice(2, 8)}`
    const taken = await db.selectFrom('users').select('id').where('slug', '=', slug).executeTakeFirst()
    if (!taken) return slug
  }
  return `${stem}-${crypto.randomUUID().slice(0, 12)}`
}

export async function updateMe(db: DB, user: User, input: UpdateMe) {
  requirePermission(user, 'update:user', { id: user.id })
  let phone: string | null | undefined
  if (input.phone !== undefined) {
    if (input.phone === null || input.phone === '') phone = null
    else {
      phone = normalizePhone(input.phone)
      if (!phone) throw problems.invalid({ phone: ['invalid_phone'] })
    }
  }
  const updated = await db
    .updateTable('users')
    .set({
      ...(input.first_name !== undefined ? { first_name: input.first_name } : {}),
      ...(input.last_name !== undefined ? { last_name: input.last_name } : {}),
      ...(input.gender !== undefined ? { gender: input.gender } : {}),
      ...(input.join_reasons !== undefined ? { join_reasons: input.join_reasons } : {}),
      ...(phone !== undefined ? { phone } : {}),
      ...(input.locale !== undefined ? { locale: input.locale } : {}),
      ...(input.onboarded ? { onboarded_at: user.onboarded_at ?? new Date(), state: 'active' as const } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return updated
}

/**
 * `POST v1/users/me/sign-ins`: records that the member has just signed in (the web app calls it
 * once per new session) and answers the sign-in before it, and whether it was so long ago that
 * the member is greeted back (issue 12 §4, decision 020).
 */
export async function recordSignIn(db: DB, user: User, now = new Date()): Promise<SignIn> {
  requirePermission(user, 'update:user', { id: user.id })
  // The caller's row was read for this request: it still holds the sign-in before this one.
  const previous = user.last_sign_in_at
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute()
  return {
    previous_sign_in_at: previous?.toISOString() ?? null,
    welcome_back: previous !== null && now.getTime() - previous.getTime() >= longAbsenceDays * 24 * 60 * 60 * 1000,
  }
}

/**
 * Deletes the member's account: the profile is erased (name, contact details, birth date,
 * credentials, codes, sessions, sign-in time, seats, invitations) and the row kept as a tombstone so that shared
 * history such as chat messages stays consistent.
 */
export async function deleteAccount(db: DB, caller: User, id: string, requestId: string | null) {
  requirePermission(caller, 'delete:user', { id })
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('credentials').where('user_id', '=', id).execute()
    await trx.deleteFrom('web_sessions').where('user_id', '=', id).execute()
    if (caller.auth_subject) {
      // Ends the identity provider's sessions, grants and refresh tokens for this member.
      await trx
        .deleteFrom('oidc_payloads')
        .where(sql<string>`payload->>'accountId'`, '=', caller.auth_subject)
        .execute()
    }
    // Codes sent to the address: a sign-up code's payload holds the name, birth date and password
    // hash, from which "Send a new code" could otherwise make the account again.
    if (caller.email) await trx.deleteFrom('login_codes').where('email', '=', caller.email).execute()
    await trx.deleteFrom('waitlist_entries').where('user_id', '=', id).execute()
    await trx.deleteFrom('experience_invitations').where('user_id', '=', id).execute()
    const seats = await trx
      .deleteFrom('experience_attendees')
      .where('user_id', '=', id)
      .returning('experience_id')
      .execute()
    for (const seat of seats) {
      await trx
        .updateTable('experiences')
        .set({ attendees_count: sql`greatest(attendees_count - 1, 0)` })
        .where('id', '=', seat.experience_id)
        .execute()
    }
    await trx
      .updateTable('users')
      .set({
        state: 'deleted',
        deleted_at: new Date(),
        auth_subject: null,
        email: null,
        phone: null,
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
        avatar_media_id: null,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute()
    await trx
      .insertInto('audit_log')
      .values({ actor_id: id, action: 'user.delete', target_type: 'user', target_id: id, request_id: requestId })
      .execute()
  })
}
