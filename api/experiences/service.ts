import { randomBytes } from 'node:crypto'
import { sql, type RawBuilder } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { Experience, User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isLookupKey, isUuid } from '../http/params.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { ResolvedPlace } from '../providers/maps/provider.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import type { Notify } from '../notifications/service.ts'
import { changesOf, notifyChanges, scheduleReminders } from '../reminders/service.ts'
import { announceCancellation } from '../chat/product-messages.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { ChatMirror } from '../chat/mirror.ts'
import { holdsSeat } from './holds-seat.ts'
import { openActivityChat } from '../chat/queries.ts'
import { offerFreedSeats } from './seats.ts'
import { pageMetadata } from '#contract/common.ts'
import { hasStarted as startedAt, isFull, isLateCancel, isLimited } from '#contract/experience-rules.ts'
import type {
  Experience as ExperienceJson,
  ExperienceActor,
  ExperienceCancellation,
  ExperienceInput,
  ExperienceListQuery as ListQuery,
  UserExperiencesQuery,
} from '#contract/experiences.ts'
import { defaultDurationMinutes as DEFAULT_DURATION_MINUTES, maxPerPage as MAX_PER_PAGE, noShowFeePattern } from '#contract/limits.ts'
import { isValidTimeZone, zonedParts, zonedTimeToUtc } from '#contract/zoned-time.ts'
import { showsAsGenericMember, visibleMembers } from '../policy/members.ts'
import { can, isHostOf, requirePermission } from '../policy/permissions.ts'
import { verifiedUserIds } from '../verification/service.ts'
import { usableDefaultCard } from '../payments/queries.ts'
import { hasPremium } from '../subscriptions/queries.ts'
import { displayName } from '#contract/display-name.ts'

// ---------------------------------------------------------------------------------------------
// Dependencies

/** What the experiences domain needs from the places provider. */
export interface ExperiencePlaces {
  /** The IANA time zone at a point. */
  timeZoneAt(lat: number, lng: number): string
  /** A place id from the places search, or null when unknown. */
  resolvePlace(placeId: string): Promise<ResolvedPlace | null>
}

export const DEFAULT_TIME_ZONE = 'America/New_York'

/** Used when no places provider is configured: no in-person creation, Eastern time. */
export const fallbackPlaces: ExperiencePlaces = {
  timeZoneAt: () => DEFAULT_TIME_ZONE,
  resolvePlace: () => Promise.resolve(null),
}

export interface ExperienceDeps {
  db: DB
  env: Env
  places: ExperiencePlaces
  /** Attendees and the notify list hear of cancellations and freed seats through it. */
  notify: Notify
  /** The chat vendor's copy of the activity's chat (its host in it from the start; seats given back). */
  chatMirror: ChatMirror
  /** Reminder jobs are queued with the activity (decision 050); without it the reminder sweep queues them. */
  jobs?: Pick<JobQueue, 'send'> | undefined
  /** Where browsers fetch the covers and hosts' photos the activity's JSON shows (`publicUrl`). */
  media: MediaStorage
}

/** What the attendance changes need: they may free a seat or cancel, and then notify; they answer the activity's JSON. */
export type NotifyingDeps = Pick<ExperienceDeps, 'db' | 'notify' | 'chatMirror' | 'media'>

export const MINUTE = 60_000
const METERS_PER_MILE = 1609.344

// ---------------------------------------------------------------------------------------------
// Time zones (DST-safe, Intl only)

export { isValidTimeZone, zonedTimeToUtc }

function localDateTime(instant: Date, timeZone: string) {
  const p = zonedParts(instant.getTime(), timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` }
}

// ---------------------------------------------------------------------------------------------
// Money

/** "5.00" / "5" / 5.5 → cents; undefined when not a plain amount (spec §5: numbers only, no symbols). */
export function feeToCents(input: string | number): number | undefined {
  const text = typeof input === 'number' ? String(input) : input.trim()
  if (!noShowFeePattern.test(text)) return undefined
  const [whole = '0', fraction = ''] = text.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

export function centsToFee(cents: number | null): string | null {
  if (cents === null) return null
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

// ---------------------------------------------------------------------------------------------
// Input

function isHttpUrl(value: string) {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && Boolean(url.hostname)
  } catch {
    return false
  }
}


// ---------------------------------------------------------------------------------------------
// Lookup and permissions

export async function findExperience(db: DB | Trx, idOrSlug: string) {
  if (!isLookupKey(idOrSlug)) return undefined
  return db
    .selectFrom('experiences')
    .selectAll()
    .where(isUuid(idOrSlug) ? 'id' : 'slug', '=', idOrSlug)
    .executeTakeFirst()
}

export async function getExperience(db: DB | Trx, idOrSlug: string) {
  const experience = await findExperience(db, idOrSlug)
  if (!experience) throw problems.notFound('Experience not found')
  return experience
}

/**
 * One activity as `caller` may read it. A cancelled activity stays readable by its host, its
 * attendees (those who held a seat when it was cancelled: cancelling keeps the seats) and admins;
 * to anyone else it is gone, so the API answers 404 rather than showing what was cancelled.
 */
export async function getReadableExperience(db: DB | Trx, idOrSlug: string, caller: User | null) {
  const experience = await getExperience(db, idOrSlug)
  const readable = experience.canceled_at ? await canReadCancelled(db, experience, caller) : can(caller, 'read:experience')
  if (!readable) throw problems.notFound('Experience not found')
  return experience
}

async function canReadCancelled(db: DB | Trx, experience: Experience, caller: User | null) {
  // The seat is looked up only when hosting or admin rights do not already answer.
  if (can(caller, 'read:experience:canceled', experience)) return true
  if (!caller) return false
  const holds_seat = await holdsSeat(db, experience.id, caller.id)
  return can(caller, 'read:experience:canceled', { host_id: experience.host_id, holds_seat })
}

async function lockExperience(trx: Trx, id: string) {
  const experience = await trx.selectFrom('experiences').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!experience) throw problems.notFound('Experience not found')
  return experience
}

export const canceledProblem = () => problems.conflict('experience_canceled', 'This activity has been canceled.')
/** Begun: its seats, details and invitations can no longer change (issue 29 §4), for its host and admins alike. */
/** A premium activity, and the member has no premium membership (decision 074). */
export const premiumProblem = () => new ApiProblem(403, 'premium_required', 'This activity is for premium members.')

export const pastProblem = () => problems.conflict('experience_past', 'This activity has already started.')

export const hasStarted = (e: Pick<Experience, 'start_at'>, now: number) => startedAt(e.start_at, now)

// ---------------------------------------------------------------------------------------------
// Serialization

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100)

type ExperienceRow = Experience & { distance_m?: number | null }

/**
 * Whether a member listed with an activity (its host, an attendee) carries the "Verified" badge:
 * their identity check was approved (`verified`, from `verifiedUserIds`) and they are shown by
 * name. A deleted, suspended or banned member shows under the generic member label, never verified.
 */
export function showsVerified(user: Pick<User, 'id' | 'state' | 'banned' | 'is_suspended'>, verified: ReadonlySet<string>) {
  return !showsAsGenericMember(user) && verified.has(user.id)
}

/**
 * Batch-serializes rows for `caller` (null: anonymous) with hosts, covers and viewer state; photos
 * at `media`'s public URLs (S3_PUBLIC_URL's for a public bucket).
 */
export async function serializeExperiences(db: DB | Trx, media: MediaStorage, rows: ExperienceRow[], caller: User | null): Promise<ExperienceJson[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const hostIds = [...new Set(rows.map((row) => row.host_id).filter((id): id is string => id !== null))]
  const coverIds = [...new Set(rows.map((row) => row.cover_media_id).filter((id): id is string => id !== null))]

  const withFee = caller !== null && rows.some((row) => row.no_show_fee_cents !== null)
  const withPremium = caller !== null && rows.some((row) => row.is_premium)
  const [hosts, verifiedHosts, covers, viewer, feeCard, premium] = await Promise.all([
    hostIds.length
      ? db
          .selectFrom('users')
          .leftJoin('media', 'media.id', 'users.avatar_media_id')
          .select([
            'users.id',
            'users.first_name',
            'users.last_name',
            'users.formatted_name',
            'users.name',
            'users.banned',
            'users.is_suspended',
            'users.state',
            'media.storage_key as avatar_key',
          ])
          .where('users.id', 'in', hostIds)
          .execute()
      : [],
    // One query for every host on the page (an empty list asks nothing).
    verifiedUserIds(db, hostIds),
    coverIds.length
      ? db.selectFrom('media').select(['id', 'storage_key', 'thumbnail_key']).where('id', 'in', coverIds).execute()
      : [],
    caller ? viewerStates(db, caller.id, ids) : new Map<string, ViewerState>(),
    // The card a fee would be charged to, asked once for the page and only when a fee is shown.
    withFee ? usableDefaultCard(db, caller.id) : null,
    // Whether the caller may join premium activities, asked once and only when one is shown.
    withPremium ? hasPremium(db, caller.id) : true,
  ])
  const hostById = new Map(hosts.map((host) => [host.id, host]))
  const coverById = new Map(covers.map((cover) => [cover.id, cover]))
  const now = Date.now()

  return rows.map((listed) => {
    const viewerState = viewer.get(listed.id)
    const row = viewerState ? { ...listed, attendees_count: viewerState.attendees_count } : listed
    const host = row.host_id ? hostById.get(row.host_id) : undefined
    const cover = row.cover_media_id ? coverById.get(row.cover_media_id) : undefined
    const signedIn = caller !== null
    const details = can(caller, 'read:experience:details')
    const hostName = host ? (host.state === 'deleted' ? null : displayName(host)) : null
    const past = hasStarted(row, now)
    const waitlistPosition = viewerState?.waitlist_position ?? null
    const hosting = isHostOf(caller, row)
    const attending = viewerState?.is_attending ?? false
    const invitedAt = viewerState?.invited_at ?? null
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      cover_photo: cover
        ? { url: media.publicUrl(cover.storage_key), thumbnail_url: cover.thumbnail_key ? media.publicUrl(cover.thumbnail_key) : null }
        : null,
      max_attendees: row.max_attendees,
      attendees_count: row.attendees_count,
      is_full: isFull(row),
      start_date: row.start_at?.toISOString() ?? null,
      end_date: row.end_at?.toISOString() ?? null,
      timezone: row.timezone,
      venue_type: row.venue_type,
      location:
        row.venue_type === 'online'
          ? null
          : {
              latitude: details ? row.latitude : round2(row.latitude),
              longitude: details ? row.longitude : round2(row.longitude),
              formattedAddress: details ? row.formatted_address : null,
              placeId: row.place_id,
              city: row.city,
              region: row.region,
            },
      url: details ? row.url : null,
      ticket_url: row.ticket_url,
      no_show_fee: centsToFee(row.no_show_fee_cents),
      is_hostless: row.is_hostless,
      is_premium: row.is_premium,
      host: host
        ? {
            id: host.id,
            display_name: hostName,
            avatar: host.avatar_key && !host.banned && !host.is_suspended ? { url: media.publicUrl(host.avatar_key) } : null,
            is_verified: showsVerified(host, verifiedHosts),
          }
        : null,
      canceled_at: row.canceled_at?.toISOString() ?? null,
      canceled: row.canceled_at ? cancellation(row.canceled_at, row, hostName) : null,
      is_past: past,
      distance_miles:
        row.distance_m === undefined || row.distance_m === null ? null : Math.round((row.distance_m / METERS_PER_MILE) * 10) / 10,
      viewer: signedIn
        ? {
            is_attending: attending,
            is_host: hosting,
            can_manage: can(caller, 'update:experience', row),
            waitlist_position: waitlistPosition,
            // The host never waits for a seat at their own activity, nor does anyone already in.
            can_join_waitlist:
              !row.canceled_at && !past && isFull(row) && !hosting && !attending && waitlistPosition === null,
            // Decision 019: an invitation is shown while it can still be accepted.
            invitation:
              invitedAt && !row.canceled_at && !past && !hosting && !attending
                ? { at: invitedAt.toISOString(), by: viewerState?.inviter ? friend(viewerState.inviter) : actor(viewerState?.invited_by ?? null, row, hostName) }
                : null,
            // Spec §4: the web shows the no-show warning and the confirmation from this alone.
            cancel_is_late: !hasStarted(row, now) && isLateCancel(row.start_at, now),
            fee_bound: viewerState?.fee_bound ?? false,
            premium_required: row.is_premium && !premium && !hosting,
            fee_card: row.no_show_fee_cents !== null && feeCard ? { brand: feeCard.brand, last4: feeCard.last4 } : null,
          }
        : null,
    }
  })
}

/**
 * Who acted (cancelled, invited), as members are told: the host by name, anyone else (an admin)
 * as the team, never named to members. No one recorded (activities cancelled before migration
 * 0005, when only their host could cancel) reads as the host.
 */
function actor(actorId: string | null, row: Pick<Experience, 'host_id'>, hostName: string | null): ExperienceActor {
  const byTeam = actorId !== null && actorId !== row.host_id
  return byTeam ? { role: 'team', display_name: null } : { role: 'host', display_name: hostName }
}

/** A host or attendee who sent "Invite a friend" (decision 087): named as members name each other. */
function friend(inviter: InviterNames): ExperienceActor {
  return { role: 'member', display_name: inviter.state === 'deleted' ? null : displayName(inviter) }
}

/** Who cancelled: `canceled_by` is the host or an admin (the team). */
function cancellation(at: Date, row: Pick<Experience, 'canceled_by' | 'host_id'>, hostName: string | null): ExperienceCancellation {
  return { at: at.toISOString(), by: actor(row.canceled_by, row, hostName) }
}

export async function serializeExperience(db: DB | Trx, media: MediaStorage, row: ExperienceRow, caller: User | null) {
  const [json] = await serializeExperiences(db, media, [row], caller)
  return json as ExperienceJson
}

type InviterNames = Pick<User, 'first_name' | 'last_name' | 'formatted_name' | 'name' | 'banned' | 'is_suspended' | 'state'>

interface ViewerState {
  attendees_count: number
  is_attending: boolean
  /** 1-based FIFO position (join time, then user id) on the notify list, or null. */
  waitlist_position: number | null
  /** When the viewer's pending invitation was sent, and by whom; null when they hold none. */
  invited_at: Date | null
  invited_by: string | null
  /** Who sent it with "Invite a friend" (decision 087); null for the host's or the team's invitation. */
  inviter: InviterNames | null
  /** The viewer's seat is bound by the no-show fee (they agreed to it). */
  fee_bound: boolean
}

/**
 * What `userId` sees of each of `experienceIds`: the attendee count, their seat, their place on
 * the notify list and their pending invitation, read in one statement (one snapshot), so a seat
 * taken or a promotion from the list between two reads never shows "you are going" beside a
 * count that leaves the seat out.
 */
async function viewerStates(db: DB | Trx, userId: string, experienceIds: string[]) {
  const result = await sql<ViewerState & { id: string }>`
    SELECT e.id, e.attendees_count,
      EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${userId}) AS is_attending,
      EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${userId} AND a.fee_consent_id IS NOT NULL) AS fee_bound,
      CASE WHEN w.user_id IS NOT NULL THEN (SELECT count(*)::int FROM waitlist_entries o JOIN users ou ON ou.id = o.user_id
        WHERE o.experience_id = e.id AND ${visibleMembers('ou')} AND (o.created_at, o.user_id) <= (w.created_at, w.user_id)) END AS waitlist_position,
      i.created_at AS invited_at, i.invited_by,
      CASE WHEN iu.id IS NOT NULL THEN json_build_object('first_name', iu.first_name, 'last_name', iu.last_name, 'formatted_name', iu.formatted_name,
        'name', iu.name, 'banned', iu.banned, 'is_suspended', iu.is_suspended, 'state', iu.state) END AS inviter
    FROM experiences e
    LEFT JOIN waitlist_entries w ON w.experience_id = e.id AND w.user_id = ${userId}
    LEFT JOIN experience_invitations i ON i.experience_id = e.id AND i.user_id = ${userId} AND i.state = 'pending'
    LEFT JOIN users iu ON iu.id = i.invited_by AND i.by_friend
    WHERE e.id = ANY(${experienceIds}::uuid[])
  `.execute(db)
  return new Map(result.rows.map(({ id, ...state }) => [id, state]))
}

// ---------------------------------------------------------------------------------------------
// Listing

export interface ListFilters {
  startGte?: Date
  startLte?: Date
  excludeUndated?: boolean
  distanceMiles?: number
  origin?: { latitude: number; longitude: number }
  venueType?: 'in_person' | 'online'
}

export function listFilters(query: ListQuery, caller: User | null): ListFilters {
  const fields: Record<string, string[]> = {}
  if ((query.latitude === undefined) !== (query.longitude === undefined)) {
    fields[query.latitude === undefined ? 'latitude' : 'longitude'] = ['origin_incomplete']
  }
  let origin =
    query.latitude !== undefined && query.longitude !== undefined
      ? { latitude: query.latitude, longitude: query.longitude }
      : undefined
  if (!origin && caller && caller.lat !== null && caller.long !== null) origin = { latitude: caller.lat, longitude: caller.long }
  if (query['distance[lte]'] !== undefined && !origin) fields['distance[lte]'] = ['origin_required']
  if (Object.keys(fields).length) throw problems.invalid(fields)
  return {
    startGte: query['start_date[gte]'] ? new Date(query['start_date[gte]']) : undefined,
    startLte: query['start_date[lte]'] ? new Date(query['start_date[lte]']) : undefined,
    excludeUndated: query['start_date[not]'] === 'null',
    distanceMiles: query['distance[lte]'],
    origin,
    venueType: query.venue_type,
  }
}

function filterConditions(filters: ListFilters): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [sql`experiences.canceled_at IS NULL`]
  if (filters.startGte) conditions.push(sql`experiences.start_at >= ${filters.startGte}`)
  if (filters.startLte) conditions.push(sql`experiences.start_at <= ${filters.startLte}`)
  if (filters.excludeUndated) conditions.push(sql`experiences.start_at IS NOT NULL`)
  if (filters.venueType) conditions.push(sql`experiences.venue_type = ${filters.venueType}::venue_type`)
  if (filters.distanceMiles !== undefined && filters.origin) {
    const meters = filters.distanceMiles * METERS_PER_MILE
    const { latitude, longitude } = filters.origin
    // The explicit NOT NULL clauses match the partial GiST index `experiences_location`.
    conditions.push(
      sql`experiences.latitude IS NOT NULL AND experiences.longitude IS NOT NULL`,
      sql`earth_box(ll_to_earth(${latitude}::float8, ${longitude}::float8), ${meters}::float8) @> ll_to_earth(experiences.latitude, experiences.longitude)`,
      sql`earth_distance(ll_to_earth(${latitude}::float8, ${longitude}::float8), ll_to_earth(experiences.latitude, experiences.longitude)) <= ${meters}::float8`,
    )
  }
  return conditions
}

/** The page query of the list (exported for the EXPLAIN test). */
export function buildListQuery(db: DB, filters: ListFilters, paging: { limit: number; offset: number }) {
  const where = sql<boolean>`${sql.join(filterConditions(filters), sql` AND `)}`
  const origin = filters.origin
  return db
    .selectFrom('experiences')
    .selectAll('experiences')
    .select(
      origin
        ? sql<number | null>`CASE WHEN experiences.latitude IS NULL OR experiences.longitude IS NULL THEN NULL
            ELSE earth_distance(ll_to_earth(${origin.latitude}::float8, ${origin.longitude}::float8), ll_to_earth(experiences.latitude, experiences.longitude)) END`.as(
            'distance_m',
          )
        : sql<number | null>`NULL::float8`.as('distance_m'),
    )
    // The total rides along with the page (one round trip instead of two).
    .select(sql<number>`count(*) OVER ()`.as('total_count'))
    .where(where)
    .orderBy(sql`experiences.start_at ASC NULLS LAST`)
    .orderBy('experiences.id')
    .limit(paging.limit)
    .offset(paging.offset)
}

export async function listExperiences(db: DB, media: MediaStorage, query: ListQuery, caller: User | null) {
  const filters = listFilters(query, caller)
  const perPage = Math.min(query.per_page, MAX_PER_PAGE)
  const rows = await buildListQuery(db, filters, { limit: perPage, offset: (query.page - 1) * perPage }).execute()
  // Past the last page no row carries the total: count separately.
  const total =
    rows[0]?.total_count ??
    (query.page > 1
      ? (
          await db
            .selectFrom('experiences')
            .select(sql<number>`count(*)::int`.as('count'))
            .where(sql<boolean>`${sql.join(filterConditions(filters), sql` AND `)}`)
            .executeTakeFirstOrThrow()
        ).count
      : 0)
  return {
    data: await serializeExperiences(db, media, rows, caller),
    metadata: pageMetadata(query.page, perPage, Number(total)),
  }
}

/**
 * A member's activities (issue 12 §5): those they host, hold a seat at or wait on the notify list
 * of (or those they host only). A cancelled one stays, marked (`canceled`), for its host and
 * whoever held a seat, the members who may still read it; its notify list is over.
 */
export async function listUserExperiences(
  db: DB,
  media: MediaStorage,
  caller: User,
  userId: string,
  query: UserExperiencesQuery,
) {
  if (!isUuid(userId)) throw problems.notFound('User not found')
  requirePermission(caller, 'read:user:experiences', { id: userId })
  const perPage = Math.min(query.per_page, MAX_PER_PAGE)
  const now = new Date()
  const membership =
    query.hosting === 'true'
      ? sql`experiences.host_id = ${userId}`
      : sql`(experiences.host_id = ${userId}
          OR EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = experiences.id AND a.user_id = ${userId})
          OR (experiences.canceled_at IS NULL
            AND EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.experience_id = experiences.id AND w.user_id = ${userId})))`
  const when =
    query.type === 'past'
      ? sql`experiences.start_at < ${now}`
      : sql`(experiences.start_at IS NULL OR experiences.start_at >= ${now})`
  const where = sql<boolean>`${membership} AND ${when}`
  return pageOfExperiences(db, media, caller, where, query.type === 'past' ? sql`start_at DESC` : sql`start_at ASC NULLS LAST`, query.page, perPage)
}

/** A page of the activities `where` selects, in `order`, serialized for `caller`, with its metadata. */
export async function pageOfExperiences(db: DB, media: MediaStorage, caller: User, where: RawBuilder<boolean>, order: RawBuilder<unknown>, page: number, perPage: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('experiences')
      .selectAll()
      .where(where)
      .orderBy(order)
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    db.selectFrom('experiences').select(sql<number>`count(*)::int`.as('count')).where(where).executeTakeFirstOrThrow(),
  ])
  return {
    data: await serializeExperiences(db, media, rows, caller),
    metadata: pageMetadata(page, perPage, Number(count.count)),
  }
}

// ---------------------------------------------------------------------------------------------
// Create and update

function slugify(title: string) {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)
      .replace(/-$/, '') || 'activity'
  )
}

async function uniqueSlug(db: DB | Trx, title: string) {
  const stem = slugify(title)
  for (let attempt = 0; attempt < 6; attempt++) {
    const slug = `${stem}-${randomBytes(4).toString('hex').slice(0, attempt < 3 ? 4 : 8)}`
    const taken = await db.selectFrom('experiences').select('id').where('slug', '=', slug).executeTakeFirst()
    if (!taken) return slug
  }
  return `${stem}-${crypto.randomUUID()}`
}

async function hostTimeZone(deps: ExperienceDeps, hostId: string | null) {
  if (hostId) {
    const host = await deps.db.selectFrom('users').select(['lat', 'long']).where('id', '=', hostId).executeTakeFirst()
    if (host && host.lat !== null && host.long !== null) {
      const zone = deps.places.timeZoneAt(host.lat, host.long)
      if (zone && isValidTimeZone(zone)) return zone
    }
  }
  return DEFAULT_TIME_ZONE
}

type Columns = {
  title?: string
  description?: string
  start_at?: Date | null
  end_at?: Date | null
  timezone?: string
  venue_type?: 'in_person' | 'online'
  latitude?: number | null
  longitude?: number | null
  formatted_address?: string | null
  place_id?: string | null
  city?: string | null
  region?: string | null
  url?: string | null
  ticket_url?: string | null
  no_show_fee_cents?: number | null
  max_attendees?: number | null
  cover_media_id?: string | null
  is_hostless?: boolean
  is_premium?: boolean
}

/**
 * Turns a create/update body into column values, with every domain rule of the contract.
 * `current` is the stored row on update (fields not in the body keep their values).
 */
async function resolveColumns(deps: ExperienceDeps, caller: User, input: ExperienceInput, current: Experience | null) {
  const fields: Record<string, string[]> = {}
  const fail = (field: string, code: string) => void (fields[field] ??= []).push(code)
  const creating = current === null
  const columns: Columns = {}

  // Admin-only flags: a member may only send the values already in force.
  for (const flag of ['is_hostless', 'is_premium'] as const) {
    const value = input[flag]
    if (value === undefined) continue
    if (value !== (current?.[flag] ?? false)) requirePermission(caller, 'update:experience:flags')
    columns[flag] = value
  }

  if (input.title !== undefined) {
    if (!input.title) fail('title', 'title_required')
    else columns.title = input.title
  } else if (creating) fail('title', 'title_required')
  if (input.description !== undefined) columns.description = input.description ?? ''

  const venueType = input.venue_type ?? current?.venue_type
  if (!venueType) fail('venue_type', 'venue_type_required')
  else columns.venue_type = venueType

  // Location and time zone.
  let timeZone = current?.timezone ?? DEFAULT_TIME_ZONE
  if (venueType === 'in_person') {
    const placeChanged = input.place_id !== undefined && input.place_id !== current?.place_id
    const placeId = input.place_id !== undefined ? input.place_id : current?.place_id
    const switching = current?.venue_type !== 'in_person'
    if (!placeId) fail('place_id', 'location_required')
    else if (placeChanged || switching || creating) {
      const place = await deps.places.resolvePlace(placeId)
      if (!place) fail('place_id', 'location_required')
      else {
        Object.assign(columns, {
          place_id: place.id,
          latitude: place.latitude,
          longitude: place.longitude,
          city: place.city,
          region: place.region,
        })
        timeZone = isValidTimeZone(place.timeZone) ? place.timeZone : DEFAULT_TIME_ZONE
      }
    }
    if (input.formatted_address !== undefined) columns.formatted_address = input.formatted_address || null
    if (switching) columns.url = null
  } else if (venueType === 'online') {
    const url = input.url !== undefined ? input.url : current?.url
    if (!url || !isHttpUrl(url)) fail('url', 'url_invalid')
    else if (input.url !== undefined) columns.url = url
    if (creating || current?.venue_type !== 'online') {
      Object.assign(columns, { latitude: null, longitude: null, formatted_address: null, place_id: null, city: null, region: null })
      timeZone = await hostTimeZone(deps, current?.host_id ?? caller.id)
    }
  }
  if (timeZone !== current?.timezone) columns.timezone = timeZone

  if (input.ticket_url !== undefined) {
    if (input.ticket_url && !isHttpUrl(input.ticket_url)) fail('ticket_url', 'url_invalid')
    else columns.ticket_url = input.ticket_url || null
  }
  if (input.no_show_fee !== undefined) {
    if (input.no_show_fee === null || input.no_show_fee === '') columns.no_show_fee_cents = null
    else {
      const cents = feeToCents(input.no_show_fee)
      if (cents === undefined) fail('no_show_fee', 'currency_invalid')
      else columns.no_show_fee_cents = cents
    }
  }

  if (input.max_attendees !== undefined) {
    if (current && input.max_attendees !== null && input.max_attendees < current.attendees_count) {
      fail('max_attendees', 'capacity_below_attendees')
    } else columns.max_attendees = input.max_attendees
  }

  if (input.cover_photo !== undefined) {
    if (input.cover_photo === null || input.cover_photo === '') columns.cover_media_id = null
    else if (input.cover_photo !== current?.cover_media_id) {
      const media = isUuid(input.cover_photo)
        ? await deps.db
            .selectFrom('media')
            .select(['id', 'owner_id', 'target'])
            .where('id', '=', input.cover_photo)
            .executeTakeFirst()
        : undefined
      if (!media || media.target !== 'experience_cover' || !can(caller, 'use:media', media)) {
        fail('cover_photo', 'cover_photo_invalid')
      } else columns.cover_media_id = media.id
    }
  }

  // Start and end, in the activity's time zone.
  const currentLocal = current?.start_at ? localDateTime(current.start_at, current.timezone) : null
  const date = input.start_date ?? currentLocal?.date
  const time = input.start_time ?? currentLocal?.time
  if (!date) fail('start_date', 'start_date_required')
  if (!time) fail('start_time', 'start_time_required')
  else if (input.start_time !== undefined && Number(time.slice(3, 5)) % 5 !== 0) fail('start_time', 'start_time_step')
  const timingChanged =
    creating ||
    input.start_date !== undefined ||
    input.start_time !== undefined ||
    input.duration_minutes !== undefined ||
    columns.timezone !== undefined
  if (date && time && !fields.start_time && timingChanged) {
    const start = zonedTimeToUtc(date, time, timeZone)
    const startMoved = start.getTime() !== current?.start_at?.getTime()
    if (startMoved && start.getTime() <= Date.now()) fail('start_date', 'start_date_past')
    const previousDuration =
      current?.start_at && current.end_at ? (current.end_at.getTime() - current.start_at.getTime()) / MINUTE : null
    const duration = input.duration_minutes ?? previousDuration ?? DEFAULT_DURATION_MINUTES
    columns.start_at = start
    columns.end_at = new Date(start.getTime() + duration * MINUTE)
  }

  if (Object.keys(fields).length) throw problems.invalid(fields)
  return columns
}

export async function createExperience(deps: ExperienceDeps, caller: User, input: ExperienceInput) {
  requirePermission(caller, 'create:experience')
  const columns = await resolveColumns(deps, caller, input, null)
  const slug = await uniqueSlug(deps.db, columns.title ?? '')
  const created = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('experiences')
      .values({
        ...columns,
        title: columns.title ?? '',
        venue_type: columns.venue_type ?? 'in_person',
        slug,
        host_id: caller.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await scheduleReminders(trx, deps.jobs, row)
    // Its group chat, with its host in it, from the moment it exists (issue 29 §3, decision 060).
    const channelId = await openActivityChat(trx, row, caller.id)
    await deps.chatMirror.record(trx, { type: 'channel', channel_id: channelId })
    return row
  })
  return serializeExperience(deps.db, deps.media, created, caller)
}

export async function updateExperience(deps: ExperienceDeps, caller: User, idOrSlug: string, input: ExperienceInput) {
  const found = await getExperience(deps.db, idOrSlug)
  requirePermission(caller, 'update:experience', found)
  if (found.canceled_at) throw canceledProblem()
  if (hasStarted(found, Date.now())) throw pastProblem()
  const updated = await deps.db.transaction().execute(async (trx) => {
    const current = await lockExperience(trx, found.id)
    if (current.canceled_at) throw canceledProblem()
    if (hasStarted(current, Date.now())) throw pastProblem()
    const columns = await resolveColumns(deps, caller, input, current)
    const row = await trx
      .updateTable('experiences')
      .set({ ...columns, updated_at: new Date() })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    // More seats (or no limit any more): the notify list gets them.
    const before = isLimited(current) ? (current.max_attendees ?? 0) - current.attendees_count : Infinity
    const after = isLimited(row) ? (row.max_attendees ?? 0) - row.attendees_count : Infinity
    if (isLimited(current) && after > Math.max(before, 0)) {
      await offerFreedSeats(trx, deps.notify, row, after === Infinity ? Number.MAX_SAFE_INTEGER : after - Math.max(before, 0))
    }
    // A new start: its reminders (the old jobs find the start moved and do nothing); attendees hear of a new time or place.
    if (row.start_at?.getTime() !== current.start_at?.getTime()) await scheduleReminders(trx, deps.jobs, row)
    // A new time or place is not what members agreed to: no fee for seats saved before it (decision 075).
    if (changesOf(current, row).length > 0) await trx.updateTable('experiences').set({ schedule_changed_at: new Date() }).where('id', '=', row.id).execute()
    await notifyChanges(trx, deps.notify, current, row, caller.id)
    return trx.selectFrom('experiences').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
  })
  return serializeExperience(deps.db, deps.media, updated, caller)
}

/** Organizer cancel: final; every attendee gets an `experience.canceled` notification. */
export async function cancelExperience(deps: NotifyingDeps, caller: User, idOrSlug: string) {
  const { db } = deps
  const found = await getExperience(db, idOrSlug)
  requirePermission(caller, 'delete:experience', found)
  if (found.canceled_at) return
  // Begun: nothing is left to call off (issue 29 §4).
  if (hasStarted(found, Date.now())) throw pastProblem()
  await db.transaction().execute((trx) => cancelInTransaction(trx, deps, found.id, caller.id))
}

/**
 * The cancellation itself, inside `trx`: the activity is marked cancelled by `actorId` (seats
 * are kept), everyone else holding a seat gets `experience.canceled` and its chat says so. Deleting an account
 * cancels the activities its member hosts with it (api/users/account.ts).
 */
export async function cancelInTransaction(trx: Trx, { notify, chatMirror }: AfterCommit, experienceId: string, actorId: string) {
  const current = await lockExperience(trx, experienceId)
  if (current.canceled_at) return
  await trx
    .updateTable('experiences')
    .set({ canceled_at: new Date(), canceled_by: actorId, updated_at: new Date() })
    .where('id', '=', current.id)
    .execute()
  const attendees = await trx
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', current.id)
    .where('user_id', '!=', actorId)
    .execute()
  await notify({ type: 'experience.canceled', to: attendees.map((a) => a.user_id), data: { experience_id: current.id, canceled_by: actorId } }, trx)
  await announceCancellation(trx, chatMirror, current.id)
}
