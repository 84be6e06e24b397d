import { z } from 'zod'
import { memberText, memberTextCodes, queryInteger } from './input-validation.ts'
import { defaultMessagesPerPage, maxMemberSearchLength, maxMessageLength, maxMessagesPerPage } from './limits.ts'
import { excludeResultsParameter, pageMetadataSchema, pageQuerySchema } from './common.ts'

/**
 * Chat (issue 14 §1, spec §3 "Message channel", §7, decision 029): activity channels and direct
 * messages of the built-in chat service. Never contact details, birth dates or coordinates: a
 * member appears as their public card (id, slug, display name, photo).
 */

const nullableString = z.string().nullable()

/** Spec §3: an activity's channel, or a direct one between two members; `support`: a member's conversation with Circle 55 support (decision 039). */
export const channelKinds = ['experience', 'direct', 'support'] as const

/** A member as chat shows them; `display_name` null is the generic member label (suspended, banned, deleted). */
export const chatMemberSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    display_name: nullableString.meta({ description: 'Spec §3 display-name rule; null shows as the generic member label.' }),
    avatar: z.object({ url: z.string() }).nullable(),
  })
  .meta({ id: 'ChatMember' })
export type ChatMember = z.infer<typeof chatMemberSchema>

/** The activity an activity channel belongs to. */
export const chatExperienceSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    start_at: nullableString,
    end_at: nullableString,
    is_canceled: z.boolean(),
  })
  .meta({ id: 'ChatExperience' })

/** One message: from a member, or from the product (`is_system`, `sender` null), which cannot be replied to in a product-only channel. */
export const messageSchema = z
  .object({
    id: z.string(),
    channel_id: z.string(),
    sender: chatMemberSchema.nullable().meta({ description: 'Null for a message from the product.' }),
    is_system: z.boolean(),
    body: z.string().meta({ description: 'Plain text; clients show links as text with a safe link, never HTML.' }),
    created_at: z.string(),
  })
  .meta({ id: 'Message' })
export type Message = z.infer<typeof messageSchema>

/** Why the caller cannot write in a channel (null when they can). */
export const writeBlocks = [
  /** Not (or no longer) an attendee or the host of the activity. */
  'not_participant',
  /** The activity ended more than 7 days ago. */
  'chat_closed',
  /** The sender of a message request has sent 2 messages and waits for the recipient to accept. */
  'awaiting_acceptance',
  /** One of the two blocked the other. */
  'blocked',
  /** The other member is suspended, banned or deleted. */
  'recipient_unavailable',
  /** Messages from the product: nobody to reply to. */
  'product_messages',
] as const
export type WriteBlock = (typeof writeBlocks)[number]

export const channelSchema = z
  .object({
    id: z.string(),
    kind: z.enum(channelKinds),
    experience: chatExperienceSchema.nullable().meta({ description: 'The activity of an activity channel; null for a direct one.' }),
    other_member: chatMemberSchema.nullable().meta({ description: 'The other member of a direct channel; null for an activity channel or a product-only one.' }),
    is_accepted: z.boolean().meta({ description: 'The caller accepted this channel (a message request starts false for its recipient).' }),
    is_awaiting_acceptance: z
      .boolean()
      .meta({ description: 'The caller started this direct channel and the other member has not accepted yet ("waiting for X to accept").' }),
    can_write: z.boolean(),
    cannot_write_reason: z.enum(writeBlocks).nullable(),
    unread_count: z.number().int().min(0),
    last_messages: z.array(messageSchema).meta({ description: 'The last 5 messages (spec §9), oldest first.' }),
    last_message_at: nullableString,
  })
  .meta({ id: 'MessageChannel' })
export type Channel = z.infer<typeof channelSchema>

/** `GET message-channels/{id}`: the channel and a page of its messages, oldest first. */
export const channelWithMessagesSchema = channelSchema
  .extend({
    messages: z.array(messageSchema).meta({ description: 'A page of messages, oldest first: the newest page, or the page before `before`.' }),
    older_cursor: nullableString.meta({ description: 'Pass as `before` to load older messages; null when there are none.' }),
    hidden_count: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Messages in this activity chat from members the caller blocked (decision 034): hidden unless `show_blocked=true`.' }),
    blocked_message_ids: z
      .array(z.string())
      .meta({ description: 'With `show_blocked=true`: the messages of this page that come from members the caller blocked (mark them); otherwise empty.' }),
  })
  .meta({ id: 'MessageChannelWithMessages' })
export type ChannelWithMessages = z.infer<typeof channelWithMessagesSchema>

/** `GET message-channels/{id}`: `before` (a message id) pages back; `limit` messages a page. */
export const channelMessagesQuerySchema = z.object({
  before: z.uuid({ error: 'before_invalid' }).optional().meta({ description: 'A message id: answer the messages before it.' }),
  limit: queryInteger('limit_invalid', (limit) => limit.min(1, 'limit_invalid'))
    .transform((limit) => Math.min(limit, maxMessagesPerPage))
    .default(defaultMessagesPerPage)
    .meta({ type: 'integer', minimum: 1, maximum: maxMessagesPerPage, default: defaultMessagesPerPage }),
  show_blocked: z
    .enum(['true', 'false'], { error: 'show_blocked_invalid' })
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: 'Also answer the messages from members the caller blocked (hidden by default, decision 034).' }),
})
export type ChannelMessagesQuery = z.infer<typeof channelMessagesQuerySchema>

/** `GET v1/chat/message-channels`: a page of the caller's channels, newest first, with the unread total. */
export const channelListSchema = z
  .object({
    data: z.array(channelSchema),
    metadata: pageMetadataSchema.extend({
      total_unread: z.number().int().min(0).meta({ description: 'Unread messages over all the caller’s channels (badge: up to 9, then "9+").' }),
    }),
  })
  .meta({ id: 'MessageChannelList' })
export const channelListQuerySchema = pageQuerySchema.extend({
  exclude_results: excludeResultsParameter.meta({
    description: '`true`: answer the metadata only (`data` empty): `metadata.total_unread` is the Messages badge.',
  }),
})
export type ChannelListQuery = z.infer<typeof channelListQuerySchema>

/** `GET message-channels/{id}/users`: a member of the channel. */
export const channelUserSchema = chatMemberSchema
  .extend({
    is_host: z.boolean(),
    is_accepted: z.boolean(),
  })
  .meta({ id: 'MessageChannelUser' })
export const channelUsersQuerySchema = z.object({
  user_id: z.uuid({ error: 'user_id_invalid' }).optional().meta({ description: 'Only this member (empty when they are not in the channel).' }),
})

/** `POST users/message-channels`: the member to write to. Unknown fields are ignored. */
export const directChannelInputSchema = z.object({
  user_id: z.uuid({ error: 'user_id_invalid' }),
})
export type DirectChannelInput = z.infer<typeof directChannelInputSchema>

/** `POST v1/chat/message-channels/{id}/messages`: the text, 1 to 2,000 characters once trimmed, line breaks kept. */
export const sendMessageSchema = z.object({
  text: memberText(z.string({ error: 'text_required' }).trim(), memberTextCodes, { multiline: true })
    .min(1, 'text_required')
    .max(maxMessageLength, 'text_too_long'),
  acknowledge_contact_reminder: z
    .boolean({ error: 'acknowledge_contact_reminder_invalid' })
    .optional()
    .meta({
      description:
        'The member saw the one-time reminder (409 `contact_reminder`) and sends their phone number or email anyway; it is then recorded as seen (decision 038).',
    }),
})
export type SendMessageInput = z.infer<typeof sendMessageSchema>

// Realtime (decision 032) ---------------------------------------------------------------------------

/** How many live streams one member may hold open on one instance (tabs, devices). */
export const maxChatStreamsPerMember = 10

/**
 * `GET v1/chat/events`: `once=true` answers what is pending (what came after `Last-Event-ID`
 * and the unread total) and ends the stream: a poll, for clients that cannot hold a stream open.
 */
export const chatEventsQuerySchema = z.object({
  once: z
    .enum(['true', 'false'], { error: 'once_invalid' })
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: 'End the stream once what is pending is sent.' }),
})

/** `Last-Event-ID` as the stream set it: a message's `seq`. Anything else starts afresh. */
export const lastEventIdSchema = z.string().regex(/^\d{1,15}$/).transform(Number)

/** The data of an `event: message`; its `id:` is `seq`. */
export const chatMessageEventSchema = z
  .object({
    channel_id: z.uuid(),
    message_id: z.uuid(),
    seq: z.number().int().min(1).meta({ description: 'The event id: grows in commit order, for every reader.' }),
    message: messageSchema,
  })
  .meta({ id: 'ChatMessageEvent' })
export type ChatMessageEvent = z.infer<typeof chatMessageEventSchema>

/** The data of an `event: unread`: the header badge's count. */
export const chatUnreadEventSchema = z
  .object({ total_unread: z.number().int().min(0) })
  .meta({ id: 'ChatUnreadEvent' })
export type ChatUnreadEvent = z.infer<typeof chatUnreadEventSchema>

// New-message search (issue 14 §1, spec §7 `GET v1/chat/users`, decision 034) ---------------------

/** `GET v1/chat/users`: `name` narrows the list to first names starting with it (accents and case ignored). */
export const chatUsersQuerySchema = pageQuerySchema.extend({
  name: z
    .string()
    .trim()
    .max(maxMemberSearchLength, 'name_too_long')
    .optional()
    .meta({ description: 'First name starts with this (accents and case ignored).' }),
})
export type ChatUsersQuery = z.infer<typeof chatUsersQuerySchema>

/** A member the searcher may write to, as chat shows them. */
export const chatUserSchema = chatMemberSchema
  .extend({
    has_met: z.boolean().meta({ description: 'The searcher shares an activity or a conversation with them (listed first).' }),
    is_blocked: z.boolean().meta({ description: 'The searcher blocked them (listed only when the searcher chose `show_blocked_in_chat_search`).' }),
  })
  .meta({ id: 'ChatUser' })
export type ChatUser = z.infer<typeof chatUserSchema>
