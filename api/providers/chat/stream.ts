import type { StreamChat } from 'stream-chat'
import type { DB } from '../../db/database.ts'
import { isSuspendedMember, displayName } from '#contract/display-name.ts'
import type { ChatChange, ChatProvider } from './provider.ts'

/**
 * Stream Chat as the chat service's mirror (decision 036), through the server-side `stream-chat`
 * client (9.x): server requests carry `api_key` as a query parameter, a JWT `{ server: true }`
 * signed HS256 with the secret as `Authorization` and `Stream-Auth-Type: jwt`.
 *
 * - Members are Stream users whose id is their `stream_id` (never our user id or email).
 * - Every channel, activity chat or direct, is a `messaging` channel whose id is our channel id,
 *   created by the product's own Stream user; its members are who may read it now.
 * - Messages keep our message id, so a retried send is recognised ("already exists") and a
 *   moderation removal deletes the same message.
 * - Member tokens (`stream_token`) are JWTs `{ user_id: stream_id }` signed HS256 with the secret,
 *   valid for a day (the page asks again on each load).
 *
 * The SDK loads on first use, so the built-in service never loads it.
 */
export const STREAM_CHANNEL_TYPE = 'messaging'
/** The product's Stream user: creator of every channel and sender of product messages. */
export const STREAM_PRODUCT_USER = { id: 'circle55', name: 'Circle 55' }
export const STREAM_TOKEN_TTL_SECONDS = 24 * 60 * 60

/** Where the browser's Stream client connects (the CSP's `connect-src`): the REST origin and its WebSocket twin, as the client derives it. */
export function streamBrowserOrigins(baseUrl: string) {
  const origin = new URL(baseUrl).origin
  return [origin, origin.replace(/^http/, 'ws')]
}

export interface StreamChatOptions {
  apiKey: string
  apiSecret: string
  baseUrl: string
  db: DB
  /** Fails a call to Stream that takes longer (the member's send waits for the first attempt). */
  timeoutMs?: number
}

/** A Stream answer (the SDK's ErrorFromResponse), as far as we read it. */
interface StreamError {
  status?: number
  code?: number | null
  message?: string
}

const isStreamError = (error: unknown, status: number) => (error as StreamError | null)?.status === status
const alreadyExists = (error: unknown) => {
  const e = error as StreamError | null
  return e?.status === 400 && e.code === 4 && /already exists/i.test(e.message ?? '')
}

export function createStreamChat(options: StreamChatOptions): ChatProvider {
  const { db } = options
  let client: Promise<StreamChat> | undefined
  function stream() {
    client ??= import('stream-chat').then(
      ({ StreamChat }) =>
        new StreamChat(options.apiKey, options.apiSecret, {
          baseURL: options.baseUrl,
          timeout: options.timeoutMs ?? 3_000,
          // A server client: no per-channel cache growing with every channel it touches.
          disableCache: true,
          browser: false,
        }),
    )
    return client
  }

  /** Stream users for these members: id `stream_id`, the name other members see. */
  async function upsertUsers(rows: Array<Pick<MemberRow, 'stream_id' | NameField>>) {
    const users = [STREAM_PRODUCT_USER, ...rows.map((row) => ({ id: row.stream_id, name: displayName(row) ?? 'Member' }))]
    await (await stream()).upsertUsers(users)
  }

  /** Makes Stream's channel match ours: created if missing, its members who may read it now, nobody else. */
  async function syncChannel(channelId: string) {
    const channel = await db
      .selectFrom('message_channels')
      .leftJoin('experiences', 'experiences.id', 'message_channels.experience_id')
      .select(['message_channels.id', 'message_channels.kind', 'message_channels.experience_id', 'experiences.host_id', 'experiences.title'])
      .where('message_channels.id', '=', channelId)
      .executeTakeFirst()
    if (!channel) return
    const rows = await membersOf(db, channelId, channel.experience_id)
    const blocked = channel.kind === 'direct' ? await directPairBlocked(db, rows) : false
    const readers = rows.filter((row) => {
      if (row.left_at !== null || row.state === 'deleted' || isSuspendedMember(row) || blocked) return false
      // An activity's chat: its host, and attendees who still hold a seat (a cancellation loses it).
      if (channel.kind === 'experience') return row.user_id === channel.host_id || row.holds_seat
      return true
    })
    const wanted = readers.map((row) => row.stream_id)
    const unwanted = rows.filter((row) => !readers.includes(row)).map((row) => row.stream_id)
    await upsertUsers(readers)
    const streamChannel = (await stream()).channel(STREAM_CHANNEL_TYPE, channel.id, {
      created_by_id: STREAM_PRODUCT_USER.id,
      members: wanted,
      ...(channel.title ? { name: channel.title } : {}),
    })
    // Get-or-create: the members given apply only when it is created; the two updates below make an existing one match.
    await streamChannel.create()
    if (wanted.length > 0) await streamChannel.addMembers(wanted)
    if (unwanted.length > 0) await streamChannel.removeMembers(unwanted)
  }

  async function sendMessage(messageId: string) {
    const message = await db
      .selectFrom('messages')
      .leftJoin('users', 'users.id', 'messages.user_id')
      .select(['messages.id', 'messages.channel_id', 'messages.body', 'messages.is_system', 'users.stream_id'])
      .where('messages.id', '=', messageId)
      .executeTakeFirst()
    // Removed meanwhile (moderation): nothing to mirror.
    if (!message) return
    const channel = (await stream()).channel(STREAM_CHANNEL_TYPE, message.channel_id)
    const payload = { id: message.id, text: message.body, user_id: message.stream_id ?? STREAM_PRODUCT_USER.id }
    // Our notifications tell members of new messages (spec §3 message.new); Stream must not push too.
    const send = () => channel.sendMessage(payload, { skip_push: true })
    try {
      await send()
    } catch (error) {
      if (alreadyExists(error)) return
      const status = (error as StreamError).status
      if (status === undefined || status >= 500) throw error
      // Refused (most often: the channel or the sender is not in Stream yet): sync the channel, then once more.
      await syncChannel(message.channel_id)
      try {
        await send()
      } catch (again) {
        if (!alreadyExists(again)) throw again
      }
    }
  }

  async function removeMessage(messageId: string) {
    try {
      await (await stream()).deleteMessage(messageId, true)
    } catch (error) {
      if (!isStreamError(error, 404)) throw error
    }
  }

  async function block(change: Extract<ChatChange, { type: 'block' }>) {
    const users = await db.selectFrom('users').select(['id', 'stream_id']).where('id', 'in', [change.blocker_id, change.blocked_id]).execute()
    const blocker = users.find((user) => user.id === change.blocker_id)
    const blocked = users.find((user) => user.id === change.blocked_id)
    if (!blocker || !blocked) return
    const client = await stream()
    if (change.blocked) await client.blockUser(blocked.stream_id, blocker.stream_id)
    else await client.unBlockUser(blocked.stream_id, blocker.stream_id)
    // Their direct channel closes for both (or opens again).
    const direct = await db.selectFrom('message_channels').select('id').where('direct_key', '=', [change.blocker_id, change.blocked_id].sort().join(':')).executeTakeFirst()
    if (direct) await syncChannel(direct.id)
  }

  /**
   * Makes Stream's ban match the member's standing (decision 042): banned (or an account state of
   * suspended) → banned for good; suspended → banned until the suspension ends (`timeout` in
   * minutes, so Stream lifts it on time even if our job runs late); neither → unbanned. Then every
   * channel they belong to is synced, which removes a suspended member or adds them back.
   */
  async function syncMember(userId: string) {
    const member = await db
      .selectFrom('users')
      .select(['id', 'stream_id', 'first_name', 'last_name', 'formatted_name', 'name', 'banned', 'is_suspended', 'suspended_until', 'state'])
      .where('id', '=', userId)
      .executeTakeFirst()
    if (!member) return
    const client = await stream()
    // Stream bans only users it knows, and names who banned them: the product's own user.
    await upsertUsers([member])
    if (member.banned || member.state === 'suspended') {
      await client.banUser(member.stream_id, { banned_by_id: STREAM_PRODUCT_USER.id, reason: 'banned' })
    } else if (member.is_suspended) {
      const minutesLeft = member.suspended_until ? Math.ceil((member.suspended_until.getTime() - Date.now()) / 60_000) : null
      await client.banUser(member.stream_id, {
        banned_by_id: STREAM_PRODUCT_USER.id,
        reason: 'suspended',
        ...(minutesLeft !== null ? { timeout: Math.max(1, minutesLeft) } : {}),
      })
    } else {
      await client.unbanUser(member.stream_id)
    }
    const channels = await db.selectFrom('channel_memberships').select('channel_id').where('user_id', '=', userId).where('left_at', 'is', null).execute()
    for (const { channel_id } of channels) await syncChannel(channel_id)
  }

  return {
    name: 'stream',
    publicKey: options.apiKey,
    async userToken(user) {
      const now = Math.floor(Date.now() / 1000)
      return (await stream()).createToken(user.stream_id, now + STREAM_TOKEN_TTL_SECONDS, now)
    },
    async apply(change) {
      switch (change.type) {
        case 'channel':
          return syncChannel(change.channel_id)
        case 'message':
          return sendMessage(change.message_id)
        case 'message.removed':
          return removeMessage(change.message_id)
        case 'block':
          return block(change)
        case 'member':
          return syncMember(change.user_id)
      }
    },
  }
}

type NameField = 'first_name' | 'last_name' | 'formatted_name' | 'name' | 'banned' | 'is_suspended' | 'state'

interface MemberRow {
  user_id: string
  stream_id: string
  left_at: Date | null
  holds_seat: boolean
  first_name: string | null
  last_name: string | null
  formatted_name: string | null
  name: string | null
  banned: boolean
  is_suspended: boolean
  state: string
}

/** Everyone with a membership row in the channel (left or not), with whether they hold a seat in its activity. */
async function membersOf(db: DB, channelId: string, experienceId: string | null): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom('channel_memberships as cm')
    .innerJoin('users', 'users.id', 'cm.user_id')
    .select((eb) => [
      'cm.user_id',
      'cm.left_at',
      'users.stream_id',
      'users.first_name',
      'users.last_name',
      'users.formatted_name',
      'users.name',
      'users.banned',
      'users.is_suspended',
      'users.state',
      eb
        .exists(
          eb
            .selectFrom('experience_attendees as a')
            .select('a.user_id')
            .whereRef('a.user_id', '=', 'cm.user_id')
            .where('a.experience_id', '=', experienceId ?? '00000000-0000-0000-0000-000000000000'),
        )
        .as('holds_seat'),
    ])
    .where('cm.channel_id', '=', channelId)
    .orderBy('cm.created_at')
    .execute()
  return rows.map((row) => ({ ...row, holds_seat: Boolean(row.holds_seat) }))
}

/** A direct channel between two members either of whom blocked the other. */
async function directPairBlocked(db: DB, rows: MemberRow[]) {
  if (rows.length !== 2) return false
  const [a, b] = rows.map((row) => row.user_id) as [string, string]
  const block = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) => eb.or([eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]), eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)])]))
    .executeTakeFirst()
  return block !== undefined
}
