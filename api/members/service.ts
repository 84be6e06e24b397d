import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { listUserExperiences, pageOfExperiences } from '../experiences/service.ts'
import { problems } from '../http/errors.ts'
import { isLookupKey, isUuid } from '../http/params.ts'
import { notBlocking, showsAsGenericMember, visibleMembers } from '../policy/members.ts'
import { can, requirePermission, type Caller } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { eligibleMembers, profileFacts, type ProfileFacts } from './queries.ts'
import { ageOn } from '#contract/birth-date.ts'
import { pageMetadata } from '#contract/common.ts'
import { displayName } from '#contract/display-name.ts'
import { cityWithRegion } from '#contract/place-line.ts'
import type { UserExperiencesQuery } from '#contract/experiences.ts'
import { maxPerPage } from '#contract/limits.ts'
import { foldName, type MemberSuggestion, type MembersQuery } from '#contract/members.ts'
import type { PublicUser } from '#contract/users.ts'
import type { Employment, FamilyMember, RelationshipStatus } from '#contract/enums.ts'

/** "Portland, OR": the home town as members see it, never its coordinates. */
export function cityLine(user: Pick<User, 'city' | 'region'>) {
  return cityWithRegion(user.city, user.region) || null
}

/** The decade of an age (67 → 60), for "in their 60s". */
export function ageDecade(dob: string | null, today = new Date()) {
  const age = dob ? ageOn(dob, today) : null
  return age === null ? null : Math.floor(age / 10) * 10
}

/**
 * The public profile of decision 027: what any signed-in member sees. A suspended or banned
 * member shows only as the generic member label. Their photo is at `media`'s public URL.
 */
export function serializePublicUser(media: MediaStorage, user: User, facts: ProfileFacts | undefined): PublicUser {
  if (showsAsGenericMember(user)) return { id: user.id, slug: user.slug, display_name: null, is_suspended: true }
  return {
    id: user.id,
    slug: user.slug,
    display_name: displayName(user),
    is_suspended: false,
    avatar: facts?.avatar_key ? { url: media.publicUrl(facts.avatar_key) } : null,
    is_verified: facts?.is_verified ?? false,
    city: cityLine(user),
    created_at: user.created_at.toISOString(),
    age_decade: facts?.show_age ? ageDecade(user.dob) : null,
    employment: (facts?.employment ?? null) as Employment | null,
    relationship: (facts?.relationship ?? null) as RelationshipStatus | null,
    family: (facts?.family ?? []) as FamilyMember[],
  }
}

/**
 * `GET users/{id}`: a member by id or slug. A deleted account answers as the generic member label
 * (its links in shared history still lead somewhere that makes sense; its slug was replaced when
 * it was deleted); a member who blocked the caller answers 404; anonymous callers get the name
 * only, for referral banners.
 */
export async function getPublicProfile(db: DB, media: MediaStorage, caller: Caller, key: string): Promise<PublicUser> {
  requirePermission(caller, 'read:user')
  if (!isLookupKey(key)) throw problems.notFound('User not found')
  let query = db
    .selectFrom('users')
    .selectAll()
    .where(isUuid(key) ? 'id' : 'slug', '=', key)
  if (caller) query = query.where(notBlocking(caller.id))
  const user = await query.executeTakeFirst()
  if (!user) throw problems.notFound('User not found')
  if (showsAsGenericMember(user)) return serializePublicUser(media, user, undefined)
  if (!can(caller, 'read:user:profile')) return { id: user.id, slug: user.slug, display_name: displayName(user) }
  const facts = await profileFacts(db, [user.id])
  return serializePublicUser(media, user, facts.get(user.id))
}

/** `GET v1/members`: members to meet (decision 027). */
export async function listMembers(db: DB, media: MediaStorage, caller: User, query: MembersQuery) {
  requirePermission(caller, 'read:members')
  const perPage = Math.min(query.per_page, maxPerPage)
  const foldedName = query.name ? foldName(query.name) : null
  const { rows, total } = await eligibleMembers(db, caller, {
    foldedName: foldedName || null,
    limit: perPage,
    offset: (query.page - 1) * perPage,
  })
  const facts = await profileFacts(
    db,
    rows.map((row) => row.id),
  )
  const data: MemberSuggestion[] = rows.map((row) => ({
    ...serializePublicUser(media, row, facts.get(row.id)),
    reason: row.reason,
    shared_interests: row.shared_interests,
    activities_in_common: Number(row.together),
  }))
  return { data, metadata: pageMetadata(query.page, perPage, total) }
}

/**
 * `GET v1/users/{id}/experiences`: the member's own list (or any, for admins) as before; for
 * another member, the activities they host that are coming up, or (`in_common=true`) the
 * activities both take part in, past and upcoming. Never cancelled ones; 404 for a member the
 * caller may not see.
 */
export async function memberExperiences(db: DB, media: MediaStorage, caller: User, id: string, query: UserExperiencesQuery) {
  if (!isUuid(id)) throw problems.notFound('User not found')
  const inCommon = query.in_common === 'true'
  if (!inCommon && can(caller, 'read:user:experiences', { id })) return listUserExperiences(db, media, caller, id, query)
  requirePermission(caller, 'read:user:profile')
  const member = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where(visibleMembers())
    .where(notBlocking(caller.id))
    .executeTakeFirst()
  if (!member) throw problems.notFound('User not found')

  const perPage = Math.min(query.per_page, maxPerPage)
  const takesPart = (userId: string) =>
    sql<boolean>`(experiences.host_id = ${userId}
      OR EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = experiences.id AND a.user_id = ${userId}))`
  const where = inCommon
    ? sql<boolean>`experiences.canceled_at IS NULL AND ${takesPart(id)} AND ${takesPart(caller.id)}`
    : sql<boolean>`experiences.canceled_at IS NULL AND experiences.host_id = ${id}
        AND (experiences.start_at IS NULL OR experiences.start_at >= ${new Date()})`
  return pageOfExperiences(db, media, caller, where, inCommon ? sql`start_at DESC NULLS FIRST` : sql`start_at ASC NULLS LAST`, query.page, perPage)
}
