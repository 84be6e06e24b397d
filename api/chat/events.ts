import { sql } from 'kysely'
import type { Trx } from '../experiences/service.ts'

/**
 * The chat's one publish point (decision 029). Every new message calls it in the transaction
 * that inserts it, so PostgreSQL delivers the notification only if the message was committed,
 * to every instance listening on the `chat` channel (ARCHITECTURE §2, §6). The payload names the
 * channel, the message and its `seq`, nothing of their content: a listener reads the message
 * through the same access rules as any reader (api/realtime/, decision 032).
 */
export const chatNotifyChannel = 'chat'

export interface ChatEvent {
  channel_id: string
  message_id: string
  seq: number
}

export async function publishChatEvent(trx: Trx, event: ChatEvent) {
  const payload = JSON.stringify({ channel_id: event.channel_id, message_id: event.message_id, seq: event.seq })
  await sql`SELECT pg_notify(${chatNotifyChannel}, ${payload})`.execute(trx)
}

/** After a message is inserted, in its transaction: the channel moves up the lists and the event goes out. */
export async function messagePosted(trx: Trx, message: { id: string; channel_id: string; created_at: Date; seq: number }) {
  await trx
    .updateTable('message_channels')
    .set({ last_message_at: sql`greatest(last_message_at, ${message.created_at})` })
    .where('id', '=', message.channel_id)
    .execute()
  await publishChatEvent(trx, { channel_id: message.channel_id, message_id: message.id, seq: message.seq })
}

/** Any number of our own; the key of the chat's transaction lock. */
const chatWriteLock = 2_905_529

/**
 * Taken by every transaction that inserts a message, before it locks any channel row, and held
 * until it commits: messages then commit in `seq` order, so a stream that has sent `seq` n has
 * sent every readable message numbered below it, and `Last-Event-ID: n` resumes exactly
 * (decision 032). Taking it first everywhere means it cannot deadlock with the channel locks.
 */
export async function lockChatWrites(trx: Trx) {
  await sql`SELECT pg_advisory_xact_lock(${chatWriteLock})`.execute(trx)
}
