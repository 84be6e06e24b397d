import type { ChatMirror } from './mirror.ts'
import type { Trx } from '../db/database.ts'
import { chatT } from '../i18n.ts'
import { postMessage } from './events.ts'

/**
 * What the product says in chat (issue 14 §1, decision 029): each message is a translation key
 * under `chat:product.` with its parameters, shown in the reader's language; `body` keeps the
 * English text. A new kind of product message adds its key here and its text to
 * `public/locales/{en,fr,nl}/chat.json`.
 */
export const productMessageKeys = ['hostCancelled', 'moderationWarning', 'reportHandled'] as const
export type ProductMessageKey = (typeof productMessageKeys)[number]

export interface ProductMessage {
  key: ProductMessageKey
  params?: Record<string, string>
}

/** The message's text in `language` (the reader's; English when unknown). */
export function productMessageText(message: { product_key: string | null; product_params: Record<string, string> }, language: string | null | undefined) {
  return chatT(language)(`product.${message.product_key}`, message.product_params)
}

/**
 * The member's channel with the product (direct, no other member): product messages meant for
 * them alone land here and cannot be replied to (spec §8).
 */
export async function productChannelId(trx: Trx, userId: string) {
  const key = `product:${userId}`
  await trx
    .insertInto('message_channels')
    .values({ kind: 'direct', direct_key: key, created_by: null })
    .onConflict((conflict) => conflict.column('direct_key').doNothing())
    .execute()
  const channel = await trx.selectFrom('message_channels').select('id').where('direct_key', '=', key).executeTakeFirstOrThrow()
  await trx
    .insertInto('channel_memberships')
    .values({ channel_id: channel.id, user_id: userId, is_accepted: true })
    .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doUpdateSet({ left_at: null }))
    .execute()
  return channel.id
}

/** Posts a message from the product (`is_system`, no sender) in a channel. */
export async function postProductMessage(trx: Trx, chatMirror: ChatMirror, channelId: string, message: ProductMessage) {
  const params = message.params ?? {}
  const inserted = await postMessage(trx, chatMirror, {
    channel_id: channelId,
    user_id: null,
    body: productMessageText({ product_key: message.key, product_params: params }, 'en'),
    product_key: message.key,
    product_params: params,
    is_system: true,
  })
  return inserted.id
}

/**
 * One product message to each member, in their product channel. The channels are locked in one
 * order before the first is posted, so two transactions posting to the same channels never wait
 * for each other in a circle.
 */
export async function postProductMessages(trx: Trx, chatMirror: ChatMirror, notices: Array<{ userId: string; key: ProductMessageKey }>) {
  if (notices.length === 0) return
  const channels = []
  for (const notice of notices) channels.push({ channelId: await productChannelId(trx, notice.userId), key: notice.key })
  await trx
    .selectFrom('message_channels')
    .select('id')
    .where('id', 'in', channels.map((channel) => channel.channelId))
    .orderBy('id')
    .forNoKeyUpdate()
    .execute()
  for (const { channelId, key } of channels) await postProductMessage(trx, chatMirror, channelId, { key })
}

/** "The host cancelled this activity." in the activity's chat, when it has one. */
export async function announceCancellation(trx: Trx, chatMirror: ChatMirror, experienceId: string) {
  const channel = await trx.selectFrom('message_channels').select('id').where('experience_id', '=', experienceId).executeTakeFirst()
  if (channel) await postProductMessage(trx, chatMirror, channel.id, { key: 'hostCancelled' })
}
