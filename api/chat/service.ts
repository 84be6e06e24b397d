import { sql } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { Notify } from '../notifications/service.ts'
import { holdsSeat } from '../experiences/holds-seat.ts'
import { getReadableExperience } from '../experiences/service.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { can, isSuspended, requirePermission, type Caller, type ChannelResource } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { blocksBetween } from '../policy/members.ts'
import { postMessage, type MessageRow } from './events.ts'
import { productMessageText } from './product-messages.ts'
import { awaitsHostReply, checkNewConversation, checkOpeningMessage, mayBeRefusedAsOpening } from './scam-shield.ts'
import { countMessage } from './send-limits.ts'
import {
  attendsActivityHostedBy,
  channelRow,
  chatMember,
  chatMembers,
  chatUserRows,
  hiddenMessageCount,
  lastMessages,
  listedChannelRows,
  listedChannelTotals,
  openActivityChat,
  pageOfMessages,
  type ChannelRow,
} from './queries.ts'
import type {
  Channel,
  ChannelListQuery,
  ChannelMessagesQuery,
  ChannelWithMessages,
  ChatMember,
  ChatUser,
  ChatUsersQuery,
  DirectChannelInput,
  Message,
  SendMessageInput,
  WriteBlock,
} from '#contract/chat.ts'
import { pageMetadata } from '#contract/common.ts'
import { displayName } from '#contract/display-name.ts'
import { chatClosesDaysAfterEnd, defaultDurationMinutes, maxPerPage, messagesPerChannelInList, pendingMessagesBeforeAccept } from '#contract/limits.ts'
import { foldName } from '#contract/members.ts'

/**
 * The built-in chat service (issue 14 §1, decision 029): activity channels, direct messages and
 * product messages, on `message_channels`, `channel_memberships` and `messages`. Who may read and
 * write is asked of the access policy; what closes a channel for writing (the activity ended a
 * week ago, a request not accepted yet, a block, a suspended recipient) is decided here.
 */

const DAY = 86_400_000

/** What the changes of a chat need: they answer its JSON (photos at `media` URLs) and record what follows them. */
export type ChatDeps = { db: DB; media: MediaStorage } & AfterCommit

// Rules -----------------------------------------------------------------------------------------

/** The policy's view of a channel row. */
function resourceOf(row: ChannelRow): ChannelResource {
  return {
    experience: row.kind === 'experience' ? { host_id: row.e_host_id, holds_seat: row.holds_seat } : null,
    membership: row.is_member ? { left_at: row.left_at } : null,
  }
}

/** When an activity's chat closes for writing: 7 days after it ends (or was cancelled); never for an undated one. */
export function chatClosesAt(experience: { start_at: Date | null; end_at: Date | null; canceled_at: Date | null }): Date | null {
  const end = experience.end_at ?? (experience.start_at ? new Date(experience.start_at.getTime() + defaultDurationMinutes * 60_000) : null)
  const ended = experience.canceled_at && (!end || experience.canceled_at < end) ? experience.canceled_at : end
  return ended ? new Date(ended.getTime() + chatClosesDaysAfterEnd * DAY) : null
}

/** Why `caller` cannot write in the channel now, or null when they can. */
function writeBlock(caller: Caller, row: ChannelRow, other: User | undefined, now = new Date()): WriteBlock | null {
  if (!can(caller, 'write:channel', resourceOf(row))) return 'not_participant'
  if (row.kind === 'experience') {
    const closes = chatClosesAt({ start_at: row.e_start_at, end_at: row.e_end_at, canceled_at: row.e_canceled_at })
    return closes && closes <= now ? 'chat_closed' : null
  }
  // The member's conversation with Circle 55 support (decision 039): always open to them.
  if (row.kind === 'support') return null
  if (!row.other_id) return 'product_messages'
  if (!other || other.state === 'deleted' || isSuspended(other)) return 'recipient_unavailable'
  if (row.i_blocked) return 'blocked'
  // The blocked member is not told (decision 034): to them the other is as unavailable as a suspended member.
  if (row.blocked_me) return 'recipient_unavailable'
  if (row.other_accepted === false && row.sent_count >= pendingMessagesBeforeAccept) return 'awaiting_acceptance'
  return null
}

/** The answer a refused send gets (spec §8 where it says: no reply to the product, no message to a suspended member). */
function writeProblem(block: WriteBlock, other: User | undefined): ApiProblem {
  switch (block) {
    case 'not_participant':
      return problems.forbidden('Only the activity’s attendees and host can write in its chat.')
    case 'chat_closed':
      return problems.conflict('chat_closed', `This chat closed ${chatClosesDaysAfterEnd} days after the activity ended.`)
    case 'product_messages':
      return problems.conflict('product_messages', 'Messages from Circle 55 cannot be replied to.')
    case 'recipient_unavailable':
      return new ApiProblem(403, 'recipient_suspended', 'This member cannot be messaged.')
    case 'blocked':
      return new ApiProblem(403, 'blocked', 'You cannot send messages in this conversation.')
    case 'awaiting_acceptance': {
      const name = (other && displayName(other)) ?? 'this member'
      return problems.conflict('awaiting_acceptance', `Waiting for ${name} to accept your message request.`)
    }
  }
}

// Loading ---------------------------------------------------------------------------------------

export interface Loaded {
  row: ChannelRow
  other: User | undefined
}

/**
 * A channel `caller` may read, or the refusal: 404 for an unknown channel or a direct one the
 * caller is not in (its existence is nobody else's business), 403 for an activity's chat.
 */
export async function readableChannel(db: DB | Trx, caller: User, id: string): Promise<Loaded> {
  if (!isUuid(id)) throw problems.notFound('Channel not found')
  const row = await channelRow(db, caller.id, id)
  if (!row) throw problems.notFound('Channel not found')
  const resource = resourceOf(row)
  if (row.kind !== 'experience' && !can(caller, 'read:channel', resource)) throw problems.notFound('Channel not found')
  requirePermission(caller, 'read:channel', resource)
  const other = row.other_id ? await db.selectFrom('users').selectAll().where('id', '=', row.other_id).executeTakeFirst() : undefined
  return { row, other }
}

// Serialising -------------------------------------------------------------------------------------

/** A message as every chat answer shows it (the list, a channel, the realtime stream). */
export function serializeMessage(message: MessageRow, members: Map<string, ChatMember>, reader: Pick<User, 'locale'>): Message {
  return {
    id: message.id,
    channel_id: message.channel_id,
    sender: message.user_id ? (members.get(message.user_id) ?? null) : null,
    is_system: message.is_system,
    body: message.product_key ? productMessageText(message, reader.locale) : message.body,
    created_at: message.created_at.toISOString(),
  }
}

/** Channels as `caller` sees them, each with its last 5 messages (spec §9), in two more queries. */
async function serializeChannels(db: DB | Trx, media: MediaStorage, caller: User, rows: ChannelRow[]): Promise<Channel[]> {
  const messages = await lastMessages(db, rows, messagesPerChannelInList, caller.id)
  const memberIds = [...rows.flatMap((row) => (row.other_id ? [row.other_id] : [])), ...messages.flatMap((m) => (m.user_id ? [m.user_id] : []))]
  const [members, others] = await Promise.all([chatMembers(db, media, memberIds), otherUsers(db, rows)])
  const byChannel = Map.groupBy(messages, (message) => message.channel_id)
  return rows.map((row) => {
    const other = row.other_id ? others.get(row.other_id) : undefined
    const block = writeBlock(caller, row, other)
    return {
      id: row.id,
      kind: row.kind,
      experience:
        row.kind === 'experience' && row.experience_id
          ? {
              id: row.experience_id,
              slug: row.e_slug ?? '',
              title: row.e_title ?? '',
              start_at: row.e_start_at?.toISOString() ?? null,
              end_at: row.e_end_at?.toISOString() ?? null,
              is_canceled: row.e_canceled_at !== null,
            }
          : null,
      other_member: row.other_id ? (members.get(row.other_id) ?? null) : null,
      is_accepted: row.is_accepted ?? false,
      is_awaiting_acceptance: row.kind === 'direct' && row.other_accepted === false && row.is_accepted === true,
      can_write: block === null,
      cannot_write_reason: block,
      unread_count: row.unread_count,
      last_messages: (byChannel.get(row.id) ?? []).reverse().map((message) => serializeMessage(message, members, caller)),
      last_message_at: row.last_message_at?.toISOString() ?? null,
    }
  })
}

async function otherUsers(db: DB | Trx, rows: ChannelRow[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.other_id ? [row.other_id] : [])))]
  if (ids.length === 0) return new Map<string, User>()
  const users = await db.selectFrom('users').selectAll().where('id', 'in', ids).execute()
  return new Map(users.map((user) => [user.id, user]))
}

export async function serializeChannel(db: DB | Trx, media: MediaStorage, caller: User, id: string): Promise<Channel> {
  const row = await channelRow(db, caller.id, id)
  if (!row) throw problems.notFound('Channel not found')
  const [channel] = await serializeChannels(db, media, caller, [row])
  return channel as Channel
}

// Activity channels -------------------------------------------------------------------------------

/** Makes `userId` a member (again): accepted, not left. */
async function enter(trx: Trx, channelId: string, userId: string, options: { readNow?: boolean } = {}) {
  // `now()` is the transaction's time, so a message posted in it is read with it.
  const read = options.readNow ? { last_read_at: sql<Date>`now()` } : {}
  await trx
    .insertInto('channel_memberships')
    .values({ channel_id: channelId, user_id: userId, is_accepted: true, ...read })
    .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doUpdateSet({ is_accepted: true, left_at: null, ...read }))
    .execute()
}

/** `PUT experiences/{id}/message-channels/join`: an attendee, or the host without attending, joins the activity's chat. */
export async function joinExperienceChannel({ db, media, chatMirror }: ChatDeps, caller: User, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const holds_seat = await holdsSeat(db, experience.id, caller.id)
  requirePermission(caller, 'join:channel', { host_id: experience.host_id, holds_seat })
  const channelId = await db.transaction().execute(async (trx) => {
    const id = await openActivityChat(trx, experience, caller.id)
    await enter(trx, id, caller.id)
    await chatMirror.record(trx, { type: 'channel', channel_id: id })
    return id
  })
  return { data: [await serializeChannel(db, media, caller, channelId)] as [Channel] }
}

/** `GET experiences/{id}/message-channels`: the activity's chat, for those who may read it (empty until someone joins). */
export async function experienceChannels(db: DB, media: MediaStorage, caller: User, idOrSlug: string) {
  const experience = await getReadableExperience(db, idOrSlug, caller)
  const channel = await db.selectFrom('message_channels').select('id').where('experience_id', '=', experience.id).executeTakeFirst()
  if (!channel) {
    const holds_seat = await holdsSeat(db, experience.id, caller.id)
    requirePermission(caller, 'read:channel', { experience: { host_id: experience.host_id, holds_seat }, membership: null })
    return { data: [] as Channel[] }
  }
  const { row } = await readableChannel(db, caller, channel.id)
  return { data: await serializeChannels(db, media, caller, [row]) }
}

// Direct channels ---------------------------------------------------------------------------------

/** Two members share one direct channel: its key is their ids in order. */
const directKey = (a: string, b: string) => [a, b].sort().join(':')

/**
 * `POST users/message-channels`: the direct channel with another member, made when there is none
 * (`created`). The recipient's membership starts not accepted: a message request. Refused for
 * oneself, a deleted member or one who blocked the caller (404, as their profile), a suspended
 * or banned member (spec §8) and a member the caller blocked.
 */
export async function openDirectChannel({ db, media, chatMirror }: ChatDeps, caller: User, input: DirectChannelInput) {
  requirePermission(caller, 'create:channel:direct')
  if (input.user_id === caller.id) throw problems.conflict('cannot_message_self', 'You cannot send a message to yourself.')
  const recipient = await db.selectFrom('users').selectAll().where('id', '=', input.user_id).executeTakeFirst()
  if (!recipient || recipient.state === 'deleted') throw problems.notFound('User not found')
  const { aBlockedB: callerBlocked, bBlockedA: blockedCaller } = await blocksBetween(db, caller.id, recipient.id)
  if (blockedCaller) throw problems.notFound('User not found')
  if (isSuspended(recipient)) throw new ApiProblem(403, 'recipient_suspended', 'This member cannot be messaged.')
  if (callerBlocked) throw new ApiProblem(403, 'blocked', 'You blocked this member. Unblock them to send a message.')

  // An attendee writing to the host of an activity they attend is not a stranger (issue 29 §3,
  // decision 060): the host's side is accepted at once (no message request, no 2-message limit),
  // and an earlier request of the attendee's becomes a conversation. The other way round (a host
  // writing to an attendee) stays a request.
  const contactsTheirHost = await attendsActivityHostedBy(db, caller.id, recipient.id)
  const key = directKey(caller.id, recipient.id)
  const { id, created } = await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('message_channels').select('id').where('direct_key', '=', key).executeTakeFirst()
    if (!existing) await checkNewConversation(trx, caller)
    const inserted = await trx
      .insertInto('message_channels')
      .values({ kind: 'direct', direct_key: key, created_by: caller.id })
      .onConflict((conflict) => conflict.column('direct_key').doNothing())
      .returning('id')
      .executeTakeFirst()
    const channel = inserted ?? (await trx.selectFrom('message_channels').select('id').where('direct_key', '=', key).executeTakeFirstOrThrow())
    // Opening the conversation oneself accepts it; the recipient is asked.
    await enter(trx, channel.id, caller.id)
    await trx
      .insertInto('channel_memberships')
      .values({ channel_id: channel.id, user_id: recipient.id, is_accepted: contactsTheirHost })
      .onConflict((conflict) => {
        const pair = conflict.columns(['channel_id', 'user_id'])
        return contactsTheirHost ? pair.doUpdateSet({ is_accepted: true }) : pair.doNothing()
      })
      .execute()
    await chatMirror.record(trx, { type: 'channel', channel_id: channel.id })
    return { id: channel.id, created: inserted !== undefined }
  })
  return { created, body: { data: [await serializeChannel(db, media, caller, id)] as [Channel] } }
}

/** Membership of `caller` in a channel they may read, or 404. */
async function requireMembership(db: DB, caller: User, id: string) {
  const loaded = await readableChannel(db, caller, id)
  if (!loaded.row.is_member) throw problems.notFound('You are not in this channel.')
  return loaded
}

/** `DELETE users/message-channels/{id}/leave`: the channel leaves the caller's list (a direct one comes back with a new message). */
export async function leaveChannel({ db, chatMirror }: Pick<ChatDeps, 'db' | 'chatMirror'>, caller: User, id: string) {
  await requireMembership(db, caller, id)
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('channel_memberships')
      .set({ left_at: new Date() })
      .where('channel_id', '=', id)
      .where('user_id', '=', caller.id)
      .where('left_at', 'is', null)
      .execute()
    await chatMirror.record(trx, { type: 'channel', channel_id: id })
  })
}

/** `POST v1/chat/message-channels/{id}/accept`: the recipient accepts a message request (idempotent). */
export async function acceptChannel(db: DB, media: MediaStorage, caller: User, id: string) {
  await requireMembership(db, caller, id)
  await db.updateTable('channel_memberships').set({ is_accepted: true }).where('channel_id', '=', id).where('user_id', '=', caller.id).execute()
  return { data: [await serializeChannel(db, media, caller, id)] as [Channel] }
}

// Reading -----------------------------------------------------------------------------------------

/**
 * `GET v1/chat/message-channels`: the caller's channels, newest first, each with its last 5
 * messages; the unread total. `exclude_results=true`: the totals alone (every page's badge).
 */
export async function listChannels(db: DB, media: MediaStorage, caller: User, query: ChannelListQuery) {
  requirePermission(caller, 'read:channels')
  if (query.exclude_results === 'true') {
    const { total, totalUnread } = await listedChannelTotals(db, caller.id)
    return { data: [] as Channel[], metadata: { ...pageMetadata(query.page, query.per_page, total), total_unread: totalUnread } }
  }
  const { rows, total, totalUnread } = await listedChannelRows(db, caller.id, query.per_page, (query.page - 1) * query.per_page)
  return {
    data: await serializeChannels(db, media, caller, rows),
    metadata: { ...pageMetadata(query.page, query.per_page, total), total_unread: totalUnread },
  }
}

/** `GET message-channels/{id}`: the channel and a page of messages, oldest first; `older_cursor` loads the page before. */
export async function getChannel(db: DB, media: MediaStorage, caller: User, id: string, query: ChannelMessagesQuery) {
  const { row } = await readableChannel(db, caller, id)
  const [channel] = await serializeChannels(db, media, caller, [row])
  const [page, hidden_count] = await Promise.all([
    pageOfMessages(db, row.id, row.read_until, query.before, query.limit + 1, { id: caller.id, showBlocked: query.show_blocked }),
    hiddenMessageCount(db, row.id, row.read_until, caller.id),
  ])
  const hasOlder = page.length > query.limit
  const shown = page.slice(0, query.limit)
  const members = await chatMembers(
    db,
    media,
    shown.flatMap((message) => (message.user_id ? [message.user_id] : [])),
  )
  const result: ChannelWithMessages = {
    ...(channel as Channel),
    messages: shown.reverse().map((message) => serializeMessage(message, members, caller)),
    older_cursor: hasOlder ? (shown[0]?.id ?? null) : null,
    hidden_count,
    blocked_message_ids: shown.flatMap((message) => (message.from_blocked ? [message.id] : [])),
  }
  return { data: [result] as [ChannelWithMessages] }
}

/** `GET message-channels/{id}/users`: who is in the channel now (never suspended, banned or deleted members). */
export async function channelUsers(db: DB, media: MediaStorage, caller: User, id: string, userId: string | undefined) {
  const { row } = await readableChannel(db, caller, id)
  let query = db
    .selectFrom('channel_memberships as cm')
    .innerJoin('users', 'users.id', 'cm.user_id')
    .leftJoin('media', 'media.id', 'users.avatar_media_id')
    .selectAll('users')
    .select(['cm.is_accepted', 'media.storage_key as avatar_key'])
    .where('cm.channel_id', '=', row.id)
    .where('cm.left_at', 'is', null)
    .where('users.state', '<>', 'deleted')
    .where('users.state', '<>', 'suspended')
    .where('users.banned', '=', false)
    .where('users.is_suspended', '=', false)
    .orderBy('cm.created_at')
  if (userId) query = query.where('cm.user_id', '=', userId)
  const rows = await query.execute()
  const members = await chatMembers(
    db,
    media,
    rows.map((user) => user.id),
  )
  return {
    data: rows.flatMap((user) => {
      const member = members.get(user.id)
      return member ? [{ ...member, is_host: row.e_host_id === user.id, is_accepted: user.is_accepted }] : []
    }),
  }
}

// Writing -----------------------------------------------------------------------------------------

/**
 * `POST v1/chat/message-channels/{id}/messages`: at most so many a minute and an hour per member,
 * and a minute per member and channel (`countMessage`, 429 `too_many_messages`). The channel row is locked while the rules are
 * checked, so two sends at once cannot both pass the 2-message limit of a request. Sending
 * accepts a request one received, and brings a left channel back into one's list.
 */
export async function sendMessage({ db, media, notify, chatMirror }: ChatDeps, caller: User, id: string, input: SendMessageInput) {
  if (!isUuid(id)) throw problems.notFound('Channel not found')
  // Counted before anything else, whatever becomes of the message (decision 066).
  await countMessage(db, caller, id)
  const message = await db.transaction().execute(async (trx) => {
    // The channel's row first: sends to one channel wait here, so its rules (the request's 2
    // messages) are checked one send at a time; the chat's own lock comes with the commit
    // (`postMessage`). Every send is a handful of round trips: the live chat's busiest path.
    await trx.selectFrom('message_channels').select('id').where('id', '=', id).forNoKeyUpdate().execute()
    const { row, other } = await readableChannel(trx, caller, id)
    const block = writeBlock(caller, row, other)
    if (block) throw writeProblem(block, other)
    if (row.kind === 'direct' && other) {
      const otherName = displayName(other)
      if (row.other_accepted === false) await checkOpeningMessage(trx, caller, otherName, input)
      else if (mayBeRefusedAsOpening(input.text) && (await awaitsHostReply(trx, id, caller.id, other.id))) await checkOpeningMessage(trx, caller, otherName, input, 'reply')
    }
    // One's own message is read: the member's read marker is the message's time.
    await enter(trx, id, caller.id, { readNow: true })
    const posted = await postMessage(trx, chatMirror, { channel_id: id, user_id: caller.id, body: input.text })
    await notifyNewMessage(trx, notify, caller.id, id, posted.id)
    return posted
  })
  const members = await chatMembers(db, media, [caller.id])
  return { data: [serializeMessage(message, members, caller)] as [Message] }
}

/** How long a new message waits before its email or push: a member with the chat open has read it by then. */
const newMessageDelaySeconds = 60

/**
 * `message.new` (issue 15 §1, decision 047) for the channel's other members, at most one unread
 * per member and channel an hour (the first message of a busy hour tells; the rest are in the
 * chat; an answer after the member read the chat tells again), never to a member who left or
 * who blocked the sender.
 */
export async function notifyNewMessage(trx: Trx, notify: Notify, senderId: string | null, channelId: string, messageId: string) {
  let members = trx.selectFrom('channel_memberships as cm').select('cm.user_id').where('cm.channel_id', '=', channelId).where('cm.left_at', 'is', null)
  // A member's message (a support answer has no sender): not to them, nor to whoever blocked them.
  if (senderId)
    members = members
      .where('cm.user_id', '<>', senderId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('blocks').select('blocker_id').whereRef('blocks.blocker_id', '=', 'cm.user_id').where('blocks.blocked_id', '=', senderId))))
  const recipients = await members
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('notifications as n')
            .select('n.id')
            .whereRef('n.user_id', '=', 'cm.user_id')
            .where('n.type', '=', 'message.new')
            .where('n.seen_at', 'is', null)
            .where(sql<string>`n.data->>'channel_id'`, '=', channelId)
            .where('n.created_at', '>', sql<Date>`now() - interval '1 hour'`),
        ),
      ),
    )
    .execute()
  await notify(
    { type: 'message.new', to: recipients.map((row) => row.user_id), data: { channel_id: channelId, message_id: messageId }, deliverAfterSeconds: newMessageDelaySeconds },
    trx,
  )
}

/** `POST v1/chat/message-channels/{id}/read`: everything in the channel up to now is read. */
export async function markRead(db: DB, caller: User, id: string) {
  const { row } = await readableChannel(db, caller, id)
  if (!row.is_member) {
    if (!can(caller, 'write:channel', resourceOf(row))) return
    await db.transaction().execute((trx) => enter(trx, id, caller.id))
  }
  await db
    .updateTable('channel_memberships')
    .set({ last_read_at: sql`greatest(now(), (SELECT last_message_at FROM message_channels WHERE id = ${id}))` })
    .where('channel_id', '=', id)
    .where('user_id', '=', caller.id)
    .execute()
  // What told the member of this chat's new messages is read with them.
  await db
    .updateTable('notifications')
    .set({ seen_at: sql<Date>`now()` })
    .where('user_id', '=', caller.id)
    .where('type', '=', 'message.new')
    .where('seen_at', 'is', null)
    .where(sql<string>`data->>'channel_id'`, '=', id)
    .execute()
}

// New-message search ----------------------------------------------------------------------------------

/**
 * `GET v1/chat/users` (spec §7, decision 034): members to write to, those the caller met first.
 * The members the caller blocked are left out unless they chose to see them (spec §6); members
 * who blocked the caller, and suspended, banned or deleted members, never show.
 */
export async function searchChatUsers(db: DB, media: MediaStorage, caller: User, query: ChatUsersQuery) {
  requirePermission(caller, 'read:members')
  const perPage = Math.min(query.per_page, maxPerPage)
  const foldedName = query.name ? foldName(query.name) : null
  const { rows, total } = await chatUserRows(db, caller, {
    foldedName: foldedName || null,
    showBlocked: caller.show_blocked_in_chat_search,
    limit: perPage,
    offset: (query.page - 1) * perPage,
  })
  const data: ChatUser[] = rows.map((row) => ({ ...chatMember(media, row, row.avatar_key), has_met: row.has_met, is_blocked: row.is_blocked }))
  return { data, metadata: pageMetadata(query.page, perPage, total) }
}
