import { randomBytes } from 'node:crypto'
import { sql, type RawBuilder, type Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Database, Experience, User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { problems } from '../http/errors.ts'
import { isLookupKey } from '../http/params.ts'
import { isUuid } from '../http/request.ts'
import type { Notify } from '../notifications/service.ts'
import { pageMetadata } from '#contract/common.ts'
import { hasStarted as startedAt, isFull, isLateCancel, isLimited } from '#contract/experience-rules.ts'
import type {
  Experience as ExperienceJson,
  ExperienceInput,
  ExperienceListQuery as ListQuery,
  UserExperiencesQuery,
} from '#contract/experiences.ts'
import { defaultDurationMinutes as DEFAULT_DURATION_MINUTES, maxPerPage as MAX_PER_PAGE, noShowFeePattern } from '#contract/limits.ts'
import { isValidTimeZone, zonedParts, zonedTimeToUtc } from '#contract/zoned-time.ts'
import { visibleMembers } from '../policy/members.ts'
import { can, isHostOf, requirePermission } from '../policy/permissions.ts'
import { displayName } from '#contract/display-name.ts'

// ---------------------------------------------------------------------------------------------
// Dependencies

/** A place picked from the places search (supplied by the places provider). */
export interface ResolvedPlace {
  id: string
  label: string
  city: string | null
  region: string | null
  latitude: number
  longitude: number
  timeZone: string
}

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
}

/** What the attendance changes need: they may free a seat or cancel, and then notify. */
type NotifyingDeps = Pick<ExperienceDeps, 'db' | 'notify'>

type Trx = Transaction<Database>

const HOUR = 3_600_000
const MINUTE = 60_000
const METERS_PER_MILE = 1609.344
/** Notify-list rules: more than 24 h before the start the first member is seated at once. */
export const PROMOTION_WINDOW_MS = 24 * HOUR

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

export { isUuid }

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

/** Whether `userId` holds a seat at the activity (cancelling an activity keeps its seats). */
async function holdsSeat(db: DB | Trx, experienceId: string, userId: string) {
  const seat = await db
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', experienceId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return seat !== undefined
}

async function lockExperience(trx: Trx, id: string) {
  const experience = await trx.selectFrom('experiences').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!experience) throw problems.notFound('Experience not found')
  return experience
}

const canceledProblem = () => problems.conflict('experience_canceled', 'This activity has been cancelled.')
const pastProblem = () => problems.conflict('experience_past', 'This activity has already started.')
const fullProblem = () =>
  problems.conflict('experience_full', 'This activity is full. You can join the notify list to hear when a seat frees up.')

const hasStarted = (e: Pick<Experience, 'start_at'>, now: number) => startedAt(e.start_at, now)

// ---------------------------------------------------------------------------------------------
// Serialization

export const mediaUrl = (key: string) => `/api/media/${key}`
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100)

type ExperienceRow = Experience & { distance_m?: number | null }

/** Batch-serializes rows for `caller` (null: anonymous) with hosts, covers and viewer state. */
export async function serializeExperiences(db: DB | Trx, rows: ExperienceRow[], caller: User | null): Promise<ExperienceJson[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const hostIds = [...new Set(rows.map((row) => row.host_id).filter((id): id is string => id !== null))]
  const coverIds = [...new Set(rows.map((row) => row.cover_media_id).filter((id): id is string => id !== null))]

  const [hosts, covers, viewer] = await Promise.all([
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
    coverIds.length
      ? db.selectFrom('media').select(['id', 'storage_key', 'thumbnail_key']).where('id', 'in', coverIds).execute()
      : [],
    caller ? viewerStates(db, caller.id, ids) : new Map<string, ViewerState>(),
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
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      cover_photo: cover
        ? { url: mediaUrl(cover.storage_key), thumbnail_url: cover.thumbnail_key ? mediaUrl(cover.thumbnail_key) : null }
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
            display_name: host.state === 'deleted' ? null : displayName(host),
            avatar: host.avatar_key && !host.banned && !host.is_suspended ? { url: mediaUrl(host.avatar_key) } : null,
          }
        : null,
      canceled_at: row.canceled_at?.toISOString() ?? null,
      is_past: hasStarted(row, now),
      distance_miles:
        row.distance_m === undefined || row.distance_m === null ? null : Math.round((row.distance_m / METERS_PER_MILE) * 10) / 10,
      viewer: signedIn
        ? {
            is_attending: viewerState?.is_attending ?? false,
            is_host: isHostOf(caller, row),
            can_manage: can(caller, 'update:experience', row),
            waitlist_position: viewerState?.waitlist_position ?? null,
            // Spec §4: the web shows the no-show warning and the confirmation from this alone.
            cancel_is_late: !hasStarted(row, now) && isLateCancel(row.start_at, now),
          }
        : null,
    }
  })
}

export async function serializeExperience(db: DB | Trx, row: ExperienceRow, caller: User | null) {
  const [json] = await serializeExperiences(db, [row], caller)
  return json as ExperienceJson
}

interface ViewerState {
  attendees_count: number
  is_attending: boolean
  /** 1-based FIFO position (join time, then user id) on the notify list, or null. */
  waitlist_position: number | null
}

/**
 * What `userId` sees of each of `experienceIds`: the attendee count, their seat and their place on
 * the notify list, read in one statement (one snapshot), so a seat taken or a promotion from the
 * list between two reads never shows "you are going" beside a count that leaves the seat out.
 */
async function viewerStates(db: DB | Trx, userId: string, experienceIds: string[]) {
  const result = await sql<ViewerState & { id: string }>`
    SELECT e.id, e.attendees_count,
      EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${userId}) AS is_attending,
      CASE WHEN w.user_id IS NOT NULL THEN (SELECT count(*)::int FROM waitlist_entries o JOIN users ou ON ou.id = o.user_id
        WHERE o.experience_id = e.id AND ${visibleMembers('ou')} AND (o.created_at, o.user_id) <= (w.created_at, w.user_id)) END AS waitlist_position
    FROM experiences e
    LEFT JOIN waitlist_entries w ON w.experience_id = e.id AND w.user_id = ${userId}
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

export async function listExperiences(db: DB, query: ListQuery, caller: User | null) {
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
    data: await serializeExperiences(db, rows, caller),
    metadata: pageMetadata(query.page, perPage, Number(total)),
  }
}

/** A member's activities: attending ∪ hosting (or hosting only), never cancelled ones. */
export async function listUserExperiences(
  db: DB,
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
      : sql`(experiences.host_id = ${userId} OR EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = experiences.id AND a.user_id = ${userId}))`
  const when =
    query.type === 'past'
      ? sql`experiences.start_at < ${now}`
      : sql`(experiences.start_at IS NULL OR experiences.start_at >= ${now})`
  const where = sql<boolean>`experiences.canceled_at IS NULL AND ${membership} AND ${when}`
  const [rows, count] = await Promise.all([
    db
      .selectFrom('experiences')
      .selectAll()
      .where(where)
      .orderBy(query.type === 'past' ? sql`start_at DESC` : sql`start_at ASC NULLS LAST`)
      .orderBy('id')
      .limit(perPage)
      .offset((query.page - 1) * perPage)
      .execute(),
    db.selectFrom('experiences').select(sql<number>`count(*)::int`.as('count')).where(where).executeTakeFirstOrThrow(),
  ])
  return {
    data: await serializeExperiences(db, rows, caller),
    metadata: pageMetadata(query.page, perPage, Number(count.count)),
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
  const created = await deps.db
    .insertInto('experiences')
    .values({
      ...columns,
      title: columns.title ?? '',
      venue_type: columns.venue_type ?? 'in_person',
      slug: await uniqueSlug(deps.db, columns.title ?? ''),
      host_id: caller.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return serializeExperience(deps.db, created, caller)
}

export async function updateExperience(deps: ExperienceDeps, caller: User, idOrSlug: string, input: ExperienceInput) {
  const found = await getExperience(deps.db, idOrSlug)
  requirePermission(caller, 'update:experience', found)
  if (found.canceled_at) throw canceledProblem()
  const updated = await deps.db.transaction().execute(async (trx) => {
    const current = await lockExperience(trx, found.id)
    if (current.canceled_at) throw canceledProblem()
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
    return trx.selectFrom('experiences').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
  })
  return serializeExperience(deps.db, updated, caller)
}

/** Organizer cancel: final; every attendee gets an `experience.canceled` notification. */
export async function cancelExperience({ db, notify }: NotifyingDeps, caller: User, idOrSlug: string) {
  const found = await getExperience(db, idOrSlug)
  requirePermission(caller, 'delete:experience', found)
  if (found.canceled_at) return
  await db.transaction().execute(async (trx) => {
    const current = await lockExperience(trx, found.id)
    if (current.canceled_at) return
    await trx.updateTable('experiences').set({ canceled_at: new Date(), updated_at: new Date() }).where('id', '=', current.id).execute()
    const attendees = await trx
      .selectFrom('experience_attendees')
      .select('user_id')
      .where('experience_id', '=', current.id)
      .where('user_id', '!=', caller.id)
      .execute()
    await notify({ type: 'experience.canceled', to: attendees.map((a) => a.user_id), data: { experience_id: current.id } }, trx)
  })
}

// ---------------------------------------------------------------------------------------------
// Attendance

/**
 * Seats `userId` inside `trx`, never over capacity: the attendee row first (a concurrent
 * duplicate waits on the primary key), then a guarded count increment. Answers 'attending'
 * when they already were; 'full' after undoing the row when no seat was left.
 */
async function takeSeat(trx: Trx, experienceId: string, userId: string): Promise<'added' | 'attending' | 'full'> {
  // Row lock first, in the same order as seat cancellation and promotion (no deadlocks).
  await trx.selectFrom('experiences').select('id').where('id', '=', experienceId).forNoKeyUpdate().execute()
  const inserted = await trx
    .insertInto('experience_attendees')
    .values({ experience_id: experienceId, user_id: userId })
    .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  if (!inserted) return 'attending'
  const seated = await sql<{ id: string }>`
    UPDATE experiences SET attendees_count = attendees_count + 1, updated_at = now()
    WHERE id = ${experienceId} AND canceled_at IS NULL
      AND (max_attendees IS NULL OR max_attendees = 0 OR attendees_count < max_attendees)
    RETURNING id
  `.execute(trx)
  if (seated.rows.length === 0) {
    await trx.deleteFrom('experience_attendees').where('experience_id', '=', experienceId).where('user_id', '=', userId).execute()
    return 'full'
  }
  await trx.deleteFrom('waitlist_entries').where('experience_id', '=', experienceId).where('user_id', '=', userId).execute()
  return 'added'
}

/**
 * Notify-list rules for `seats` freed seats: more than 24 h before the start (or undated) the
 * first members in join order are seated at once (`waitlist.selected`); within 24 h everyone on
 * the list hears of it (`waitlist.seat_available`) and the first to attend takes the seat.
 */
/** The notify list in join order, members others may see only (a suspended member is not offered a seat). */
function waitingMembers(trx: Trx, experienceId: string) {
  return trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select('w.user_id')
    .where('w.experience_id', '=', experienceId)
    .where(visibleMembers('u'))
    .orderBy('w.created_at')
    .orderBy('w.user_id')
}

async function offerFreedSeats(trx: Trx, notify: Notify, experience: Experience, seats: number) {
  const now = Date.now()
  if (experience.canceled_at || hasStarted(experience, now) || seats <= 0) return
  const farAhead = experience.start_at === null || experience.start_at.getTime() - now > PROMOTION_WINDOW_MS
  if (!farAhead) {
    const everyone = await waitingMembers(trx, experience.id).execute()
    await notify({ type: 'waitlist.seat_available', to: everyone.map((entry) => entry.user_id), data: { experience_id: experience.id } }, trx)
    return
  }
  let seated = 0
  while (seated < seats) {
    const next = await waitingMembers(trx, experience.id).limit(1).executeTakeFirst()
    if (!next) return
    const outcome = await takeSeat(trx, experience.id, next.user_id)
    if (outcome === 'full') return
    await trx.deleteFrom('waitlist_entries').where('experience_id', '=', experience.id).where('user_id', '=', next.user_id).execute()
    if (outcome === 'added') {
      seated++
      await notify({ type: 'waitlist.selected', to: [next.user_id], data: { experience_id: experience.id } }, trx)
    }
  }
}

function checkOpen(experience: Experience) {
  if (experience.canceled_at) throw canceledProblem()
  if (hasStarted(experience, Date.now())) throw pastProblem()
}

export async function attend(db: DB, caller: User, idOrSlug: string, userId: string) {
  requirePermission(caller, 'create:attendance', { user_id: userId })
  const experience = await getExperience(db, idOrSlug)
  checkOpen(experience)
  if (userId !== caller.id) {
    const target = await db.selectFrom('users').select('id').where('id', '=', userId).where(visibleMembers()).executeTakeFirst()
    if (!target) throw problems.notFound('User not found')
  }
  await db.transaction().execute(async (trx) => {
    // A full activity throws, which rolls the attendee row back with the transaction.
    if ((await takeSeat(trx, experience.id, userId)) === 'full') throw fullProblem()
  })
  const fresh = await getExperience(db, experience.id)
  return serializeExperience(db, fresh, caller)
}

export async function cancelAttendance({ db, notify }: NotifyingDeps, caller: User, idOrSlug: string, userId: string) {
  const experience = await getExperience(db, idOrSlug)
  // Not an id at all (a NUL byte, a name): nobody is attending under it.
  if (!isUuid(userId)) throw problems.notFound('This member is not attending.')
  requirePermission(caller, 'delete:attendance', { user_id: userId, experience })
  if (experience.canceled_at) throw canceledProblem()
  if (hasStarted(experience, Date.now())) throw pastProblem()
  const late = await db.transaction().execute(async (trx) => {
    await trx.selectFrom('experiences').select('id').where('id', '=', experience.id).forNoKeyUpdate().execute()
    const removed = await trx
      .deleteFrom('experience_attendees')
      .where('experience_id', '=', experience.id)
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst()
    if (!removed) throw problems.notFound('This member is not attending.')
    const row = await trx
      .updateTable('experiences')
      .set({ attendees_count: sql`greatest(attendees_count - 1, 0)`, updated_at: new Date() })
      .where('id', '=', experience.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const isLate = isLateCancel(row.start_at)
    await trx
      .insertInto('attendance_cancellations')
      .values({
        experience_id: row.id,
        user_id: userId,
        is_late: isLate,
        no_show_fee_cents: isLate ? row.no_show_fee_cents : null,
      })
      .execute()
    if (isLimited(row)) await offerFreedSeats(trx, notify, row, 1)
    return isLate
  })
  const fresh = await getExperience(db, experience.id)
  return { data: [await serializeExperience(db, fresh, caller)], metadata: { late_cancellation: late } }
}

export async function addAttendeesByEmail(db: DB, caller: User, idOrSlug: string, emails: string[]) {
  const experience = await getExperience(db, idOrSlug)
  requirePermission(caller, 'add:attendees', experience)
  checkOpen(experience)
  const result = { added: [] as string[], already_attending: [] as string[], not_found: [] as string[], full: [] as string[] }
  const unique = [...new Set(emails.filter(Boolean))]
  const users = unique.length
    ? await db.selectFrom('users').select(['id', 'email']).where('email', 'in', unique).where(visibleMembers()).execute()
    : []
  const idByEmail = new Map(users.map((user) => [String(user.email).toLowerCase(), user.id]))
  for (const email of unique) {
    const userId = idByEmail.get(email)
    if (!userId) {
      result.not_found.push(email)
      continue
    }
    const outcome = await db.transaction().execute((trx) => takeSeat(trx, experience.id, userId))
    if (outcome === 'added') result.added.push(email)
    else if (outcome === 'attending') result.already_attending.push(email)
    else result.full.push(email)
  }
  return result
}

export async function listAttendees(db: DB, caller: User, idOrSlug: string, page: number, perPageInput: number) {
  requirePermission(caller, 'read:attendees')
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const perPage = Math.min(perPageInput, MAX_PER_PAGE)
  const [rows, count] = await Promise.all([
    db
      .selectFrom('experience_attendees as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('media as m', 'm.id', 'u.avatar_media_id')
      .select([
        'u.id',
        'u.first_name',
        'u.last_name',
        'u.formatted_name',
        'u.name',
        'u.banned',
        'u.is_suspended',
        'u.state',
        'm.storage_key as avatar_key',
      ])
      .where('a.experience_id', '=', experience.id)
      .where(visibleMembers('u'))
      .orderBy('a.created_at')
      .orderBy('u.id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    db
      .selectFrom('experience_attendees as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('a.experience_id', '=', experience.id)
      .where(visibleMembers('u'))
      .executeTakeFirstOrThrow(),
  ])
  return {
    data: rows.map((row) => ({
      id: row.id,
      display_name: row.state === 'deleted' ? null : displayName(row),
      avatar: row.avatar_key && !row.banned && !row.is_suspended ? { url: mediaUrl(row.avatar_key) } : null,
      is_host: row.id === experience.host_id,
    })),
    metadata: pageMetadata(page, perPage, Number(count.count)),
  }
}

function csvCell(value: string) {
  // Leading formula characters are neutralised so spreadsheets do not evaluate them.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^\+\d+$/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export async function attendeesCsv(db: DB, caller: User, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  requirePermission(caller, 'export:attendees', experience)
  const rows = await db
    .selectFrom('experience_attendees as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['u.first_name', 'u.last_name', 'u.formatted_name', 'u.name', 'u.email', 'u.phone', 'a.created_at'])
    .where('a.experience_id', '=', experience.id)
    .where(visibleMembers('u'))
    .orderBy('a.created_at')
    .execute()
  const lines = [['name', 'email', 'phone', 'joined_at']]
  for (const row of rows) {
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || row.formatted_name || row.name || ''
    lines.push([name, row.email ?? '', row.phone ?? '', row.created_at.toISOString()])
  }
  return { slug: experience.slug, csv: lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n' }
}

// ---------------------------------------------------------------------------------------------
// Notify list

export async function joinWaitlist(db: DB, caller: User, idOrSlug: string) {
  requirePermission(caller, 'join:waitlist')
  const experience = await getExperience(db, idOrSlug)
  checkOpen(experience)
  if (await holdsSeat(db, experience.id, caller.id)) throw problems.conflict('already_attending', 'You are already attending this activity.')
  if (!isFull(experience)) throw problems.conflict('experience_not_full', 'A seat is free: attend instead.')
  await db
    .insertInto('waitlist_entries')
    .values({ experience_id: experience.id, user_id: caller.id })
    .onConflict((oc) => oc.columns(['experience_id', 'user_id']).doNothing())
    .execute()
  return serializeExperience(db, experience, caller)
}

export async function leaveWaitlist(db: DB, caller: User, idOrSlug: string) {
  const experience = await getExperience(db, idOrSlug)
  await db.deleteFrom('waitlist_entries').where('experience_id', '=', experience.id).where('user_id', '=', caller.id).execute()
}

export async function listWaitlist(db: DB, caller: User, idOrSlug: string, page: number, perPageInput: number) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const perPage = Math.min(perPageInput, MAX_PER_PAGE)
  const entries = await sql<{
    user_id: string
    position: number
    created_at: Date
    first_name: string | null
    last_name: string | null
    formatted_name: string | null
    name: string | null
    banned: boolean
    is_suspended: boolean
  }>`
    SELECT w.user_id, row_number() OVER (ORDER BY w.created_at, w.user_id)::int AS position, w.created_at,
      u.first_name, u.last_name, u.formatted_name, u.name, u.banned, u.is_suspended
    FROM waitlist_entries w JOIN users u ON u.id = w.user_id
    WHERE w.experience_id = ${experience.id} AND ${visibleMembers('u')}
    ORDER BY w.created_at, w.user_id
  `.execute(db)
  const all = entries.rows.map((row) => ({
    user_id: row.user_id,
    position: Number(row.position),
    display_name: displayName(row),
    joined_at: row.created_at.toISOString(),
  }))
  if (can(caller, 'read:waitlist', experience)) {
    return {
      data: all.slice((page - 1) * perPage, page * perPage),
      metadata: pageMetadata(page, perPage, all.length),
    }
  }
  const own = all.filter((entry) => entry.user_id === caller.id)
  return { data: own, metadata: { page: 1, total_pages: 1, total_count: all.length } }
}

// ---------------------------------------------------------------------------------------------
// iCalendar (RFC 5545)

function icalText(value: string) {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n')
}

function icalDate(date: Date) {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** Folds a content line at 75 octets (UTF-8), never inside a character. */
export function foldLine(line: string) {
  const encoder = new TextEncoder()
  if (encoder.encode(line).length <= 75) return line
  const parts: string[] = []
  let current = ''
  let bytes = 0
  let limit = 75
  for (const char of line) {
    const size = encoder.encode(char).length
    if (bytes + size > limit) {
      parts.push(current)
      current = ''
      bytes = 0
      limit = 74 // continuation lines start with a space
    }
    current += char
    bytes += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

export async function experienceIcal(env: Env, db: DB, caller: User | null, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  if (!experience.start_at) throw problems.conflict('experience_undated', 'This activity has no date yet.')
  const start = experience.start_at
  const end = experience.end_at ?? new Date(start.getTime() + DEFAULT_DURATION_MINUTES * MINUTE)
  const pageUrl = `${env.PUBLIC_URL}/activities/${experience.id}`
  const cityLine = [experience.city, experience.region].filter(Boolean).join(', ')
  let location: string
  const details = can(caller, 'read:experience:details')
  if (experience.venue_type === 'online') location = details && experience.url ? experience.url : 'Online'
  else location = (details ? experience.formatted_address : null) || cityLine
  const description = [experience.description, pageUrl].filter(Boolean).join('\n\n')
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Circle 55//Activities//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${experience.id}@${new URL(env.PUBLIC_URL).hostname}`,
    `DTSTAMP:${icalDate(new Date())}`,
    `DTSTART:${icalDate(start)}`,
    `DTEND:${icalDate(end)}`,
    `SUMMARY:${icalText(experience.title)}`,
    `DESCRIPTION:${icalText(description)}`,
    ...(location ? [`LOCATION:${icalText(location)}`] : []),
    ...(experience.venue_type === 'in_person' && experience.latitude !== null && experience.longitude !== null && details
      ? [`GEO:${experience.latitude};${experience.longitude}`]
      : []),
    `URL:${pageUrl}`,
    `STATUS:${experience.canceled_at ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return { slug: experience.slug, ics: lines.map(foldLine).join('\r\n') + '\r\n' }
}
