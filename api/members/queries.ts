import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { unblockedBy, visibleMembers } from '../policy/members.ts'
import { verifiedUserIds } from '../verification/queries.ts'
import { foldName, nearbyMiles } from '#contract/members.ts'

/** Metres in a mile, for earthdistance (which measures in metres). */
const METRES_PER_MILE = 1609.344
export const nearbyMetres = nearbyMiles * METRES_PER_MILE

/** What a public profile shows beside the users row: the profile facts, verification, photo. */
export interface ProfileFacts {
  show_age: boolean
  employment: string | null
  relationship: string | null
  family: string[]
  is_verified: boolean
  avatar_key: string | null
}

/**
 * The public facts of `ids`, in two queries run together; a member without a profile row gets the
 * defaults. Verified as everywhere else: the latest identity check was approved (decision 025).
 */
export async function profileFacts(db: DB, ids: string[]): Promise<Map<string, ProfileFacts>> {
  if (ids.length === 0) return new Map()
  const facts = db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .leftJoin('media', 'media.id', 'users.avatar_media_id')
    .select([
      'users.id',
      'profiles.show_age',
      'profiles.employment',
      'profiles.relationship',
      'profiles.family',
      'media.storage_key as avatar_key',
    ])
    .where('users.id', 'in', ids)
    .execute()
  const [rows, verified] = await Promise.all([facts, verifiedUserIds(db, ids)])
  return new Map(
    rows.map((row) => [
      row.id,
      {
        show_age: row.show_age ?? false,
        employment: row.employment ?? null,
        relationship: row.relationship ?? null,
        family: row.family ?? [],
        is_verified: verified.has(row.id),
        avatar_key: row.avatar_key,
      },
    ]),
  )
}

/**
 * Everyone who took part in an activity: its attendees and its host, as `(experience_id,
 * user_id)` rows.
 */
export const participants = sql`(
  SELECT experience_id, user_id FROM experience_attendees
  UNION
  SELECT id AS experience_id, host_id AS user_id FROM experiences WHERE host_id IS NOT NULL
)`

/** Folds a name in SQL the way `foldName` does in JavaScript, for the common Latin letters (no extension needed). */
const accentedLower = 'àáâãäåāăąçćčďèéêëēėęěìíîïīįľłñńňòóôõöøōőŕřśšşťùúûüūůűųýÿžźż'
// `lower` folds only ASCII under the C collation: the capitals are listed too.
const accented = accentedLower + accentedLower.toLocaleUpperCase('en-US')
const plain = [...accented].map((letter) => foldName(letter)).join('')
export function foldedSql(column: RawBuilder<unknown>) {
  return sql<string>`translate(lower(${column}), ${accented}, ${plain})`
}

/** Escapes LIKE's wildcards in what a member typed. */
export const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export type EligibleRow = User & {
  together: number
  shared_interests: string[]
  distance_m: number | null
  reason: 'attended_with' | 'nearby'
}

/**
 * The members `viewer` may be shown (decision 027), each with why:
 * - attended_with: both took part (attended or hosted) in an activity that has started and was
 *   not cancelled, unless the member's near-by visibility is `nobody`;
 * - nearby: within `nearbyMiles` of the viewer, sharing at least one interest, and visible to
 *   everyone near by.
 * Never the viewer, nor deleted, suspended or banned members, nor anyone in a block relation
 * with the viewer (unless `ignoreBlocks`: the chat search applies its own block rules, decision 034).
 * `name` narrows this set (never widens it).
 */
export function eligible(viewer: Pick<User, 'id' | 'lat' | 'long'>, foldedName: string | null, options: { ignoreBlocks?: boolean } = {}) {
  const here = viewer.lat !== null && viewer.long !== null ? sql`ll_to_earth(${viewer.lat}::float8, ${viewer.long}::float8)` : null
  const distance = here ? sql`CASE WHEN u.lat IS NULL OR u.long IS NULL THEN NULL ELSE earth_distance(${here}, ll_to_earth(u.lat, u.long)) END` : sql`NULL::float8`
  const near = here
    ? sql`(u.lat IS NOT NULL AND u.long IS NOT NULL
        AND earth_box(${here}, ${nearbyMetres}::float8) @> ll_to_earth(u.lat, u.long)
        AND earth_distance(${here}, ll_to_earth(u.lat, u.long)) <= ${nearbyMetres}::float8)`
    : sql`false`
  const byName = foldedName ? sql`AND ${foldedSql(sql.ref('u.first_name'))} LIKE ${likePrefix(foldedName)}` : sql``
  return sql`(
    WITH together AS (
      SELECT theirs.user_id, count(DISTINCT theirs.experience_id)::int AS n
      FROM ${participants} mine
      JOIN ${participants} theirs ON theirs.experience_id = mine.experience_id AND theirs.user_id <> mine.user_id
      JOIN experiences e ON e.id = mine.experience_id AND e.canceled_at IS NULL AND e.start_at <= now()
      WHERE mine.user_id = ${viewer.id}
      GROUP BY theirs.user_id
    )
    SELECT * FROM (
      SELECT u.*,
        coalesce(t.n, 0) AS together,
        ARRAY(
          SELECT ui.interest FROM user_interests ui
          WHERE ui.user_id = u.id AND ui.interest IN (SELECT mine.interest FROM user_interests mine WHERE mine.user_id = ${viewer.id})
          ORDER BY ui.position, ui.interest
        ) AS shared_interests,
        ${distance} AS distance_m,
        CASE WHEN t.n IS NOT NULL THEN 'attended_with' ELSE 'nearby' END AS reason,
        coalesce(p.nearby_visibility, 'everyone') AS visibility,
        ${near} AS is_near
      FROM users u
      LEFT JOIN profiles p ON p.user_id = u.id
      LEFT JOIN together t ON t.user_id = u.id
      WHERE u.id <> ${viewer.id}
        AND ${visibleMembers('u')}
        ${options.ignoreBlocks ? sql`` : sql`AND ${unblockedBy(viewer.id, 'u')}`}
        AND coalesce(p.nearby_visibility, 'everyone') <> 'nobody'
        ${byName}
    ) candidate
    WHERE together > 0 OR (visibility = 'everyone' AND is_near AND cardinality(shared_interests) > 0)
  )`
}

/** A page of the members `viewer` may meet: people met at activities first, then by shared interests and distance. */
export async function eligibleMembers(
  db: DB,
  viewer: Pick<User, 'id' | 'lat' | 'long'>,
  options: { foldedName: string | null; limit: number; offset: number },
) {
  const from = eligible(viewer, options.foldedName)
  const [rows, count] = await Promise.all([
    sql<EligibleRow>`SELECT * FROM ${from} listed
      ORDER BY (reason = 'attended_with') DESC, together DESC, cardinality(shared_interests) DESC,
        distance_m ASC NULLS LAST, lower(first_name), id
      LIMIT ${options.limit} OFFSET ${options.offset}`.execute(db),
    sql<{ count: number }>`SELECT count(*)::int AS count FROM ${from} listed`.execute(db),
  ])
  return { rows: rows.rows, total: count.rows[0]?.count ?? 0 }
}
