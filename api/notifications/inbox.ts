import { sql, type Expression } from 'kysely'
import { z } from 'zod'
import { pageMetadata, type Page } from '#contract/common.ts'
import { displayName } from '#contract/display-name.ts'
import type { Notification, NotificationsQuery } from '#contract/notifications.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { notificationsTemplateT, type TemplateT } from '../i18n.ts'
import { requirePermission } from '../policy/permissions.ts'

/**
 * The member's in-app notifications (issue 15 §3 "In-app", decision 043): only their own, newest
 * first, each written in the reader's language from its type and data when it is read (so a
 * member who changes language reads them all in the new one, and an activity renamed since shows
 * its new title).
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

const uuid = z.uuid()
const messageData = z.object({ channel_id: uuid })
const messageRef = z.object({ message_id: uuid })
const verificationData = z.object({ outcome: z.enum(['approved', 'rejected']) })

const experienceTypes = {
  'waitlist.selected': 'waitlistSelected',
  'waitlist.seat_available': 'waitlistSeatAvailable',
  'experience.canceled': 'experienceCanceled',
  'experience.invited': 'experienceInvited',
  'experience.attendance_survey': 'attendanceSurvey',
  'experience.attendee_joined': 'attendeeJoined',
  'experience.attendee_left': 'attendeeLeft',
  'experience.reminder': 'experienceReminder',
  'experience.changed': 'experienceChanged',
} as const

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
 * The rows as members read them: the titles of the activities they name are read in one query,
 * unless the caller read them with the rows (`titled`).
 */
async function present(db: DB, rows: Row[], language: string | null, titled?: Map<string, string>): Promise<Notification[]> {
  const t = notificationsTemplateT(language)
  const [titles, writers] = await Promise.all([titled ?? experienceTitles(db, rows), messageWriters(db, rows)])
  return rows.map((row) => {
    const text = describe(row, titles, writers, t)
    return {
      id: row.id,
      type: row.type,
      ...text,
      seen_at: row.seen_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
    }
  })
}

async function experienceTitles(db: DB, rows: Row[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.type in experienceTypes && row.experience_id ? [row.experience_id] : [])))]
  if (ids.length === 0) return new Map<string, string>()
  const experiences = await db.selectFrom('experiences').select(['id', 'title']).where('id', 'in', ids).execute()
  return new Map(experiences.map((experience) => [experience.id, experience.title]))
}

/**
 * Who wrote the new messages the rows name (issue 29 §4: a member wants to know who wrote): the
 * writer's display name (spec §3; null for the generic member label: suspended, banned, deleted),
 * or Circle 55 support for the team's answers, and the activity of a group chat. Never the
 * message's text: the title and body also go by email, push and text. One query, none when no
 * row is a new message.
 */
type Writer = { kind: 'support' } | { kind: 'member'; name: string | null; activity: string | null }

async function messageWriters(db: DB, rows: Row[]): Promise<Map<string, Writer>> {
  const ids = new Set<string>()
  for (const row of rows) {
    const id = row.type === 'message.new' ? messageRef.safeParse(row.data).data?.message_id : undefined
    if (id) ids.add(id)
  }
  if (ids.size === 0) return new Map()
  const found = await db
    .selectFrom('messages as m')
    .innerJoin('message_channels as c', 'c.id', 'm.channel_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('experiences as e', 'e.id', 'c.experience_id')
    .select(['m.id', 'm.user_id', 'c.kind', 'e.title', 'u.first_name', 'u.last_name', 'u.formatted_name', 'u.name', 'u.banned', 'u.is_suspended', 'u.state'])
    .where('m.id', 'in', [...ids])
    .execute()
  return new Map(
    found.map((message): [string, Writer] => {
      if (message.user_id === null) return [message.id, message.kind === 'support' ? { kind: 'support' } : { kind: 'member', name: null, activity: null }]
      const gone = message.state === null || message.state === 'deleted'
      const name = gone ? null : displayName({ ...message, banned: message.banned ?? false, is_suspended: message.is_suspended ?? false, state: message.state ?? undefined })
      return [message.id, { kind: 'member', name, activity: message.kind === 'experience' ? message.title : null }]
    }),
  )
}

/**
 * A new message in words: who wrote, and where for an activity's group chat. A message that is
 * gone (or data that cannot be read) keeps the plain words.
 */
function newMessageText(row: Row, writers: Map<string, Writer>, t: TemplateT) {
  const id = messageRef.safeParse(row.data).data?.message_id
  const writer = id ? writers.get(id) : undefined
  if (!writer) return { title: t('types.messageNew.title'), body: t('types.messageNew.body') }
  if (writer.kind === 'support') return { title: t('types.messageNew.fromSupport'), body: t('types.messageNew.openSupport') }
  // The body names the writer too: an email's text is its greeting, this body and the link.
  const { name, activity } = writer
  if (name === null)
    return {
      title: activity ? t('types.messageNew.inGroupSomeone', { title: activity }) : t('types.messageNew.fromSomeone'),
      body: t('types.messageNew.openSomeone'),
    }
  return {
    title: activity ? t('types.messageNew.inGroup', { name, title: activity }) : t('types.messageNew.from', { name }),
    body: t('types.messageNew.open', { name }),
  }
}

function describe(row: Row, titles: Map<string, string>, writers: Map<string, Writer>, t: TemplateT): { title: string; body: string; link: string } {
  if (row.type in experienceTypes) {
    const key = experienceTypes[row.type as keyof typeof experienceTypes]
    const id = row.experience_id
    const title = (id && titles.get(id)) || t('types.anActivity')
    // The survey's notification opens the survey itself (decision 046).
    const page = id ? (row.type === 'experience.attendance_survey' ? `/activities/${id}/survey` : `/activities/${id}`) : '/attending'
    return { title: t(`types.${key}.title`, { title }), body: t(`types.${key}.body`, { title }), link: page }
  }
  if (row.type === 'message.new') {
    const channel = messageData.safeParse(row.data).data?.channel_id
    return {
      ...newMessageText(row, writers, t),
      link: channel ? `/messenger?channel=${encodeURIComponent(channel)}` : '/messenger',
    }
  }
  if (row.type === 'verification.decided') {
    const outcome = verificationData.safeParse(row.data).data?.outcome
    if (!outcome) return { title: t('types.other.title'), body: t('types.other.body'), link: '/account/verification' }
    return { title: t(`types.verification.${outcome}.title`), body: t(`types.verification.${outcome}.body`), link: '/account/verification' }
  }
  if (row.type === 'report.handled') return { title: t('types.reportHandled.title'), body: t('types.reportHandled.body'), link: '/notifications' }
  if (row.type === 'experience.recommended') return { title: t('types.recommended.title'), body: t('types.recommended.body'), link: '/' }
  if (row.type === 'sample') return { title: t('types.sample.title'), body: t('types.sample.body'), link: '/notifications' }
  // A type this code does not know yet still reads as something, never an error page.
  return { title: t('types.other.title'), body: t('types.other.body'), link: '/notifications' }
}
