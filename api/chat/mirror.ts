import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { ChatChange, ChatProvider } from '../providers/chat/provider.ts'

/**
 * Mirroring committed chat changes to the chat provider (decisions 036 and 072). The member's
 * message is kept in the database whatever the vendor does; the vendor's copy is a job recorded
 * with the change, started at the commit (the other member sees it live through the vendor) and,
 * when the vendor fails, retried with backoff on any instance.
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
 * A committed change for the chat provider, worked one at a time per instance (in the order the
 * changes committed); a failed attempt is retried on any instance from 15 s, doubling: ten
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

/**
 * Records a committed chat change for the chat provider (decision 072): a `chat.mirror` job written
 * by the change's own transaction, so it exists exactly when the change commits, whatever the entry
 * point (web, API, a texted "C", a job); the queue starts it at the commit. Nothing is recorded
 * with the built-in chat, which is the database itself.
 */
export interface ChatMirror {
  record(trx: DB, change: ChatChange): Promise<void>
  /** The activity's chat, when it has one (a seat given back: its holder no longer reads it). */
  recordActivityChat(trx: DB, experienceId: string): Promise<void>
}

export function createChatMirror(options: { chat?: ChatProvider | undefined; jobs?: Pick<JobQueue, 'send'> | undefined }): ChatMirror {
  const { chat, jobs } = options
  if (!chat || chat.name === 'builtin') return { record: async () => undefined, recordActivityChat: async () => undefined }
  if (!jobs) throw new Error(`The ${chat.name} chat needs the job queue: its copy of each change is a job`)
  const record = (trx: DB, change: ChatChange) => jobs.send(chatMirrorJob.name, change, { transaction: trx })
  return {
    record,
    async recordActivityChat(trx, experienceId) {
      const channel = await trx.selectFrom('message_channels').select('id').where('experience_id', '=', experienceId).executeTakeFirst()
      if (channel) await record(trx, { type: 'channel', channel_id: channel.id })
    },
  }
}
