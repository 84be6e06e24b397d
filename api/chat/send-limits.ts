import { messagesPerChannelPerMinute, messagesPerHour, messagesPerMinute } from '#contract/limits.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { countHits, type Limit } from '../http/security.ts'

/**
 * How many messages one member may send (issue 29 §5, decision 066), for every client and every
 * chat: in all their chats `messagesPerMinute` a minute and `messagesPerHour` an hour, in one chat
 * `messagesPerChannelPerMinute` a minute. The counters are the rate limits' rows in PostgreSQL
 * (shared by every instance), counted and checked in one statement before the message is looked
 * at: sends at once are counted one after the other, so no number of parallel requests gets past
 * the limit, and a refused send still counts (a flood stays refused).
 */
export const messageLimits = {
  member: { name: 'messages-member', max: messagesPerMinute, windowSeconds: 60 },
  memberHour: { name: 'messages-member-hour', max: messagesPerHour, windowSeconds: 60 * 60 },
  channel: { name: 'messages-channel', max: messagesPerChannelPerMinute, windowSeconds: 60 },
} satisfies Record<string, Limit>

/** Counts a message `sender` is sending to `channelId`; 429 `too_many_messages` when it is one too many. */
export async function countMessage(db: DB, sender: User, channelId: string) {
  const [member, hour, channel] = await countHits(db, [
    { limit: messageLimits.member, key: sender.id },
    { limit: messageLimits.memberHour, key: sender.id },
    { limit: messageLimits.channel, key: `${sender.id}:${channelId}` },
  ])
  const over = [member, hour, channel].filter((result) => result?.over)
  if (over.length === 0) return
  const wait = Math.max(...over.map((result) => result!.retryAfter))
  const minutes = Math.ceil(wait / 60)
  throw problems.tooMany(
    'too_many_messages',
    `You are sending messages faster than Circle 55 allows. Please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and send it again.`,
    wait,
  )
}
