import type { z } from 'zod'
import type { NotificationTopic } from '#contract/notification-settings.ts'
import type { NotificationType } from '#contract/notifications.ts'
import type { DB } from '../db/database.ts'
import type { TemplateT } from '../i18n.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * What one notification type is (decision 070), after Mastodon's `Notification::PROPERTIES`:
 * one declaration per type in api/notifications/types/<type>.ts, listed in types/index.ts.
 * `notify` reads its topic; the list reads its text and link; delivery reads who may still
 * receive it, its email, its push and its text message; the settings' topics govern it. Nothing
 * else in api/notifications names a type.
 *
 * A declaration reads and writes; it never imports a module that notifies (a service), so that
 * `notify` can read the declarations without an import circle (decision 067).
 */
export interface NotificationKind<Type extends NotificationType = NotificationType, Data extends z.ZodObject = z.ZodObject, Found = unknown> {
  /** The name `notifications.type` holds (contract/notifications.ts lists every name). */
  type: Type
  /** What the row's `data` holds: what `notify` takes, and how delivery reads it back (never trusted). */
  data: Data
  /**
   * The settings topic that governs it (decision 047): its in-app, email, push and text switches.
   * null: a notice about the member's own account or safety, always in the list and emailed while
   * the member's global email switch is on; no topic can silence it, and it never goes by push or text.
   */
  topic: NotificationTopic | null
  /** Where its in-app copy sits: `notifications:types.<copy>.*` in every language. */
  copy: string
  /** What its text needs looked up, for a whole page of notifications at once (one query per type). */
  lookup?: Lookup<z.output<Data>, Found>
  /**
   * Title and body in the reader's language, from what could be read of the data (an old or damaged
   * row may lack fields). null: it cannot be told, and reads as "Something new for you".
   */
  text(data: Partial<z.output<Data>>, context: TextContext<Found>): { title: string; body: string } | null
  /** The page it opens: a path on the site (also the link of its email, push and text). */
  link(data: Partial<z.output<Data>>, context: { activity: NamedActivity }): string
  /**
   * Its email: its own (`OwnEmail`), `'text'` (the in-app title and body with the link), or null
   * (none). Delivery adds the topic's one-click unsubscribe.
   */
  email: OwnEmail<z.output<Data>> | 'text' | null
  /** Whether it goes by push (the in-app title, body and link) when the member's switches allow. */
  push: boolean
  /**
   * Whether it goes by text message (the in-app title, body and link) when the member's switches
   * allow; `cancelReply`: the text ends with "Reply C to cancel" and names its activity, so that a
   * "C" cancels the member's seat there (decisions 049, 057).
   */
  sms: { cancelReply: boolean } | null
  /**
   * Who may receive it when its delivery runs, on every channel, besides a member others may see
   * (delivery checks that for every type): false once the news is no longer true for this member
   * (the seat given was taken back, the message was read). A row whose data does not read is not
   * delivered. Without it, everyone it was recorded for.
   */
  stillFor?(db: DB, userId: string, data: z.output<Data>): Promise<boolean>
  /** A notification no longer true when delivered is marked seen too (a message read in the open chat). */
  seenWhenStale?: boolean
}

/** The activity a notification names (`notifications.experience_id`) with its title now; "an activity" when it is gone. */
export interface NamedActivity {
  id: string | null
  title: string
}

export interface TextContext<Found> {
  /** `notifications:types.<copy>.<key>` in the reader's language. */
  t: TemplateT
  activity: NamedActivity
  /** The reader's language (`en` when unknown), for amounts and dates written in it. */
  language: string
  /** What `lookup` found for this notification, if anything. */
  found: Found | undefined
}

export interface Lookup<Data, Found> {
  /** What to look up for one notification (none: nothing is looked up for it). */
  key(data: Partial<Data>): string | undefined
  /** Everything to look up for a page, in one query: key → what was found. */
  load(db: DB, keys: string[]): Promise<Map<string, Found>>
}

export interface OwnEmail<Data> {
  /** The keys of `email.json` its copy sits under, in every language. */
  copy: readonly string[]
  /** The email now, or null when it sends none (no longer true, or about the member's own action). */
  compose(db: DB, notification: { user_id: string; data: Data }, publicUrl: string): Promise<OutgoingEmail | null>
}

/** The declaration of `Type`, whatever its data and lookup. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the type looks up
export type KindOf<Type extends NotificationType> = NotificationKind<Type, z.ZodObject, any>

/** A declaration, as the list, delivery and `notify` read any of them. */
export type AnyNotificationKind = KindOf<NotificationType>

/** Declares a notification type (its file in api/notifications/types/, listed in types/index.ts). */
export function defineNotification<const Type extends NotificationType, Data extends z.ZodObject, Found = never>(kind: NotificationKind<Type, Data, Found>) {
  return kind
}

/**
 * What of `raw` each field of the type's data reads as; a field that does not read is left out, so
 * the list writes what it can of any row, old or damaged (a message's link without its writer).
 */
export function readLeniently<Data extends z.ZodObject>(schema: Data, raw: unknown): Partial<z.output<Data>> {
  if (typeof raw !== 'object' || raw === null) return {}
  const read: Record<string, unknown> = {}
  const fields: Record<string, z.ZodType> = schema.shape
  for (const [key, field] of Object.entries(fields)) {
    const parsed = field.safeParse((raw as Record<string, unknown>)[key])
    if (parsed.success && parsed.data !== undefined) read[key] = parsed.data
  }
  return read as Partial<z.output<Data>>
}

/** The text of news about an activity: `title` and `body` of its copy, each naming the activity. */
export function aboutActivity(_data: unknown, { t, activity }: { t: TemplateT; activity: NamedActivity }) {
  return { title: t('title', { title: activity.title }), body: t('body', { title: activity.title }) }
}

/** The activity's page; the member's activities when the row names none. */
export function activityPage(_data: unknown, { activity }: { activity: NamedActivity }) {
  return activity.id ? `/activities/${activity.id}` : '/attending'
}
