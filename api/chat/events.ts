import { sql } from 'kysely'
import type { Trx } from '../experiences/service.ts'

/**
 * The chat's one publish point (decision 029). Every new message calls it in the transaction
 * that inserts it, so PostgreSQL delivers the notification only if the message was committed,
 * to every instance listening on the `chat` channel (ARCHITECTURE §2, §6). The payload names the
 * channel and the message, nothing of their content: a listener reads the message through the
 * same access rules as any reader. The SSE slice adds the `LISTEN chat` side.
 */
export const chatNotifyChannel = 'chat'

export interface ChatEvent {
  channel_id: string
  message_id: string
}

export async function publishChatEvent(trx: Trx, event: ChatEvent) {
  const payload = JSON.stringify({ channel_id: event.channel_id, message_id: event.message_id })
  await sql`SELECT pg_notify(${chatNotifyChannel}, ${payload})`.execute(trx)
}
