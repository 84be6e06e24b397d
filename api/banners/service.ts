import { createHash } from 'node:crypto'
import { sql, type Expression, type Selectable, type SqlBool } from 'kysely'
import type { AdminBanner, Banner, BannerArea, BannerAudience, BannerChange } from '#contract/banners.ts'
import type { BannerPopup } from '#contract/popups.ts'
import type { DB } from '../db/database.ts'
import { isOn } from '../flags/service.ts'
import type { BannersTable, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { requirePermission, roleOf, type Caller } from '../policy/permissions.ts'
import { US_STATES } from '../providers/maps/gazetteer.ts'
import type { PlacesProvider } from '../providers/maps/provider.ts'

/**
 * Banners by location (issue 32 §4, decision 084). A banner shows between its start and its end,
 * to its audience, at a point inside its area: a circle (earth distance from its centre), some US
 * states (the state of the city nearest the point), or everywhere. A member who put it away does
 * not see it again until its words or link change (`content_hash`) or the dismissal's days run out.
 */

type BannerRow = Selectable<BannersTable>
const METERS_PER_MILE = 1609.344

/** What a member or a visitor gets of a banner. */
function bannerJson(row: BannerRow): Banner {
  const words = (value: unknown) => {
    const record = (value ?? {}) as Record<string, unknown>
    const en = typeof record.en === 'string' ? record.en : ''
    const pick = (language: string) => {
      const text = record[language]
      return typeof text === 'string' && text ? text : en
    }
    return { en, fr: pick('fr'), nl: pick('nl') }
  }
  return {
    id: row.id,
    title: words(row.title),
    body: words(row.body),
    link_url: row.link_url,
    content_hash: row.content_hash,
    dismiss_days: row.dismiss_days,
  }
}

function areaOf(row: BannerRow): BannerArea {
  if (row.latitude !== null && row.longitude !== null && row.radius_miles !== null)
    return { kind: 'circle', latitude: row.latitude, longitude: row.longitude, radius_miles: row.radius_miles }
  if (row.us_states.length > 0) return { kind: 'states', states: row.us_states }
  return { kind: 'everywhere' }
}

/** The hash a dismissal remembers: a new title, body or link in any language brings the banner back. */
function contentHash(input: { title: unknown; body: unknown; link_url: string | null }) {
  return createHash('sha256')
    .update(JSON.stringify([input.title, input.body, input.link_url]))
    .digest('base64url')
    .slice(0, 22)
}

/**
 * The banners showing at a point now, for this caller (null: a visitor), newest start first,
 * without those the caller put away. `state`: the point's US state, when known.
 */
async function showing(db: DB, caller: Caller, point: { latitude: number; longitude: number }, state: string | null, now: Date) {
  const role = roleOf(caller)
  const member = caller !== null && role !== 'anonymous'
  const premium = member
    ? Boolean(
        await db
          .selectFrom('subscriptions')
          .select('id')
          .where('user_id', '=', caller.id)
          .where('status', 'in', ['active', 'past_due'])
          .executeTakeFirst(),
      )
    : false
  const audiences: BannerAudience[] = ['everyone', ...(member ? (['members'] as const) : []), ...(premium ? (['premium'] as const) : [])]
  return db
    .selectFrom('banners')
    .selectAll('banners')
    .where('banners.starts_at', '<=', now)
    .where((eb) => eb.or([eb('banners.ends_at', 'is', null), eb('banners.ends_at', '>', now)]))
    .where('banners.audience', 'in', audiences)
    .where((eb) => {
      const inCircle: Expression<SqlBool> = sql<SqlBool>`banners.latitude IS NOT NULL AND earth_distance(ll_to_earth(banners.latitude, banners.longitude), ll_to_earth(${point.latitude}::float8, ${point.longitude}::float8)) <= banners.radius_miles * ${METERS_PER_MILE}::float8`
      const everywhere = eb.and([eb('banners.latitude', 'is', null), sql<SqlBool>`cardinality(banners.us_states) = 0`])
      const inStates = state ? [sql<SqlBool>`${state} = ANY(banners.us_states)`] : []
      return eb.or([everywhere, inCircle, ...inStates])
    })
    .$if(member, (qb) =>
      qb.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('popups')
              .select(sql`1`.as('one'))
              .whereRef('popups.banner_id', '=', 'banners.id')
              .where('popups.user_id', '=', caller!.id)
              .whereRef('popups.content_hash', '=', 'banners.content_hash')
              .where((inner) => inner.or([inner('popups.expires_at', 'is', null), inner('popups.expires_at', '>', now)])),
          ),
        ),
      ),
    )
    .orderBy('banners.starts_at', 'desc')
    .orderBy('banners.id')
    .limit(10)
    .execute()
}

/** `GET v1/cms/banners?latitude=&longitude=`: the banners showing at that point for the caller (a visitor too). */
export async function bannersAt(db: DB, places: PlacesProvider, caller: Caller, point: { latitude: number; longitude: number }, now = new Date()): Promise<Banner[]> {
  // The `banners` flag off: none is showing, for an API client as for the web's Home.
  if (!(await isOn(db, caller, 'banners', true))) return []
  const city = await places.nearestCity(point.latitude, point.longitude)
  return (await showing(db, caller, point, city?.state ?? null, now)).map(bannerJson)
}

/** The `BANNER` popups of a member: the banners showing where they live (their saved place), if they saved one. */
export async function bannerPopups(db: DB, places: PlacesProvider, caller: User, now = new Date()): Promise<BannerPopup[]> {
  if (caller.lat === null || caller.long === null) return []
  const banners = await bannersAt(db, places, caller, { latitude: caller.lat, longitude: caller.long }, now)
  return banners.map((banner) => ({ type: 'BANNER', banner_id: banner.id, banner }))
}

/**
 * Puts a banner away for the member, for this version of it, and for its `dismiss_days` when it
 * has some. Again: the latest dismissal holds. 404 for a banner that does not exist.
 */
export async function dismissBanner(db: DB, caller: User, bannerId: string, now = new Date()) {
  requirePermission(caller, 'read:popups')
  if (!isUuid(bannerId)) throw problems.notFound('Banner not found')
  const banner = await db.selectFrom('banners').select(['id', 'content_hash', 'dismiss_days']).where('id', '=', bannerId).executeTakeFirst()
  if (!banner) throw problems.notFound('Banner not found')
  const expires = banner.dismiss_days === null ? null : new Date(now.getTime() + banner.dismiss_days * 24 * 60 * 60 * 1000)
  await db
    .insertInto('popups')
    .values({ user_id: caller.id, type: 'BANNER', banner_id: banner.id, content_hash: banner.content_hash, dismissed_at: now, expires_at: expires })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'banner_id'])
        .where('banner_id', 'is not', null)
        .doUpdateSet({ content_hash: banner.content_hash, dismissed_at: now, expires_at: expires }),
    )
    .execute()
}

// Admins ---------------------------------------------------------------------------------------

function adminBannerJson(row: BannerRow & { dismissals: number | string | bigint }, now: Date): AdminBanner {
  const starts = row.starts_at ?? row.created_at
  return {
    ...bannerJson(row),
    starts_at: starts.toISOString(),
    ends_at: row.ends_at?.toISOString() ?? null,
    area: areaOf(row),
    audience: row.audience,
    state: starts > now ? 'scheduled' : row.ends_at !== null && row.ends_at <= now ? 'ended' : 'showing',
    dismissals: Number(row.dismissals),
    created_at: row.created_at.toISOString(),
  }
}

const withDismissals = (db: DB) =>
  db
    .selectFrom('banners')
    .selectAll('banners')
    .select((eb) =>
      eb
        .selectFrom('popups')
        .select(eb.fn.countAll<string>().as('count'))
        .whereRef('popups.banner_id', '=', 'banners.id')
        .whereRef('popups.content_hash', '=', 'banners.content_hash')
        .as('dismissals'),
    )

/** `GET v1/admin/banners`: showing and scheduled ones first (by start), then those that ended, newest first (at most 100). */
export async function listBanners(db: DB, caller: Caller, now = new Date()): Promise<AdminBanner[]> {
  requirePermission(caller, 'manage:banners')
  const rows = await withDismissals(db)
    .orderBy(sql`banners.ends_at IS NOT NULL AND banners.ends_at <= ${now}`)
    .orderBy('banners.starts_at', 'desc')
    .orderBy('banners.id')
    .limit(100)
    .execute()
  return rows.map((row) => adminBannerJson({ ...row, dismissals: row.dismissals ?? 0 }, now))
}

/** One banner as admins see it, read again after a change. */
async function adminBanner(db: DB, id: string, now: Date) {
  const row = await withDismissals(db).where('banners.id', '=', id).executeTakeFirstOrThrow()
  return adminBannerJson({ ...row, dismissals: row.dismissals ?? 0 }, now)
}

function columnsOf(input: BannerChange, now: Date) {
  const area = input.area
  const states = area.kind === 'states' ? [...new Set(area.states)] : []
  return {
    title: JSON.stringify(input.title),
    body: JSON.stringify(input.body),
    link_url: input.link_url,
    latitude: area.kind === 'circle' ? area.latitude : null,
    longitude: area.kind === 'circle' ? area.longitude : null,
    radius_miles: area.kind === 'circle' ? area.radius_miles : null,
    us_states: states,
    starts_at: input.starts_at ? new Date(input.starts_at) : now,
    ends_at: new Date(input.ends_at),
    audience: input.audience,
    dismiss_days: input.dismiss_days,
    content_hash: contentHash(input),
    updated_at: now,
  }
}

async function audited(db: DB, caller: User, action: string, id: string, data: unknown, requestId: string | null) {
  await db
    .insertInto('audit_log')
    .values({ actor_id: caller.id, action, target_type: 'banner', target_id: id, data: JSON.stringify(data), request_id: requestId })
    .execute()
}

const unknownStates = (input: BannerChange) => input.area.kind === 'states' && input.area.states.some((state) => !(state in US_STATES))

/** `POST v1/admin/banners`: a new banner, audited. */
export async function createBanner(db: DB, caller: User, input: BannerChange, requestId: string | null, now = new Date()): Promise<AdminBanner> {
  requirePermission(caller, 'manage:banners')
  if (unknownStates(input)) throw problems.invalid({ 'area.states': ['states_invalid'] })
  const row = await db.transaction().execute(async (trx) => {
    const created = await trx.insertInto('banners').values({ ...columnsOf(input, now), created_by: caller.id }).returningAll().executeTakeFirstOrThrow()
    await audited(trx, caller, 'banner.create', created.id, { after: input }, requestId)
    return created
  })
  return adminBannerJson({ ...row, dismissals: 0 }, now)
}

/** `PUT v1/admin/banners/{id}`: changes a banner, audited; changed words or link bring it back to those who put it away. */
export async function updateBanner(db: DB, caller: User, id: string, input: BannerChange, requestId: string | null, now = new Date()): Promise<AdminBanner> {
  requirePermission(caller, 'manage:banners')
  if (!isUuid(id)) throw problems.notFound('Banner not found')
  if (unknownStates(input)) throw problems.invalid({ 'area.states': ['states_invalid'] })
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('banners').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw problems.notFound('Banner not found')
    await trx.updateTable('banners').set(columnsOf(input, now)).where('id', '=', id).execute()
    await audited(trx, caller, 'banner.update', id, { before: adminBannerJson({ ...before, dismissals: 0 }, now), after: input }, requestId)
  })
  return adminBanner(db, id, now)
}

/** `POST v1/admin/banners/{id}/end`: ends a banner now (it stays listed as ended), audited. Ending an ended one changes nothing. */
export async function endBanner(db: DB, caller: User, id: string, requestId: string | null, now = new Date()): Promise<AdminBanner> {
  requirePermission(caller, 'manage:banners')
  if (!isUuid(id)) throw problems.notFound('Banner not found')
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('banners').select(['id', 'ends_at', 'starts_at']).where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw problems.notFound('Banner not found')
    if (before.ends_at !== null && before.ends_at <= now) return
    // A scheduled banner that never showed ends without ever starting.
    const starts = before.starts_at !== null && before.starts_at < now ? before.starts_at : new Date(now.getTime() - 1000)
    await trx.updateTable('banners').set({ starts_at: starts, ends_at: now, updated_at: now }).where('id', '=', id).execute()
    await audited(trx, caller, 'banner.end', id, { ends_at: now.toISOString() }, requestId)
  })
  return adminBanner(db, id, now)
}
