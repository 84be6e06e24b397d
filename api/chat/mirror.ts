import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { ChatChange, ChatProvider } from '../providers/chat/provider.ts'

/**
 * Mirroring committed chat changes to the chat provider (decision 036). Called once the change
 * is committed, so the member's message is already kept whatever the vendor does: the mirror is
 * tried at once (the other member sees it live through the vendor), and when the vendor fails,
 * queued on the PostgreSQL job queue, retried with backoff, on any instance.
 */

/** A committed change as the retry job carries it (the provider's `ChatChange`). */
const chatChange = z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), channel_id: z.guid() }),
  z.object({ type: z.literal('message'), message_id: z.guid() }),
  z.object({ type: z.literal('message.removed'), message_id: z.guid() }),
  z.object({ type: z.literal('block'), blocker_id: z.guid(), blocked_id: z.guid(), blocked: z.boolean() }),
  z.object({ type: z.literal('member'), user_id: z.guid() }),
]) satisfies z.ZodType<ChatChange>

/**
 * A change the chat provider failed to take, retried on any instance: from 15 s, doubling, ten
 * attempts cover a few hours of the vendor being down. Worked only where a vendor is configured.
 */
export const chatMirrorJob = defineJob({
  name: 'chat.mirror',
  payload: chatChange,
  retryLimit: 10,
  retryDelaySeconds: 15,
  timeoutSeconds: 60,
  runsWhen: ({ chat }: { chat?: ChatProvider | undefined }) => chat !== undefined && chat.name !== 'builtin',
  async handler(change, { chat }: { chat?: ChatProvider | undefined }) {
    if (!chat) throw new Error('No chat provider')
    await chat.apply(change)
  },
})
export const CHAT_MIRROR_JOB = chatMirrorJob.name

export interface ChatMirrorServices {
  db: DB
  chat?: ChatProvider
  /** The job queue for retries; absent (tests, the API without jobs): the failure is logged. */
  jobs?: Pick<JobQueue, 'send'>
  logger: Logger
}

/** Mirrors `change` now, or queues it for retry; never throws (what the member did is committed). */
export async function mirrorChat(services: ChatMirrorServices, change: ChatChange) {
  const chat = services.chat
  if (!chat || chat.name === 'builtin') return
  try {
    await chat.apply(change)
  } catch (error) {
    services.logger.warn({ err: error, change }, 'Chat provider failed; the change is queued for retry')
    try {
      if (!services.jobs) throw new Error('No job queue')
      await services.jobs.send(chatMirrorJob.name, change)
    } catch (queueError) {
      services.logger.error({ err: queueError, change }, 'Chat change could not be queued for retry; the provider misses it')
    }
  }
}

/** Mirrors the activity's chat, when it has one (after a seat is cancelled: its holder no longer reads it). */
export async function mirrorActivityChat(services: ChatMirrorServices, experienceId: string) {
  if (!services.chat || services.chat.name === 'builtin') return
  const channel = await services.db.selectFrom('message_channels').select('id').where('experience_id', '=', experienceId).executeTakeFirst()
  if (channel) await mirrorChat(services, { type: 'channel', channel_id: channel.id })
}
