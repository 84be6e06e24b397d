import { sql, type Expression } from 'kysely'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { unreadMessagesOf } from '../chat/queries.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { can, requirePermission } from '../policy/permissions.ts'
import { emptyProfile, ownProfileColumns, ownProfileFrom, resolveHomeCity, saveProfile, unknownPlace, type OwnProfile } from '../profiles/service.ts'
import type { PlacesProvider } from '../providers/maps/provider.ts'
import { ageOn } from '#contract/birth-date.ts'
import { displayName } from '#contract/display-name.ts'
import { longAbsenceDays } from '#contract/limits.ts'
import type { SignIn, UpdateMe, User as UserJson } from '#contract/users.ts'
import { avatarUrlOf, shownAvatarId } from '../media/avatar.ts'
import { unreadNotificationsOf } from '../notifications/inbox.ts'
import type { ChatProvider } from '../providers/chat/provider.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'

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

/** What every page's header shows beyond the member's row (decision 052): profile, photo, the two unread totals. */
export interface ShellFacts {
  profile: Partial<OwnProfile> | null
  interests: string[]
  prompts: Array<{ prompt: string; answer: string }>
  avatar_key: string | null
  /** Whether the member's phone texted STOP to us and not START since (decision 057). */
  texts_stopped: boolean
  /** Null unless the unread totals were asked for. */
  unread_messages: number | null
  unread_notifications: number | null
}

/** `ShellFacts` as columns of a statement: of the member `userId` whose shown photo is `avatarId` and phone `phone`. */
function shellFactColumns(
  userId: string | Expression<string>,
  avatarId: string | null | Expression<string | null>,
  phone: string | null | Expression<string | null>,
  badges: boolean,
) {
  const me = typeof userId === 'string' ? sql<string>`${userId}::uuid` : userId
  return [
    ...ownProfileColumns(userId),
    sql<string | null>`(SELECT storage_key FROM media WHERE id = ${avatarId})`.as('avatar_key'),
    sql<boolean>`EXISTS (SELECT 1 FROM sms_opt_outs WHERE phone = ${phone})`.as('texts_stopped'),
    (badges ? unreadMessagesOf(me) : sql<number | null>`NULL::int`).as('unread_messages'),
    (badges ? unreadNotificationsOf(userId) : sql<number | null>`NULL::int`).as('unread_notifications'),
  ] as const
}

/**
 * The signed-in member as `v1/users/me` answers it: their photo and profile included, and their
 * token for the chat provider's browser client when it has one (Stream, decision 036). With
 * `badges`, the header's two unread totals too. Every page's shell asks for this, so everything
 * beyond the member's row is read in one statement (decision 052), or comes as `shell` when the
 * caller's own lookup read it already (decision 055).
 */
export async function ownUserJson(
  services: { db: DB; media: MediaStorage; chat?: ChatProvider | undefined },
  user: User,
  options: { badges?: boolean; shell?: ShellFacts | null } = {},
): Promise<UserJson> {
  const [facts, streamToken] = await Promise.all([
    options.shell ?? services.db.selectNoFrom(shellFactColumns(user.id, shownAvatarId(user), user.phone, options.badges ?? false)).executeTakeFirstOrThrow(),
    services.chat ? services.chat.userToken(user) : null,
  ])
  const json: UserJson = {
    ...serializeUser(user, avatarUrlOf(facts.avatar_key, services.media), ownProfileFrom(facts)),
    texts_stopped: facts.texts_stopped,
    stream_token: streamToken,
  }
  if (options.badges && facts.unread_messages !== null && facts.unread_notifications !== null) {
    json.badges = { messages: facts.unread_messages, notifications: facts.unread_notifications }
  }
  return json
}

/** The signed-in member, everything of their own (`GET v1/users/me`); `profile` from `ownProfileColumns`. */
export function serializeUser(user: User, avatarUrl: string | null = null, profile: OwnProfile = emptyProfile): UserJson {
  return {
    id: user.id,
    stream_id: user.stream_id,
    slug: user.slug,
    email: user.email,
    phone: user.phone,
    formatted_phone: formatPhone(user.phone),
    phone_confirmed: user.phone !== null && user.phone_confirmed_at !== null,
    // Read with the member's facts (ownUserJson).
    texts_stopped: false,
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
    // The activity form's admin-only options (`is_hostless`, `is_premium`): asked of the policy, not of the role.
    admin: can(user, 'update:experience:flags'),
    staff_role: user.staff_role,
    banned: user.banned,
    is_suspended: user.is_suspended,
    state: user.state,
    lat: user.lat,
    long: user.long,
    city: user.city,
    region: user.region,
    locale: user.locale,
    onboarded: user.onboarded_at !== null,
    onboarding_step: user.onboarding_step,
    created_at: user.created_at.toISOString(),
    // The built-in chat needs no third-party token; ownUserJson adds Stream's when it is configured.
    stream_token: null,
    show_blocked_in_chat_search: user.show_blocked_in_chat_search,
    ...profile,
  }
}

export async function findUserBySubject(db: DB, subject: string) {
  return db.selectFrom('users').selectAll().where('auth_subject', '=', subject).executeTakeFirst()
}

/**
 * `findUserBySubject` for the shell's call (`GET v1/users/me?include=badges`, every signed-in
 * page): the member's row and their `ShellFacts` in one statement (decision 055). Only a caller
 * who is neither banned nor suspended is answered, so the photo shown is always their own.
 */
export async function findShellCallerBySubject(db: DB, subject: string): Promise<{ user: User; shell: ShellFacts } | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .select(shellFactColumns(sql.ref('users.id'), sql.ref('users.avatar_media_id'), sql.ref('users.phone'), true))
    .where('auth_subject', '=', subject)
    .executeTakeFirst()
  if (!row) return undefined
  const { profile, interests, prompts, avatar_key, texts_stopped, unread_messages, unread_notifications, ...user } = row
  return { user, shell: { profile, interests, prompts, avatar_key, texts_stopped, unread_messages, unread_notifications } }
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

/**
 * `PUT v1/users/me`: the fields present change (absent: unchanged; null or []: cleared). The
 * home city is resolved to a gazetteer city before anything is written; the member's row and
 * profile rows are then written in one transaction.
 */
export async function updateMe(db: DB, user: User, input: UpdateMe, places?: PlacesProvider) {
  requirePermission(user, 'update:user', { id: user.id })
  let phone: string | null | undefined
  if (input.phone !== undefined) {
    if (input.phone === null || input.phone === '') phone = null
    else {
      phone = normalizePhone(input.phone)
      if (!phone) throw problems.invalid({ phone: ['invalid_phone'] })
    }
  }
  let home: { lat: number | null; long: number | null; city: string | null; region: string | null } | undefined
  if (input.city !== undefined) {
    if (input.city === null || input.city === '') home = { lat: null, long: null, city: null, region: null }
    else {
      const place = places ? await resolveHomeCity(places, input.city) : null
      if (!place) throw unknownPlace()
      home = { lat: place.latitude, long: place.longitude, city: place.label, region: place.state }
    }
  }
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('users')
      .set({
        ...(input.first_name !== undefined ? { first_name: input.first_name } : {}),
        ...(input.last_name !== undefined ? { last_name: input.last_name } : {}),
        ...(input.gender !== undefined ? { gender: input.gender } : {}),
        ...(input.join_reasons !== undefined ? { join_reasons: input.join_reasons } : {}),
        // A new number must be confirmed again before any text goes to it (decision 049).
        ...(phone !== undefined ? { phone, ...(phone !== user.phone ? { phone_confirmed_at: null } : {}) } : {}),
        ...(input.locale !== undefined ? { locale: input.locale } : {}),
        ...(input.show_blocked_in_chat_search !== undefined ? { show_blocked_in_chat_search: input.show_blocked_in_chat_search } : {}),
        ...(home ?? {}),
        ...(input.onboarding_step !== undefined ? { onboarding_step: input.onboarding_step } : {}),
        ...(input.onboarded ? { onboarded_at: user.onboarded_at ?? new Date(), state: 'active' as const } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await saveProfile(trx, user, input)
    return updated
  })
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

/** Deleting the account lives in account.ts (decision 028). */
export { deleteAccount } from './account.ts'
