import { sql } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { postMessage } from '../chat/events.ts'
import { chatMembers } from '../chat/queries.ts'
import { notifyNewMessage, serializeChannel } from '../chat/service.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { Env } from '../env.ts'
import { isOn } from '../flags/service.ts'
import { helpChatVendor, helpChatWidget } from '../providers/help-chat/help-chat.ts'
import { helpChatFlag, type HelpChat, type HelpChatMessage } from '#contract/help-chat.ts'
import type { Channel } from '#contract/chat.ts'
import { pageMetadata, type PageQuery } from '#contract/common.ts'
import { displayName } from '#contract/display-name.ts'
import {
  supportMessagesShown,
  type SupportAnswerInput,
  type SupportConversation,
  type SupportConversationWithMessages,
  type SupportMessage,
} from '#contract/support.ts'

/**
 * "Contact the product" (issue 14 §1, decision 039). A member's conversation with Circle 55
 * support is a chat channel of kind `support` with the member alone in it: they read and write
 * it through the chat service like any channel. Admins holding `answer:support` read support
 * conversations here (and no other chat) and answer as "Circle 55 support": the answer is a
 * message without a sender (`is_system`), inserted through the chat's publish point so it
 * arrives live, with the admin kept in `answered_by` for the team only.
 */

const supportKey = (userId: string) => `support:${userId}`

/** The member's support conversation, made on first use; they are (again) in it. */
async function supportChannelId(trx: Trx, userId: string) {
  const inserted = await trx
    .insertInto('message_channels')
    .values({ kind: 'support', direct_key: supportKey(userId), created_by: userId })
    .onConflict((conflict) => conflict.column('direct_key').doNothing())
    .returning('id')
    .executeTakeFirst()
  const channel = inserted ?? (await trx.selectFrom('message_channels').select('id').where('direct_key', '=', supportKey(userId)).executeTakeFirstOrThrow())
  await trx
    .insertInto('channel_memberships')
    .values({ channel_id: channel.id, user_id: userId, is_accepted: true })
    .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doUpdateSet({ is_accepted: true, left_at: null }))
    .execute()
  return { id: channel.id, created: inserted !== undefined }
}

/** `POST v1/support/message-channel`: the caller's conversation with Circle 55 support (201 when new). */
export async function openSupportChannel(db: DB, media: MediaStorage, caller: User) {
  requirePermission(caller, 'contact:support')
  const { id, created } = await db.transaction().execute((trx) => supportChannelId(trx, caller.id))
  return { created, body: { data: [await serializeChannel(db, media, caller, id)] as [Channel] } }
}

// The admins' inbox ------------------------------------------------------------------------------

interface ConversationRow {
  id: string
  member_id: string
  last_message_at: Date | null
  support_handled_at: Date | null
  is_waiting: boolean
}

/**
 * Waiting for an answer: the member wrote after the last answer or "done". Deleted messages are
 * not counted; a suspended member's are (the team may need to read why they wrote).
 */
const isWaiting = sql<boolean>`EXISTS (SELECT 1 FROM messages m WHERE m.channel_id = ch.id AND m.user_id = cm.user_id AND m.deleted_at IS NULL
  AND m.created_at > coalesce(ch.support_handled_at, '-infinity'::timestamptz))`

/** Every support conversation (`ch`) with its member (`cm`). */
function supportChannels(db: DB | Trx) {
  return db.selectFrom('message_channels as ch').innerJoin('channel_memberships as cm', 'cm.channel_id', 'ch.id').where('ch.kind', '=', 'support')
}

/** Support conversations with what the inbox needs. */
function conversations(db: DB | Trx) {
  return supportChannels(db).select(['ch.id', 'cm.user_id as member_id', 'ch.last_message_at', 'ch.support_handled_at']).select(isWaiting.as('is_waiting'))
}

/** How many support conversations wait for an answer (`/admin`'s count; the inbox lists them first). */
export async function waitingConversations(db: DB) {
  const { count } = await supportChannels(db).select((eb) => eb.fn.countAll<string>().as('count')).where(isWaiting).executeTakeFirstOrThrow()
  return Number(count)
}

interface SupportMessageRow {
  id: string
  channel_id: string
  user_id: string | null
  body: string
  answered_by: string | null
  created_at: Date
}

function messageRows(db: DB | Trx) {
  return db
    .selectFrom('messages')
    .select(['id', 'channel_id', 'user_id', 'body', 'answered_by', 'created_at'])
    .where('deleted_at', 'is', null)
}

async function serializeConversations(db: DB | Trx, media: MediaStorage, rows: ConversationRow[], messages: SupportMessageRow[]): Promise<SupportConversationWithMessages[]> {
  const members = await chatMembers(db, media, rows.map((row) => row.member_id))
  const agentIds = [...new Set(messages.flatMap((message) => (message.answered_by ? [message.answered_by] : [])))]
  const agents = agentIds.length === 0 ? [] : await db.selectFrom('users').selectAll().where('id', 'in', agentIds).execute()
  const agentNames = new Map(agents.map((agent) => [agent.id, displayName(agent)]))
  const serialize = (message: SupportMessageRow): SupportMessage => ({
    id: message.id,
    body: message.body,
    from_support: message.user_id === null,
    answered_by: message.answered_by ? { id: message.answered_by, display_name: agentNames.get(message.answered_by) ?? null } : null,
    created_at: message.created_at.toISOString(),
  })
  const byChannel = Map.groupBy(messages, (message) => message.channel_id)
  return rows.map((row) => {
    const own = (byChannel.get(row.id) ?? []).map(serialize)
    return {
      id: row.id,
      member: members.get(row.member_id) ?? { id: row.member_id, slug: '', display_name: null, avatar: null },
      is_waiting: row.is_waiting,
      last_message: own.at(-1) ?? null,
      last_message_at: row.last_message_at?.toISOString() ?? null,
      handled_at: row.support_handled_at?.toISOString() ?? null,
      messages: own,
    }
  })
}

const withoutMessages = ({ messages: _messages, ...conversation }: SupportConversationWithMessages): SupportConversation => conversation

/** Conversations as the inbox lists them, each with its last message. */
async function summaries(db: DB | Trx, media: MediaStorage, rows: ConversationRow[]): Promise<SupportConversation[]> {
  const last =
    rows.length === 0
      ? []
      : await messageRows(db)
          .distinctOn('channel_id')
          .where('channel_id', 'in', rows.map((row) => row.id))
          .orderBy('channel_id')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute()
  return (await serializeConversations(db, media, rows, last)).map(withoutMessages)
}

/** `GET v1/admin/support`: every support conversation, those waiting for an answer first, then the newest. */
export async function listSupportConversations(db: DB, media: MediaStorage, caller: User, query: PageQuery) {
  requirePermission(caller, 'answer:support')
  const base = conversations(db).where('ch.last_message_at', 'is not', null)
  const [rows, total] = await Promise.all([
    db
      .selectFrom(base.as('c'))
      .selectAll()
      .orderBy('c.is_waiting', 'desc')
      .orderBy('c.last_message_at', 'desc')
      .orderBy('c.id')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    db.selectFrom(base.as('c')).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ])
  const data = await summaries(db, media, rows)
  return { data, metadata: pageMetadata(query.page, query.per_page, Number(total.count)) }
}

/** A support conversation for an admin (403 for anyone else), or 404 (any other channel is not theirs to read). */
export async function conversation(db: DB | Trx, caller: User, id: string) {
  requirePermission(caller, 'answer:support')
  if (!isUuid(id)) throw problems.notFound('Conversation not found')
  const row = await conversations(db).where('ch.id', '=', id).executeTakeFirst()
  if (!row) throw problems.notFound('Conversation not found')
  return row
}

/** `GET v1/admin/support/{id}`: the conversation with its latest messages, oldest first. */
export async function getSupportConversation(db: DB, media: MediaStorage, caller: User, id: string) {
  const row = await conversation(db, caller, id)
  const messages = await messageRows(db).where('channel_id', '=', row.id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(supportMessagesShown).execute()
  const [result] = await serializeConversations(db, media, [row], messages.reverse())
  return { data: [result] as [SupportConversationWithMessages] }
}

/**
 * `POST v1/admin/support/{id}/messages`: an answer from Circle 55 support. It goes through the
 * chat's write and publish point (`postMessage`), so the member's open pages receive it live;
 * the conversation is then handled (no longer waiting), and the member is told (`message.new`).
 */
export async function answerSupport({ db, media, notify, chatMirror }: { db: DB; media: MediaStorage } & AfterCommit, caller: User, id: string, input: SupportAnswerInput) {
  await conversation(db, caller, id)
  const inserted = await db.transaction().execute(async (trx) => {
    const message = await postMessage(trx, chatMirror, { channel_id: id, user_id: null, is_system: true, body: input.text, answered_by: caller.id })
    await trx.updateTable('message_channels').set({ support_handled_at: message.created_at }).where('id', '=', id).execute()
    // The member hears of the answer like of any message (decision 047).
    await notifyNewMessage(trx, notify, null, id, message.id)
    return message
  })
  const row = await messageRows(db).where('id', '=', inserted.id).executeTakeFirstOrThrow()
  const [serialized] = await serializeConversations(db, media, [await conversation(db, caller, id)], [row])
  return { data: [serialized?.messages[0] as SupportMessage] as [SupportMessage] }
}

/** `POST v1/admin/support/{id}/done`: nothing more to answer for now; a new message from the member makes it wait again. */
export async function markSupportDone(db: DB, media: MediaStorage, caller: User, id: string) {
  await conversation(db, caller, id)
  await db.updateTable('message_channels').set({ support_handled_at: sql<Date>`greatest(now(), last_message_at)` }).where('id', '=', id).execute()
  return { data: (await summaries(db, media, [await conversation(db, caller, id)])) as [SupportConversation] }
}

// The help chat (issue 32 §6, decision 083) ----------------------------------------------------

/**
 * `GET v1/support/help-chat`: the caller's support conversation as they read it (answers from
 * "Circle 55 support", never naming the admin), without opening one, so it is a read even while a
 * staff member views Circle 55 as the member; and the vendor widget, signed for the caller, when
 * one is configured, the `help-chat` flag is on for them, and nobody is viewing as them (research
 * §7: the impersonated member is never identified to the vendor).
 */
export async function helpChat({ db, media, env }: { db: DB; media: MediaStorage; env: Env }, caller: User, options: { impersonated: boolean }): Promise<HelpChat> {
  requirePermission(caller, 'contact:support')
  const channel = await db.selectFrom('message_channels').select('id').where('direct_key', '=', supportKey(caller.id)).where('kind', '=', 'support').executeTakeFirst()
  const rows = channel ? await messageRows(db).where('channel_id', '=', channel.id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(supportMessagesShown).execute() : []
  const messages: HelpChatMessage[] = rows.reverse().map((row) => ({ id: row.id, body: row.body, from_support: row.user_id === null, created_at: row.created_at.toISOString() }))
  return { channel_id: channel?.id ?? null, messages, widget: await widgetFor({ db, media, env }, caller, options) }
}

async function widgetFor({ db, media, env }: { db: DB; media: MediaStorage; env: Env }, caller: User, { impersonated }: { impersonated: boolean }) {
  const vendor = helpChatVendor(env)
  if (!vendor || impersonated || !caller.email) return null
  if (!(await isOn(db, caller, helpChatFlag, true))) return null
  const card = (await chatMembers(db, media, [caller.id])).get(caller.id)
  const avatar = card?.avatar?.url
  return helpChatWidget(vendor, {
    id: caller.id,
    name: displayName(caller) ?? caller.email,
    email: caller.email,
    avatarUrl: avatar ? new URL(avatar, `${env.PUBLIC_URL}/`).href : null,
    createdAt: caller.created_at,
  })
}
