import { sql, type Expression, type SqlBool } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { ChannelKind, User } from '../db/schema.ts'
import { eligible, foldedSql, likePrefix, participants } from '../members/queries.ts'
import { membersInHistory, notBlocking, visibleMembers } from '../policy/members.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import type { ChatMember } from '#contract/chat.ts'
import type { ChatEvent, MessageRow } from './events.ts'
import { displayName } from '#contract/display-name.ts'

/**
 * The chat's reads (decision 029): channels as one caller stands in them, and their messages.
 * Every message list goes through `visibleMessages`, so a banned or suspended member's messages
 * are filtered from every list (spec §6) in one place.
 */

type Db = DB | Trx

/** A channel with the facts the rules need, as `me` stands in it. */
export interface ChannelRow {
  id: string
  kind: ChannelKind
  experience_id: string | null
  last_message_at: Date | null
  created_at: Date
  is_member: boolean
  is_accepted: boolean | null
  left_at: Date | null
  e_slug: string | null
  e_title: string | null
  e_start_at: Date | null
  e_end_at: Date | null
  e_canceled_at: Date | null
  e_host_id: string | null
  holds_seat: boolean
  other_id: string | null
  other_accepted: boolean | null
  /** A former attendee reads up to here; null: everything. */
  read_until: Date | null
  unread_count: number
  sent_count: number
  i_blocked: boolean
  blocked_me: boolean
}

/** Messages anyone may see: not deleted, from the product or from a member who is not suspended or banned. */
function visibleMessages(): Expression<SqlBool> {
  return sql<SqlBool>`(m.deleted_at IS NULL AND (m.user_id IS NULL OR ${membersInHistory('u')}))`
}

/**
 * Messages `readerId` (a uuid expression) hides (decision 034): in an activity's chat, those from a
 * member the reader blocked. The one rule for the channel page, the list's last messages, unread
 * counts and the live stream; direct channels keep theirs (a block closes them, its history stays).
 */
export function fromBlockedMember(readerId: string | Expression<string>): Expression<SqlBool> {
  return sql<SqlBool>`(m.user_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM blocks hb WHERE hb.blocker_id = ${readerId} AND hb.blocked_id = m.user_id)
    AND EXISTS (SELECT 1 FROM message_channels hc WHERE hc.id = m.channel_id AND hc.kind = 'experience'))`
}

/** The caller's channels and their facts; `where` filters on `base` (the columns of `ChannelRow`). */
function channelRowsSql(meId: string, where: ReturnType<typeof sql>) {
  return sql`(
    SELECT base.*,
      (SELECT count(*)::int FROM messages m LEFT JOIN users u ON u.id = m.user_id
        WHERE m.channel_id = base.id AND ${visibleMessages()} AND NOT ${fromBlockedMember(meId)} AND m.user_id IS DISTINCT FROM ${meId}
          AND base.is_member AND m.created_at > coalesce(base.last_read_at, '-infinity'::timestamptz)
          AND (base.read_until IS NULL OR m.created_at <= base.read_until)) AS unread_count
    FROM (
      SELECT inner_rows.*,
        CASE WHEN inner_rows.kind = 'experience' AND NOT (inner_rows.e_host_id IS NOT DISTINCT FROM ${meId}::uuid OR inner_rows.holds_seat)
          THEN coalesce(inner_rows.left_at, inner_rows.joined_at) END AS read_until
      FROM (
        SELECT ch.id, ch.kind, ch.experience_id, ch.last_message_at, ch.created_at,
          cm.user_id IS NOT NULL AS is_member, cm.is_accepted, cm.left_at, cm.last_read_at, cm.created_at AS joined_at,
          e.slug AS e_slug, e.title AS e_title, e.start_at AS e_start_at, e.end_at AS e_end_at,
          e.canceled_at AS e_canceled_at, e.host_id AS e_host_id,
          (e.id IS NOT NULL AND EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${meId})) AS holds_seat,
          o.user_id AS other_id, o.is_accepted AS other_accepted,
          (SELECT count(*)::int FROM messages mine WHERE mine.channel_id = ch.id AND mine.user_id = ${meId}) AS sent_count,
          EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${meId} AND b.blocked_id = o.user_id) AS i_blocked,
          EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = o.user_id AND b.blocked_id = ${meId}) AS blocked_me
        FROM message_channels ch
        LEFT JOIN channel_memberships cm ON cm.channel_id = ch.id AND cm.user_id = ${meId}
        LEFT JOIN experiences e ON e.id = ch.experience_id
        LEFT JOIN LATERAL (
          SELECT x.user_id, x.is_accepted FROM channel_memberships x
          WHERE ch.kind = 'direct' AND x.channel_id = ch.id AND x.user_id <> ${meId}
          ORDER BY x.created_at LIMIT 1
        ) o ON true
      ) inner_rows
    ) base
    WHERE ${where}
  )`
}

/** One channel as `meId` stands in it, or undefined when there is no such channel. */
export async function channelRow(db: Db, meId: string, channelId: string) {
  const rows = await sql<ChannelRow>`SELECT * FROM ${channelRowsSql(meId, sql`base.id = ${channelId}`)} one`.execute(db)
  return rows.rows[0]
}

/**
 * A membership stays in its member's list until they leave it; a direct or support channel comes
 * back when a message arrives after they left. `channel` names the row with `kind` and
 * `last_message_at`, `membership` the one with `left_at` (the same row in `channelRowsSql`).
 */
function listedRule(channel: string, membership: string) {
  const ref = (table: string, column: string) => sql.ref(`${table}.${column}`)
  return sql`(${ref(membership, 'left_at')} IS NULL
    OR (${ref(channel, 'kind')} IN ('direct', 'support') AND ${ref(channel, 'last_message_at')} > ${ref(membership, 'left_at')}))`
}
const listedChannels = sql`base.is_member AND ${listedRule('base', 'base')}`

/** The channels in `meId`'s list (`listedRule`), newest first. */
export async function listedChannelRows(db: Db, meId: string, limit: number, offset: number) {
  const [rows, totals] = await Promise.all([
    sql<ChannelRow>`SELECT * FROM ${channelRowsSql(meId, listedChannels)} listed
      ORDER BY coalesce(listed.last_message_at, listed.created_at) DESC, listed.id
      LIMIT ${limit} OFFSET ${offset}`.execute(db),
    listedChannelTotals(db, meId),
  ])
  return { rows: rows.rows, ...totals }
}

/** How many channels `meId`'s list holds and their unread total (the header badge), without the list's facts. */
export async function listedChannelTotals(db: Db, meId: string) {
  const [count, unread] = await Promise.all([
    sql<{ count: number }>`SELECT count(*)::int AS count FROM channel_memberships cm JOIN message_channels ch ON ch.id = cm.channel_id
      WHERE cm.user_id = ${meId} AND ${listedRule('ch', 'cm')}`.execute(db),
    unreadTotals(db, [meId]),
  ])
  return { total: count.rows[0]?.count ?? 0, totalUnread: unread.get(meId) ?? 0 }
}

/** The last `perChannel` messages of each channel `readerId` sees (each up to its `read_until`), newest first. */
export async function lastMessages(db: Db, channels: Array<Pick<ChannelRow, 'id' | 'read_until'>>, perChannel: number, readerId: string) {
  if (channels.length === 0) return []
  const ids = channels.map((channel) => channel.id)
  const until = channels.map((channel) => channel.read_until)
  const rows = await sql<MessageRow>`SELECT picked.* FROM unnest(${ids}::uuid[], ${until}::timestamptz[]) AS c(id, until)
    CROSS JOIN LATERAL (
      SELECT m.id, m.channel_id, m.user_id, m.body, m.is_system, m.product_key, m.product_params, m.created_at
      FROM messages m LEFT JOIN users u ON u.id = m.user_id
      WHERE m.channel_id = c.id AND ${visibleMessages()} AND NOT ${fromBlockedMember(readerId)} AND (c.until IS NULL OR m.created_at <= c.until)
      ORDER BY m.created_at DESC, m.id DESC
      LIMIT ${perChannel}
    ) picked`.execute(db)
  return rows.rows
}

/**
 * A page of a channel's visible messages, newest first: the newest, or those before the message
 * `before` (by time, then id, so that messages of the same instant page without loss). Messages
 * `reader.id` hides (`fromBlockedMember`) are left out unless `reader.showBlocked`; each row says
 * whether it is one of them.
 */
export async function pageOfMessages(
  db: Db,
  channelId: string,
  readUntil: Date | null,
  before: string | undefined,
  limit: number,
  reader: { id: string; showBlocked: boolean },
) {
  const cursor = before
    ? sql`AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM messages c WHERE c.id = ${before} AND c.channel_id = ${channelId})`
    : sql``
  const hidden = reader.showBlocked ? sql`` : sql`AND NOT ${fromBlockedMember(reader.id)}`
  const rows = await sql<MessageRow & { from_blocked: boolean }>`SELECT m.id, m.channel_id, m.user_id, m.body, m.is_system, m.product_key, m.product_params, m.created_at,
      ${fromBlockedMember(reader.id)} AS from_blocked
    FROM messages m LEFT JOIN users u ON u.id = m.user_id
    WHERE m.channel_id = ${channelId} AND ${visibleMessages()} ${hidden}
      AND (${readUntil}::timestamptz IS NULL OR m.created_at <= ${readUntil}::timestamptz) ${cursor}
    ORDER BY m.created_at DESC, m.id DESC
    LIMIT ${limit}`.execute(db)
  return rows.rows
}

/** How many of a channel's messages (up to `readUntil`) `readerId` hides: "1 message from someone you blocked is hidden". */
export async function hiddenMessageCount(db: Db, channelId: string, readUntil: Date | null, readerId: string) {
  const rows = await sql<{ count: number }>`SELECT count(*)::int AS count
    FROM messages m LEFT JOIN users u ON u.id = m.user_id
    WHERE m.channel_id = ${channelId} AND ${visibleMessages()} AND ${fromBlockedMember(readerId)}
      AND (${readUntil}::timestamptz IS NULL OR m.created_at <= ${readUntil}::timestamptz)`.execute(db)
  return rows.rows[0]?.count ?? 0
}

/** Members as chat shows them (public card only, photos at `media`'s public URLs), by id. */
export async function chatMembers(db: Db, media: MediaStorage, ids: Iterable<string>): Promise<Map<string, ChatMember>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await db
    .selectFrom('users')
    .leftJoin('media', 'media.id', 'users.avatar_media_id')
    .selectAll('users')
    .select('media.storage_key as avatar_key')
    .where('users.id', 'in', unique)
    .execute()
  return new Map(rows.map((row) => [row.id, chatMember(media, row, row.avatar_key)]))
}

/** A member's public card; the generic member label (no photo) for suspended, banned and deleted members. */
export function chatMember(
  media: MediaStorage,
  user: Pick<User, 'id' | 'slug' | 'state' | 'first_name' | 'last_name' | 'formatted_name' | 'name' | 'banned' | 'is_suspended'>,
  avatarKey: string | null,
): ChatMember {
  const name = user.state === 'deleted' ? null : displayName(user)
  return {
    id: user.id,
    slug: user.slug,
    display_name: name,
    avatar: name !== null && avatarKey ? { url: media.publicUrl(avatarKey) } : null,
  }
}

/**
 * The activity's group chat, made on first use (one per activity: `experience_id` is unique), with
 * its host in it (issue 29 §3, decision 060): whoever makes it — the activity's creation, an
 * attendee's "Group chat" — the host is a member, so an attendee's question reaches their
 * Messages, counts as unread and tells them. A host who left the group is not brought back (they
 * chose to; "Group chat" brings them back). Answers the channel's id.
 */
export async function openActivityChat(trx: Trx, experience: { id: string; host_id: string | null }, createdBy: string | null) {
  await trx
    .insertInto('message_channels')
    .values({ kind: 'experience', experience_id: experience.id, created_by: createdBy })
    .onConflict((conflict) => conflict.column('experience_id').doNothing())
    .execute()
  const channel = await trx.selectFrom('message_channels').select('id').where('experience_id', '=', experience.id).executeTakeFirstOrThrow()
  if (experience.host_id) {
    await trx
      .insertInto('channel_memberships')
      .values({ channel_id: channel.id, user_id: experience.host_id, is_accepted: true })
      .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doNothing())
      .execute()
  }
  return channel.id
}

/** Whether `attendeeId` holds a seat at an activity `hostId` hosts (past, coming or cancelled: they met through it). */
export async function attendsActivityHostedBy(db: Db, attendeeId: string, hostId: string) {
  const seat = await db
    .selectFrom('experience_attendees as a')
    .innerJoin('experiences as e', 'e.id', 'a.experience_id')
    .select('a.experience_id')
    .where('a.user_id', '=', attendeeId)
    .where('e.host_id', '=', hostId)
    .limit(1)
    .executeTakeFirst()
  return seat !== undefined
}

/** A seat given up: its member leaves the activity's chat, keeping what was posted until now (decision 029). */
export async function leaveExperienceChannel(trx: Trx, experienceId: string, userId: string) {
  await sql`UPDATE channel_memberships SET left_at = now()
    WHERE user_id = ${userId} AND left_at IS NULL
      AND channel_id = (SELECT id FROM message_channels WHERE experience_id = ${experienceId})`.execute(trx)
}

// Realtime (decision 032) ---------------------------------------------------------------------------

/**
 * Whether the member `meId` (a uuid expression) may read message `m` of channel `ch` (joined with
 * their membership `cm` and the activity `e`), by the rules of `GET message-channels/{id}`: a
 * direct channel's members read it all; an activity's host and seated attendees read it all; a
 * former attendee reads up to when they left (or joined, for one who left before).
 */
function readableBy(meId: Expression<string>) {
  return sql<SqlBool>`(
    (ch.kind IN ('direct', 'support') AND cm.user_id IS NOT NULL)
    OR (ch.kind = 'experience' AND (e.host_id = ${meId}
      OR EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${meId})))
    OR (ch.kind = 'experience' AND cm.user_id IS NOT NULL AND m.created_at <= coalesce(cm.left_at, cm.created_at))
  )`
}

export interface SeqMessageRow extends MessageRow {
  seq: number
}

/** The messages `meId` may read numbered after `afterSeq`, in `seq` order (at most `limit`). */
export async function readableMessagesAfter(db: Db, meId: string, afterSeq: number, limit: number) {
  const me = sql<string>`${meId}::uuid`
  const rows = await sql<SeqMessageRow>`SELECT m.id, m.channel_id, m.user_id, m.body, m.is_system, m.product_key, m.product_params, m.created_at, m.seq
    FROM messages m
    JOIN message_channels ch ON ch.id = m.channel_id
    LEFT JOIN channel_memberships cm ON cm.channel_id = ch.id AND cm.user_id = ${me}
    LEFT JOIN experiences e ON e.id = ch.experience_id
    LEFT JOIN users u ON u.id = m.user_id
    WHERE m.seq > ${afterSeq} AND ${visibleMessages()} AND ${readableBy(me)} AND NOT ${fromBlockedMember(me)}
    ORDER BY m.seq
    LIMIT ${limit}`.execute(db)
  return rows.rows
}

/**
 * For each committed message event, in order: those of `memberIds` who may read it, and the
 * message with its sender's card as the stream sends it (null when nobody may read it: deleted, or
 * its sender is suspended or banned; the photo at `media`'s public URL); one query for the whole
 * batch (the realtime hub's `prepare`).
 */
export async function chatEventsFor(db: Db, media: MediaStorage, events: Array<Pick<ChatEvent, 'seq'>>, memberIds: string[]) {
  if (events.length === 0) return []
  const bySeq = await chatEventRows(db, events, memberIds)
  return events.map((event) => {
    const found = bySeq.get(event.seq)
    if (!found) return { readers: [] as string[], loaded: null }
    const { readers, slug, state, first_name, last_name, formatted_name, name, banned, is_suspended, avatar_key, ...row } = found
    const members = new Map<string, ChatMember>()
    if (row.user_id) members.set(row.user_id, chatMember(media, { id: row.user_id, slug, state, first_name, last_name, formatted_name, name, banned, is_suspended }, avatar_key))
    const loaded: EventMessage = { row, members }
    return { readers, loaded }
  })
}

/**
 * The messages of `events` by `seq`, each with its sender's card columns and those of
 * `memberIds` who may read it. The readers are found from the channel's own people (its
 * memberships, an activity's host and attendees: everyone `readableBy` can admit), so the cost
 * follows the size of the chats, not of `memberIds`.
 */
async function chatEventRows(db: Db, events: Array<Pick<ChatEvent, 'seq'>>, memberIds: string[]) {
  const reader = sql<string>`r.id`
  const rows = await sql<
    SeqMessageRow & { readers: string[] } & Pick<User, 'slug' | 'state' | 'first_name' | 'last_name' | 'formatted_name' | 'name' | 'banned' | 'is_suspended'> & {
        avatar_key: string | null
      }
  >`SELECT m.id, m.channel_id, m.user_id, m.body, m.is_system, m.product_key, m.product_params, m.created_at, m.seq,
      u.slug, u.state, u.first_name, u.last_name, u.formatted_name, u.name, u.banned, u.is_suspended, avatar.storage_key AS avatar_key,
      ARRAY(
        SELECT DISTINCT r.id FROM (
          SELECT p.user_id AS id FROM channel_memberships p WHERE p.channel_id = ch.id
          UNION SELECT e.host_id WHERE e.host_id IS NOT NULL
          UNION SELECT a.user_id FROM experience_attendees a WHERE a.experience_id = e.id
        ) r
        LEFT JOIN channel_memberships cm ON cm.channel_id = ch.id AND cm.user_id = r.id
        WHERE r.id = ANY(${memberIds}::uuid[]) AND ${readableBy(reader)} AND NOT ${fromBlockedMember(reader)}
      )::text[] AS readers
    FROM messages m
    JOIN message_channels ch ON ch.id = m.channel_id
    LEFT JOIN experiences e ON e.id = ch.experience_id
    LEFT JOIN users u ON u.id = m.user_id
    LEFT JOIN media avatar ON avatar.id = u.avatar_media_id
    WHERE m.seq = ANY(${events.map((event) => event.seq)}::bigint[]) AND ${visibleMessages()}`.execute(db)
  return new Map(rows.rows.map((row) => [row.seq, row]))
}

export interface EventMessage {
  row: SeqMessageRow
  members: Map<string, ChatMember>
}

/** Of `memberIds`, those who may read the message numbered `seq` (`chatEventsFor`, for one). */
export async function readersOf(db: Db, seq: number, memberIds: string[]) {
  return (await chatEventRows(db, [{ seq }], memberIds)).get(seq)?.readers ?? []
}

/** The newest message number (0 before the first message): where a fresh stream starts. */
export async function latestSeq(db: Db) {
  const row = await sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM messages`.execute(db)
  return Number(row.rows[0]?.seq ?? 0)
}

/**
 * Unread messages over all of each member's listed channels (the header badge), by the rule of
 * `channelRowsSql`'s `unread_count`, without the list's other facts: the live streams ask it after
 * the messages they deliver, for many members at once, so it starts from each member's own
 * memberships and reads only their messages since `last_read_at`.
 */
export async function unreadTotals(db: Db, memberIds: string[]): Promise<Map<string, number>> {
  if (memberIds.length === 0) return new Map()
  const rows = await sql<{ id: string; unread: number }>`SELECT me.id, ${unreadMessagesOf(sql<string>`me.id`)} AS unread
    FROM unnest(${[...new Set(memberIds)]}::uuid[]) AS me(id)`.execute(db)
  return new Map(rows.rows.map((row) => [row.id, row.unread]))
}

/** `unreadTotals`' count for one member (`me`: an expression of their id), as a subquery of a larger statement. */
export function unreadMessagesOf(me: Expression<string>) {
  return sql<number>`(
      SELECT count(*)::int
      FROM channel_memberships cm
      JOIN message_channels ch ON ch.id = cm.channel_id
      LEFT JOIN experiences e ON e.id = ch.experience_id
      CROSS JOIN LATERAL (
        SELECT CASE WHEN ch.kind = 'experience' AND NOT (e.host_id IS NOT DISTINCT FROM ${me}
            OR EXISTS (SELECT 1 FROM experience_attendees a WHERE a.experience_id = e.id AND a.user_id = ${me}))
          THEN coalesce(cm.left_at, cm.created_at) END AS read_until
      ) r
      JOIN messages m ON m.channel_id = ch.id AND m.created_at > coalesce(cm.last_read_at, '-infinity'::timestamptz)
        AND (r.read_until IS NULL OR m.created_at <= r.read_until)
      LEFT JOIN users u ON u.id = m.user_id
      WHERE cm.user_id = ${me} AND ${listedRule('ch', 'cm')}
        AND m.user_id IS DISTINCT FROM ${me} AND ${visibleMessages()} AND NOT ${fromBlockedMember(me)}
    )`
}

// New-message search (decision 034) -----------------------------------------------------------------

export type ChatUserRow = User & { avatar_key: string | null; has_met: boolean; is_blocked: boolean }

/**
 * `GET v1/chat/users`: members `viewer` may write to, those they have met first (a shared activity
 * that was not cancelled, past or coming, or a direct channel), then the rest of what Members shows
 * them (`eligible`, near-by visibility respected). Never the viewer, nor suspended, banned or
 * deleted members, nor one who blocked the viewer; members the viewer blocked only when
 * `showBlocked` (the member's setting, spec §6). `foldedName` matches the start of the first name
 * (or of the whole name when there is none), never the last name, which members do not see.
 */
export async function chatUserRows(
  db: Db,
  viewer: Pick<User, 'id' | 'lat' | 'long'>,
  options: { foldedName: string | null; showBlocked: boolean; limit: number; offset: number },
) {
  const me = viewer.id
  const byName = options.foldedName
    ? sql`AND (${foldedSql(sql.ref('u.first_name'))} LIKE ${likePrefix(options.foldedName)}
        OR (nullif(trim(u.first_name), '') IS NULL AND ${foldedSql(sql`coalesce(u.formatted_name, u.name)`)} LIKE ${likePrefix(options.foldedName)}))`
    : sql``
  const iBlocked = sql`EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${me} AND b.blocked_id = u.id)`
  const from = sql`(
    WITH met AS (
      SELECT theirs.user_id AS id
      FROM ${participants} mine
      JOIN ${participants} theirs ON theirs.experience_id = mine.experience_id AND theirs.user_id <> mine.user_id
      JOIN experiences e ON e.id = mine.experience_id AND e.canceled_at IS NULL
      WHERE mine.user_id = ${me}
      UNION
      SELECT other.user_id FROM channel_memberships mine
      JOIN message_channels ch ON ch.id = mine.channel_id AND ch.kind = 'direct'
      JOIN channel_memberships other ON other.channel_id = ch.id AND other.user_id <> mine.user_id
      WHERE mine.user_id = ${me}
    )
    SELECT u.*, media.storage_key AS avatar_key, (u.id IN (SELECT id FROM met)) AS has_met, ${iBlocked} AS is_blocked
    FROM users u
    LEFT JOIN media ON media.id = u.avatar_media_id
    WHERE u.id <> ${me}
      AND ${visibleMembers('u')}
      AND ${notBlocking(me, 'u')}
      ${options.showBlocked ? sql`` : sql`AND NOT ${iBlocked}`}
      AND (u.id IN (SELECT id FROM met) OR u.id IN (SELECT seen.id FROM ${eligible(viewer, null, { ignoreBlocks: true })} seen))
      ${byName}
  )`
  const [rows, count] = await Promise.all([
    sql<ChatUserRow>`SELECT * FROM ${from} found
      ORDER BY has_met DESC, lower(coalesce(nullif(trim(first_name), ''), formatted_name, name)), id
      LIMIT ${options.limit} OFFSET ${options.offset}`.execute(db),
    sql<{ count: number }>`SELECT count(*)::int AS count FROM ${from} found`.execute(db),
  ])
  return { rows: rows.rows, total: count.rows[0]?.count ?? 0 }
}
