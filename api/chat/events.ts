import { sql } from 'kysely'
import type { ChatMirror } from './mirror.ts'
import type { Trx } from '../db/database.ts'

/**
 * The chat's notifications (decision 029): each message, as its transaction commits (migration
 * 0017), is published on this PostgreSQL channel to every instance listening (ARCHITECTURE §2, §6). The payload names the
 * channel, the message and its `seq`, nothing of their content: a listener reads the message
 * through the same access rules as any reader (api/realtime/, decision 032).
 */
export const chatNotifyChannel = 'chat'

export interface ChatEvent {
  channel_id: string
  message_id: string
  seq: number
}

/** A stored message as the chat reads it. */
export interface MessageRow {
  id: string
  channel_id: string
  user_id: string | null
  body: string
  is_system: boolean
  /** A product message's translation key and parameters (null for a member's message). */
  product_key: string | null
  product_params: Record<string, string>
  created_at: Date
}

/** A message to store: a member's (`user_id`), or the product's (`is_system`, with its translation key). */
export interface NewMessage {
  channel_id: string
  user_id: string | null
  body: string
  is_system?: boolean
  product_key?: string | null
  product_params?: Record<string, string>
  /** A support answer's admin (decision 039), kept apart from the sender the member sees. */
  answered_by?: string | null
}

/**
 * The chat's one write point (decisions 029, 032), in the caller's transaction: the channel moves
 * up the lists (its row locked until commit) and the message is inserted. Its `seq` and its event
 * come with the commit (migration 0017): a deferred trigger takes the chat's lock, numbers the
 * message and notifies `chat`, so messages commit in `seq` order — a stream that has sent `seq` n
 * has sent every readable message numbered below it, and `Last-Event-ID: n` resumes exactly —
 * while the lock is held for the commit alone, never across a round trip to the server. Nothing
 * is published if the transaction rolls back.
 */
export async function postMessage(trx: Trx, chatMirror: ChatMirror, message: NewMessage): Promise<MessageRow> {
  // One statement (a data-modifying WITH runs whether or not the insert reads it).
  const posted = await trx
    .with('touched', (db) =>
      db.updateTable('message_channels').set({ last_message_at: sql`greatest(last_message_at, now())` }).where('id', '=', message.channel_id),
    )
    .insertInto('messages')
    .values({
      channel_id: message.channel_id,
      user_id: message.user_id,
      body: message.body,
      is_system: message.is_system ?? false,
      product_key: message.product_key ?? null,
      product_params: JSON.stringify(message.product_params ?? {}),
      answered_by: message.answered_by ?? null,
    })
    .returning(['id', 'channel_id', 'user_id', 'body', 'is_system', 'product_key', 'product_params', 'created_at'])
    .executeTakeFirstOrThrow()
  // The chat vendor's copy, whoever posted it (a member, the product, the support team: decision 072).
  await chatMirror.record(trx, { type: 'message', message_id: posted.id })
  return posted
}
