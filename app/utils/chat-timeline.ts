import type { Channel, ChatMessageEvent, ChatMember, Message } from '#contract/chat.ts'
import { messagesPerChannelInList } from '#contract/limits.ts'

/**
 * The messenger's live state as pure functions (issue 14 §2, decision 035): what the page shows
 * is the loader's data with the stream's events and the member's own messages still being sent
 * merged in. Every function is idempotent, so the same events can be applied again to a fresher
 * answer of the loader without counting anything twice.
 */

/** A message the member sent that the server has not confirmed yet ("Sending…"). */
export interface PendingMessage {
  /** Local key until the server names it. */
  key: string
  channelId: string
  body: string
  createdAt: string
  /** The message's id once the server accepted it. */
  sentId: string | null
  /** The ids the list held when it was sent: a newer own message with the same text is this one, even before the server answers. */
  seen: ReadonlySet<string>
}

export interface TimelineItem {
  message: Message
  pending: boolean
}

/** The API's order for a channel's messages: `created_at`, then `id` (api/chat/queries.ts). */
function compareMessages(a: Message, b: Message) {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * Everything shown so far and what just came (a fresher loader answer, live messages), once
 * each, in the API's order. A newer copy of a message replaces the older; nothing already shown
 * disappears, so a reload of the newest page (which drops its oldest message) never moves the
 * reader's place.
 */
export function mergeMessages(shown: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return shown as Message[]
  const byId = new Map<string, Message>()
  for (const message of shown) byId.set(message.id, message)
  for (const message of incoming) byId.set(message.id, message)
  return [...byId.values()].sort(compareMessages)
}

/**
 * The open channel as drawn: its messages, then the member's messages still being sent. A sent
 * message stays "pending" until its real copy (the loader's or the stream's) is in the list,
 * then only that copy shows: never both.
 */
export function timeline(messages: readonly Message[], pending: readonly PendingMessage[], sender: ChatMember | null): TimelineItem[] {
  const ids = new Set(messages.map((message) => message.id))
  const items: TimelineItem[] = messages.map((message) => ({ message, pending: false }))
  // The stream often brings the member's message before the form's answer names it.
  const claimed = new Set(pending.flatMap((entry) => (entry.sentId ? [entry.sentId] : [])))
  for (const entry of pending) {
    if (entry.sentId && ids.has(entry.sentId)) continue
    if (!entry.sentId && sender) {
      const body = entry.body.trim()
      const arrived = messages.find(
        (message) => !claimed.has(message.id) && !entry.seen.has(message.id) && message.sender?.id === sender.id && message.body.trim() === body,
      )
      if (arrived) {
        claimed.add(arrived.id)
        continue
      }
    }
    items.push({
      pending: entry.sentId === null,
      message: { id: entry.sentId ?? entry.key, channel_id: entry.channelId, sender, is_system: false, body: entry.body, created_at: entry.createdAt },
    })
  }
  return items
}

/** Drops what the list already holds, so the pending list does not grow. */
export function settlePending(pending: readonly PendingMessage[], messages: readonly Message[]): PendingMessage[] {
  if (!pending.some((entry) => entry.sentId)) return pending as PendingMessage[]
  const ids = new Set(messages.map((message) => message.id))
  return pending.filter((entry) => !(entry.sentId && ids.has(entry.sentId)))
}

/** Whether `channel`, as the loader answered, already counts `message` (its last messages hold it, or something newer). */
function alreadyCounted(channel: Channel, message: Message) {
  if (channel.last_messages.some((known) => known.id === message.id)) return true
  return channel.last_message_at !== null && message.created_at <= channel.last_message_at
}

/**
 * The channel list with one live message applied: its channel's last messages (spec §9: 5),
 * time and unread count, and the channel moved to the top (the list is newest first). The
 * member's own messages are never unread, nor those of `readChannelId` (the channel open on a
 * visible page, which the page marks read). `null` when the channel is not in the list (a new
 * conversation): the page reloads its data instead.
 */
export function applyMessage(channels: readonly Channel[], event: ChatMessageEvent, context: { userId: string; readChannelId: string | null }): Channel[] | null {
  const index = channels.findIndex((channel) => channel.id === event.channel_id)
  if (index === -1) return null
  const channel = channels[index]!
  if (alreadyCounted(channel, event.message)) return channels as Channel[]
  const own = event.message.sender?.id === context.userId
  const unread = own || channel.id === context.readChannelId ? channel.unread_count : channel.unread_count + 1
  const updated: Channel = {
    ...channel,
    last_messages: [...channel.last_messages, event.message].sort(compareMessages).slice(-messagesPerChannelInList),
    last_message_at: event.message.created_at,
    unread_count: own ? 0 : unread,
  }
  return [updated, ...channels.slice(0, index), ...channels.slice(index + 1)]
}

/** `applyMessage` for every event in order; the events the list already counted change nothing. */
export function applyMessages(channels: readonly Channel[], events: readonly ChatMessageEvent[], context: { userId: string; readChannelId: string | null }) {
  let result = channels as Channel[]
  let unknown = false
  for (const event of events) {
    const next = applyMessage(result, event, context)
    if (next) result = next
    else unknown = true
  }
  return { channels: result, unknown }
}

/** "New message from Walter: …": the text shortened for the live region. */
export function shorten(text: string, max = 100) {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}
