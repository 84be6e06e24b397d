import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { existingMembers, membersInHistory } from '../policy/members.ts'
import type { MessageRow } from '../chat/events.ts'
import { pageOfMessages } from '../chat/queries.ts'
import type { ReportSnapshot, SnapshotMessage } from '#contract/moderation.ts'
import { displayName } from '#contract/display-name.ts'

type Db = DB | Trx

/** What a report can point at, and the snapshot kept of it (decision 037). */

/** The member's name as admins need it: the display-name rule, without the generic label of a suspended member. */
export function realName(user: Pick<User, 'first_name' | 'last_name' | 'formatted_name' | 'name'>) {
  return displayName({ first_name: user.first_name, last_name: user.last_name, formatted_name: user.formatted_name, name: user.name })
}

/** An activity (cancelled ones too) with what its snapshot keeps. */
export async function reportableExperience(db: Db, id: string) {
  return db
    .selectFrom('experiences')
    .leftJoin('users', 'users.id', 'experiences.host_id')
    .select([
      'experiences.id',
      'experiences.slug',
      'experiences.title',
      'experiences.description',
      'experiences.start_at',
      'experiences.host_id',
      'users.first_name',
      'users.last_name',
      'users.formatted_name',
      'users.name',
    ])
    .where('experiences.id', '=', id)
    .executeTakeFirst()
}

export function experienceSnapshot(row: NonNullable<Awaited<ReturnType<typeof reportableExperience>>>): ReportSnapshot {
  return {
    kind: 'experience',
    experience: {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      start_at: row.start_at?.toISOString() ?? null,
      host: row.host_id ? { id: row.host_id, display_name: realName(row) } : null,
    },
  }
}

/** A member that has not deleted their account (suspended and banned members can be reported), with their public card and about text. */
export async function reportableMember(db: Db, id: string) {
  return db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select([
      'users.id',
      'users.slug',
      'users.first_name',
      'users.last_name',
      'users.formatted_name',
      'users.name',
      'users.city',
      'users.region',
      'profiles.bio',
    ])
    .where('users.id', '=', id)
    .where(existingMembers())
    .executeTakeFirst()
}

export function memberSnapshot(row: NonNullable<Awaited<ReturnType<typeof reportableMember>>>): ReportSnapshot {
  return {
    kind: 'member',
    member: { id: row.id, slug: row.slug, display_name: realName(row), city: row.city, region: row.region, about: row.bio },
  }
}

/** Messages as a snapshot keeps them: text, sender (id and name), time. */
export async function snapshotMessages(db: Db, rows: MessageRow[]): Promise<SnapshotMessage[]> {
  const senders = rows.flatMap((row) => (row.user_id ? [row.user_id] : []))
  const users = senders.length
    ? await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'formatted_name', 'name']).where('id', 'in', senders).execute()
    : []
  const names = new Map(users.map((user) => [user.id, realName(user)]))
  return rows.map((row) => ({
    id: row.id,
    body: row.body,
    sender: row.user_id ? { id: row.user_id, display_name: names.get(row.user_id) ?? null } : null,
    created_at: row.created_at.toISOString(),
  }))
}

/**
 * The last `count` messages the reporter sees in the channel (up to `readUntil`), oldest first,
 * those of members they blocked included: the evidence is the whole conversation.
 */
export async function lastReadableMessages(db: Db, reporterId: string, channelId: string, readUntil: Date | null, count: number) {
  const rows = await pageOfMessages(db, channelId, readUntil, undefined, count, { id: reporterId, showBlocked: true })
  return rows.reverse()
}

/**
 * The message if a reader of its channel (up to `readUntil`) sees it: not deleted, from a member
 * who is not suspended or banned (the rule of api/chat/queries.ts `visibleMessages`).
 */
export async function visibleMessage(db: Db, channelId: string, messageId: string, readUntil: Date | null): Promise<MessageRow | undefined> {
  return db
    .selectFrom('messages as m')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.channel_id', 'm.user_id', 'm.body', 'm.is_system', 'm.product_key', 'm.product_params', 'm.created_at'])
    .where('m.id', '=', messageId)
    .where('m.channel_id', '=', channelId)
    .where('m.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('m.user_id', 'is', null), membersInHistory('u')]))
    .$if(readUntil !== null, (query) => query.where('m.created_at', '<=', readUntil as Date))
    .executeTakeFirst()
}

/** The channel a message is in (deleted or not), to check the reader may read it. */
export async function messageChannelId(db: Db, messageId: string) {
  const row = await db.selectFrom('messages').select('channel_id').where('id', '=', messageId).executeTakeFirst()
  return row?.channel_id
}
