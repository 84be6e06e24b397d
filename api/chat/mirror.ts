import type { DB } from '../db/database.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { ChatChange, ChatProvider } from '../providers/chat/provider.ts'

/**
 * Mirroring committed chat changes to the chat provider (decision 036). Called once the change
 * is committed, so the member's message is already kept whatever the vendor does: the mirror is
 * tried at once (the other member sees it live through the vendor), and when the vendor fails,
 * queued on the PostgreSQL job queue, retried with backoff, on any instance.
 */
export const CHAT_MIRROR_JOB = 'chat.mirror'

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
      await services.jobs.send(CHAT_MIRROR_JOB, change)
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

/** Defines the retry queue and works it here (every instance may). */
export async function startChatMirror(options: { queue: JobQueue; chat: ChatProvider; logger: Logger }) {
  if (options.chat.name === 'builtin') return
  // From 15 s, doubling: ten attempts cover a few hours of the vendor being down.
  await options.queue.define(CHAT_MIRROR_JOB, { retryLimit: 10, retryDelaySeconds: 15, timeoutSeconds: 60 })
  await options.queue.work<ChatChange>(CHAT_MIRROR_JOB, (change) => options.chat.apply(change))
}
