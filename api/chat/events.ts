import { sql } from 'kysely'
import type { Trx } from '../experiences/service.ts'
import type { MessageRow } from './queries.ts'

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

/** Any number of our own; the key of the chat's transaction lock. */
const chatWriteLock = 2_905_529

/**
 * The chat's one write and publish point (decisions 029, 032), in the caller's transaction, in one
 * statement: the channel moves up the lists (its row locked until commit), then the chat's lock
 * is taken, the message inserted with the next `seq`, and the event published — PostgreSQL
 * delivers it only if the transaction commits.
 *
 * The lock makes messages commit in `seq` order, so a stream that has sent `seq` n has sent every
 * readable message numbered below it and `Last-Event-ID: n` resumes exactly. It is held only from
 * here to the commit: everything a send checks or locks happens before (the channel row first, so
 * that a holder of the lock never waits for a row another sender holds — no deadlock), which keeps
 * the one system-wide queue a single statement long (measured by `npm run bench:chat`, decision 040).
 */
export async function postMessage(trx: Trx, message: NewMessage): Promise<MessageRow & { seq: number }> {
  const result = await sql<MessageRow & { seq: number }>`
    WITH moved AS (
      UPDATE message_channels SET last_message_at = greatest(last_message_at, now()) WHERE id = ${message.channel_id}::uuid RETURNING id
    ), locked AS (
      SELECT moved.id, pg_advisory_xact_lock(${chatWriteLock}) FROM moved
    ), inserted AS (
      INSERT INTO messages (channel_id, user_id, body, is_system, product_key, product_params, answered_by)
      SELECT locked.id, ${message.user_id}::uuid, ${message.body}::text, ${message.is_system ?? false}::boolean,
        ${message.product_key ?? null}::text, ${JSON.stringify(message.product_params ?? {})}::jsonb, ${message.answered_by ?? null}::uuid
      FROM locked
      RETURNING id, channel_id, user_id, body, is_system, product_key, product_params, created_at, seq
    )
    SELECT inserted.*, pg_notify(${chatNotifyChannel}, json_build_object('channel_id', channel_id, 'message_id', id, 'seq', seq)::text) AS notified
    FROM inserted`.execute(trx)
  const inserted = result.rows[0]
  if (!inserted) throw new Error(`Channel ${message.channel_id} does not exist`)
  // `notified` (pg_notify's void) is not part of the message.
  const { notified: _, ...row } = inserted as typeof inserted & { notified?: unknown }
  return row
}
