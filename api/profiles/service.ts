import { sql, type Expression } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isLookupKey, isUuid } from '../http/params.ts'
import { onboardingT, profileT } from '../i18n.ts'
import { notBlocking, visibleMembers } from '../policy/members.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'
import type { Place, PlacesProvider } from '../providers/maps/provider.ts'
import { employments, familyMembers, genders, joinReasons, relationshipStatuses, type Language } from '#contract/enums.ts'
import { languageFromAcceptHeader } from '#contract/languages.ts'
import { interestGroupNames, interestGroups, nearbyVisibilities, profilePrompts, type Interest, type InterestGroup } from '#contract/profile.ts'
import type { MemberInterest, MemberPrompt, ProfileCatalogue } from '#contract/profile-schemas.ts'
import type { UpdateMe, User as UserJson } from '#contract/users.ts'

/**
 * Profiles (issue 13 §1, decision 026): interests and prompts are keys of the catalogues in
 * `contract/profile.ts`, named in the reader's language here; the privacy choices sit in
 * `profiles`; the home city is always a city of the gazetteer, never words as typed.
 */

/** What `GET v1/users/me` adds from the profile tables. */
export type OwnProfile = Pick<UserJson, 'employment' | 'relationship' | 'family' | 'show_age' | 'nearby_visibility' | 'interests' | 'prompts'>

/** A member with no profile row yet: nothing told, age hidden, seen by everyone near by. */
export const emptyProfile: OwnProfile = {
  employment: null,
  relationship: null,
  family: [],
  show_age: false,
  nearby_visibility: 'everyone',
  interests: [],
  prompts: [],
}

const groupOf = new Map<Interest, InterestGroup>(
  interestGroupNames.flatMap((group) => interestGroups[group].map((interest) => [interest, group] as const)),
)
const knownPrompts = new Set<string>(profilePrompts)

/** The language names are given in: the member's own choice, else the request's, else English. */
export function readerLanguage(caller: Pick<User, 'locale'> | null, acceptLanguage: string | undefined): Language {
  return caller?.locale ?? languageFromAcceptHeader(acceptLanguage ?? null) ?? 'en'
}

async function interestKeys(db: DB, userId: string) {
  const rows = await db.selectFrom('user_interests').select('interest').where('user_id', '=', userId).orderBy('position').orderBy('interest').execute()
  // A key dropped from the catalogue since it was chosen is not shown.
  return rows.map((row) => row.interest).filter((interest) => groupOf.has(interest))
}

async function promptAnswers(db: DB, userId: string) {
  const rows = await db.selectFrom('profile_prompts').select(['prompt', 'answer']).where('user_id', '=', userId).orderBy('position').execute()
  return rows.filter((row) => knownPrompts.has(row.prompt)) as { prompt: (typeof profilePrompts)[number]; answer: string }[]
}

/**
 * The member's own profile as columns of one statement (`GET v1/users/me` adds them to its own,
 * decision 052): the profile row, the interests and the prompts, each as JSON. `ownProfileFrom`
 * reads them back.
 */
export function ownProfileColumns(userId: string | Expression<string>) {
  return [
    sql<Pick<OwnProfile, 'employment' | 'relationship' | 'family' | 'show_age' | 'nearby_visibility'> | null>`(SELECT row_to_json(p) FROM (
      SELECT employment, relationship, family, show_age, nearby_visibility FROM profiles WHERE user_id = ${userId}) p)`.as('profile'),
    sql<string[]>`(SELECT coalesce(json_agg(interest ORDER BY position, interest), '[]') FROM user_interests WHERE user_id = ${userId})`.as('interests'),
    sql<Array<{ prompt: string; answer: string }>>`(SELECT coalesce(json_agg(json_build_object('prompt', prompt, 'answer', answer) ORDER BY position), '[]')
      FROM profile_prompts WHERE user_id = ${userId})`.as('prompts'),
  ] as const
}

/** The own profile from `ownProfileColumns`' values. */
export function ownProfileFrom(row: { profile: Partial<OwnProfile> | null; interests: string[]; prompts: Array<{ prompt: string; answer: string }> }): OwnProfile {
  return {
    ...emptyProfile,
    ...row.profile,
    // A key dropped from the catalogue since it was chosen is not shown.
    interests: row.interests.filter((interest): interest is Interest => groupOf.has(interest as Interest)),
    prompts: row.prompts.filter((answer): answer is OwnProfile['prompts'][number] => knownPrompts.has(answer.prompt)),
  }
}

/**
 * A member others may read (`me`, an id or a slug); suspended, banned and deleted ones are not
 * found, nor one who blocked the caller (like their profile, decisions 027 and 030).
 */
async function readableMember(db: DB, caller: Caller, key: string) {
  requirePermission(caller, 'read:user:profile')
  const lookup = key === 'me' && caller ? caller.id : key
  if (!isLookupKey(lookup)) throw problems.notFound('User not found')
  let query = db
    .selectFrom('users')
    .select('id')
    .where(isUuid(lookup) ? 'id' : 'slug', '=', lookup)
    .where(visibleMembers())
  if (caller) query = query.where(notBlocking(caller.id))
  const member = await query.executeTakeFirst()
  if (!member) throw problems.notFound('User not found')
  return member.id
}

/** `GET v1/users/{id}/interests`. */
export async function memberInterests(db: DB, caller: Caller, key: string, language: Language): Promise<MemberInterest[]> {
  const id = await readableMember(db, caller, key)
  const t = profileT(language)
  return (await interestKeys(db, id)).map((interest) => ({ key: interest, group: groupOf.get(interest)!, name: t(`interests.${interest}`) }))
}

/** `GET v1/users/{id}/profile-prompts`. */
export async function memberPrompts(db: DB, caller: Caller, key: string, language: Language): Promise<MemberPrompt[]> {
  const id = await readableMember(db, caller, key)
  const t = profileT(language)
  return (await promptAnswers(db, id)).map(({ prompt, answer }) => ({ prompt, question: t(`prompts.${prompt}`), answer }))
}

/** `GET v1/profile/catalogue`: every choice, in order, named in `language`. */
export function profileCatalogue(language: Language): ProfileCatalogue {
  const t = profileT(language)
  const onboarding = onboardingT(language)
  const named = <K extends string>(keys: readonly K[], prefix: string, translate = t) => keys.map((key) => ({ key, name: translate(`${prefix}.${key}`) }))
  return {
    interest_groups: interestGroupNames.map((group) => ({
      key: group,
      name: t(`interestGroups.${group}`),
      interests: named(interestGroups[group], 'interests'),
    })),
    prompts: profilePrompts.map((key) => ({ key, question: t(`prompts.${key}`) })),
    genders: named(genders, 'gender', onboarding),
    join_reasons: named(joinReasons, 'reasons', onboarding),
    employments: named(employments, 'employment'),
    relationships: named(relationshipStatuses, 'relationship'),
    family: named(familyMembers, 'family'),
    nearby_visibilities: named(nearbyVisibilities, 'nearbyVisibility'),
  }
}

// A place id of `v1/places` (`us-or-portland`, `zip-97201`, a Google id) has no spaces or commas.
const placeIdPattern = /^[A-Za-z0-9_-]+$/

/**
 * The home city a member gave: a place id of `v1/places` (chosen from the suggestions) or the
 * words they typed ("Portland, OR", "97201"), resolved to the best matching US city. Unknown
 * words answer 422 `unknown_place` (spec §8), so no free-typed string is ever stored.
 */
export async function resolveHomeCity(places: PlacesProvider, value: string): Promise<Place> {
  const text = value.trim()
  const byId = placeIdPattern.test(text) && !/^\d+$/.test(text) ? await places.details(text) : null
  const place = byId ?? (text.length >= 2 ? (await places.search(text, { limit: 1 }))[0] : undefined)
  if (!place) throw unknownPlace()
  return place
}

/** Spec §8's `unknown_place`, on the `city` field. */
export function unknownPlace() {
  return new ApiProblem(422, 'unknown_place', 'Unable to find your location. Please try again.', { city: ['unknown_place'] })
}

type ProfileInput = Pick<UpdateMe, 'employment' | 'relationship' | 'family' | 'show_age' | 'nearby_visibility' | 'interests' | 'prompts'>

/**
 * Saves the profile fields present in `input` (absent: unchanged; null or []: cleared), inside
 * the caller's transaction. Interests and prompts are replaced as a whole, in the order given.
 */
export async function saveProfile(trx: DB, user: Pick<User, 'id'>, input: ProfileInput) {
  const row = {
    ...(input.employment !== undefined ? { employment: input.employment } : {}),
    ...(input.relationship !== undefined ? { relationship: input.relationship } : {}),
    ...(input.family !== undefined ? { family: input.family ?? [] } : {}),
    ...(input.show_age !== undefined ? { show_age: input.show_age } : {}),
    ...(input.nearby_visibility !== undefined ? { nearby_visibility: input.nearby_visibility } : {}),
  }
  if (Object.keys(row).length > 0) {
    await trx
      .insertInto('profiles')
      .values({ user_id: user.id, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...row, updated_at: new Date() }))
      .execute()
  }
  if (input.interests !== undefined) {
    await trx.deleteFrom('user_interests').where('user_id', '=', user.id).execute()
    const interests = input.interests ?? []
    if (interests.length > 0) {
      await trx
        .insertInto('user_interests')
        .values(interests.map((interest, position) => ({ user_id: user.id, interest, position })))
        .execute()
    }
  }
  if (input.prompts !== undefined) {
    await trx.deleteFrom('profile_prompts').where('user_id', '=', user.id).execute()
    const prompts = input.prompts ?? []
    if (prompts.length > 0) {
      await trx
        .insertInto('profile_prompts')
        .values(prompts.map(({ prompt, answer }, position) => ({ user_id: user.id, prompt, answer, position })))
        .execute()
    }
  }
}
