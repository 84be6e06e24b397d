import { sql, type Expression } from 'kysely'
import { pageMetadata, type Page } from '#contract/common.ts'
import type { Notification, NotificationsQuery } from '#contract/notifications.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { notificationsTemplateT, type TemplateT } from '../i18n.ts'
import { requirePermission } from '../policy/permissions.ts'
import { readLeniently, type AnyNotificationKind } from './kind.ts'
import { notificationKind } from './types/index.ts'

/**
 * The member's in-app notifications (issue 15 §3 "In-app", decision 043): only their own, newest
 * first, each written in the reader's language from its type and data when it is read (so a
 * member who changes language reads them all in the new one, and an activity renamed since shows
 * its new title), by its type's declaration (api/notifications/types, decision 070).
 */

interface Row {
  id: string
  type: string
  data: unknown
  /** The activity `data` names (the column PostgreSQL keeps, migration 0024). */
  experience_id: string | null
  seen_at: Date | null
  created_at: Date
}

/**
 * `GET users/notifications`: a page of the caller's notifications, or only the metadata. The page,
 * its total and the titles of the activities it names are one statement (the total is counted
 * apart only for a page past the end).
 */
export async function listNotifications(db: DB, caller: User, query: NotificationsQuery): Promise<Page<Notification>> {
  requirePermission(caller, 'read:notifications')
  // Only those the member's in-app switches let through when they were recorded (decision 047).
  let mine = db.selectFrom('notifications as n').where('n.user_id', '=', caller.id).where('n.in_app', '=', true)
  if (query.seen_at === 'null') mine = mine.where('n.seen_at', 'is', null)
  const countAll = async () => (await mine.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()).total
  if (query.exclude_results === 'true') return { data: [], metadata: pageMetadata(query.page, query.per_page, await countAll()) }
  const rows = await mine
    .leftJoin('experiences as e', 'e.id', 'n.experience_id')
    .select(['n.id', 'n.type', 'n.data', 'n.experience_id', 'n.seen_at', 'n.created_at', 'e.title as experience_title'])
    .select(sql<number>`count(*) OVER ()::int`.as('total'))
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page)
    .execute()
  const total = rows[0]?.total ?? (query.page > 1 ? await countAll() : 0)
  const titles = new Map(rows.flatMap((row) => (row.experience_id && row.experience_title !== null ? [[row.experience_id, row.experience_title] as const] : [])))
  return { data: await present(db, rows, caller.locale, titles), metadata: pageMetadata(query.page, query.per_page, total) }
}

/** How many notifications the member has not read (the badge), as the list counts them. */
export async function unreadNotifications(db: DB, userId: string) {
  const row = await db.selectNoFrom(unreadNotificationsOf(userId).as('total')).executeTakeFirstOrThrow()
  return row.total
}

/** `unreadNotifications`' count as a subquery of a larger statement (the shell's, `v1/users/me?include=badges`). */
export function unreadNotificationsOf(userId: string | Expression<string>) {
  return sql<number>`(SELECT count(*)::int FROM notifications WHERE user_id = ${userId} AND in_app AND seen_at IS NULL)`
}

/** `PUT users/notifications/{id}/seen`: marks one of the caller's notifications seen (the first time is kept); 404 for anyone else's. */
export async function markNotificationSeen(db: DB, caller: User, id: string): Promise<Notification> {
  requirePermission(caller, 'update:notifications')
  if (!isUuid(id)) throw problems.notFound('Notification not found')
  const row = await db
    .updateTable('notifications')
    .set({ seen_at: sql<Date>`coalesce(seen_at, now())` })
    .where('id', '=', id)
    .where('user_id', '=', caller.id)
    .returning(['id', 'type', 'data', 'experience_id', 'seen_at', 'created_at'])
    .executeTakeFirst()
  if (!row) throw problems.notFound('Notification not found')
  const [notification] = await present(db, [row], caller.locale)
  return notification!
}

/** `PUT users/notifications/seen`: marks every unread notification of the caller seen. */
export async function markAllNotificationsSeen(db: DB, caller: User): Promise<void> {
  requirePermission(caller, 'update:notifications')
  await db.updateTable('notifications').set({ seen_at: sql<Date>`now()` }).where('user_id', '=', caller.id).where('seen_at', 'is', null).execute()
}

/** One notification as its member reads it in `language`: title, body and the page it leads to. */
export async function describeNotification(db: DB, row: Omit<Row, 'seen_at' | 'created_at'>, language: string | null) {
  const [notification] = await present(db, [{ ...row, seen_at: null, created_at: new Date() }], language)
  return { title: notification!.title, body: notification!.body, link: notification!.link }
}

/**
 * The rows as members read them: the titles of the activities they name, and what their types
 * look up (who wrote a message), are read in one query each, unless the caller read the titles
 * with the rows (`titled`).
 */
async function present(db: DB, rows: Row[], language: string | null, titled?: Map<string, string>): Promise<Notification[]> {
  const t = notificationsTemplateT(language)
  const read = rows.map(readRow)
  const [titles, found] = await Promise.all([titled ?? experienceTitles(db, rows), lookups(db, read)])
  return read.map((row) => ({
    id: row.id,
    type: row.type,
    ...describe(row, titles, found, t, language ?? 'en'),
    seen_at: row.seen_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }))
}

/** A row with its type's declaration (none for a type this code does not know), what could be read of its data, and what to look up for it. */
function readRow(row: Row) {
  const kind = notificationKind(row.type)
  const data = kind ? readLeniently(kind.data, row.data) : {}
  return { ...row, kind, data, key: kind?.lookup?.key(data) }
}
type ReadRow = ReturnType<typeof readRow>

async function experienceTitles(db: DB, rows: Row[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.experience_id ? [row.experience_id] : [])))]
  if (ids.length === 0) return new Map<string, string>()
  const experiences = await db.selectFrom('experiences').select(['id', 'title']).where('id', 'in', ids).execute()
  return new Map(experiences.map((experience) => [experience.id, experience.title]))
}

/** What the types' lookups found, by type then key: one query per type that looks something up, none when no row needs one. */
async function lookups(db: DB, rows: ReadRow[]) {
  const wanted = new Map<string, { lookup: NonNullable<AnyNotificationKind['lookup']>; keys: Set<string> }>()
  for (const { kind, key } of rows) {
    if (!kind?.lookup || key === undefined) continue
    const entry = wanted.get(kind.type) ?? { lookup: kind.lookup, keys: new Set<string>() }
    wanted.set(kind.type, entry)
    entry.keys.add(key)
  }
  const found = await Promise.all([...wanted].map(async ([type, { lookup, keys }]) => [type, await lookup.load(db, [...keys])] as const))
  return new Map<string, Map<string, unknown>>(found)
}

function describe(row: ReadRow, titles: Map<string, string>, found: Map<string, Map<string, unknown>>, t: TemplateT, language: string): { title: string; body: string; link: string } {
  const other = { title: t('types.other.title'), body: t('types.other.body') }
  const { kind, data, key } = row
  // A type this code does not know yet still reads as something, never an error page.
  if (!kind) return { ...other, link: '/notifications' }
  const id = row.experience_id
  const activity = { id, title: (id && titles.get(id)) || t('types.anActivity') }
  const copy: TemplateT = (name, values) => t(`types.${kind.copy}.${name}`, values)
  const text = kind.text(data, { t: copy, activity, language, found: key === undefined ? undefined : found.get(kind.type)?.get(key) })
  return { ...(text ?? other), link: kind.link(data, { activity }) }
}
