import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import {
  chatEventsQuerySchema,
  chatMessageEventSchema,
  chatUnreadEventSchema,
  channelListQuerySchema,
  channelListSchema,
  channelMessagesQuerySchema,
  channelSchema,
  channelUserSchema,
  channelUsersQuerySchema,
  channelWithMessagesSchema,
  chatUserSchema,
  chatUsersQuerySchema,
  directChannelInputSchema,
  maxChatStreamsPerMember,
  messageSchema,
  sendMessageSchema,
} from '#contract/chat.ts'
import { listOf, oneOf, pageOf } from '#contract/common.ts'
import { messagesPerChannelPerMinute, messagesPerHour, messagesPerMinute, newConversationsPerDay } from '#contract/limits.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import {
  acceptChannel,
  channelUsers,
  experienceChannels,
  getChannel,
  joinExperienceChannel,
  leaveChannel,
  listChannels,
  markRead,
  openDirectChannel,
  searchChatUsers,
  sendMessage,
} from './service.ts'
import { openChatEvents } from './stream.ts'

const notReadable = 'An activity’s chat the caller does not take part in (code forbidden)'
const noChannel = 'No such channel, or a direct one the caller is not in (code not_found)'

/** Activity chats and direct messages of the built-in chat service (issue 14 §1, decision 029). */
export function chatRoutes(routes: ApiRoutes) {
  const tags = ['chat']

  const joinRoute = createRoute({
    method: 'put',
    path: '/experiences/{id}/message-channels/join',
    tags,
    security: auth.required,
    summary:
      'Join the activity’s chat (made with the activity, its host in it; for an older one, on first use): its attendees, and its host without attending. Idempotent; joining again brings it back into one’s list.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The activity’s channel', oneOf(channelSchema)),
      ...errors(auth.required, { 403: 'Not an attendee or the host (code forbidden)', 404: 'No such activity (code not_found)' }),
    },
  })
  serve(routes, joinRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await joinExperienceChannel(c.var.services, caller, c.req.param('id')))
  })

  const experienceChannelsRoute = createRoute({
    method: 'get',
    path: '/experiences/{id}/message-channels',
    tags,
    security: auth.required,
    summary:
      'The activity’s chat, for its attendees and host (and a former attendee, up to when they left); empty when it has none (an activity without a host, or one that ended before activities were made with their chat, until someone joins).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The activity’s channels (none or one)', listOf(channelSchema)),
      ...errors(auth.required, { 403: notReadable, 404: 'No such activity (code not_found)' }),
    },
  })
  serve(routes, experienceChannelsRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await experienceChannels(c.var.services.db, c.var.services.media, caller, c.req.param('id')))
  })

  const directRoute = createRoute({
    method: 'post',
    path: '/users/message-channels',
    tags,
    security: auth.required,
    summary:
      'The direct channel with another member: the existing one (200) or a new one (201), where the recipient’s membership starts not accepted (a message request).',
    request: { body: jsonBody(directChannelInputSchema) },
    responses: {
      200: jsonContent('The existing channel', oneOf(channelSchema)),
      201: jsonContent('The new channel', oneOf(channelSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'The member is suspended or banned (code recipient_suspended), or the caller blocked them (code blocked)',
        404: 'No such member, a deleted one, or one who blocked the caller (code not_found)',
        409: 'The caller themself (code cannot_message_self)',
        422: 'user_id_invalid',
        429: `A new channel, and a new or unverified caller already started ${newConversationsPerDay} conversations in the last 24 hours (code new_conversations_limit, decision 038)`,
      }),
    },
  })
  serve(routes, directRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, directRoute)
    const { created, body } = await openDirectChannel(c.var.services, caller, input)
    return c.json(body, created ? 201 : 200)
  })

  const leaveRoute = createRoute({
    method: 'delete',
    path: '/users/message-channels/{id}/leave',
    tags,
    security: auth.required,
    summary: 'Leave a channel: it leaves the caller’s list (a direct one comes back when a new message arrives). Answers 204.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Left' },
      ...errors(auth.required, { 403: notReadable, 404: `${noChannel}; or the caller is not a member` }),
    },
  })
  serve(routes, leaveRoute, async (c) => {
    const caller = requireCaller(c)
    await leaveChannel(c.var.services, caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const channelRoute = createRoute({
    method: 'get',
    path: '/message-channels/{id}',
    tags,
    security: auth.required,
    summary: 'A channel and a page of its messages, oldest first: the newest page, or with `before` the page before that message ("load older").',
    request: { params: pathParams('id'), query: channelMessagesQuerySchema },
    responses: {
      200: jsonContent('The channel with messages', oneOf(channelWithMessagesSchema)),
      ...errors(auth.required, { 403: notReadable, 404: noChannel, 422: 'before_invalid, limit_invalid' }),
    },
  })
  serve(routes, channelRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getChannel(c.var.services.db, c.var.services.media, caller, c.req.param('id'), readQuery(c, channelRoute)))
  })

  const usersRoute = createRoute({
    method: 'get',
    path: '/message-channels/{id}/users',
    tags,
    security: auth.required,
    summary: 'Who is in the channel (never suspended, banned or deleted members); `user_id` narrows it to one member.',
    request: { params: pathParams('id'), query: channelUsersQuerySchema },
    responses: {
      200: jsonContent('The channel’s members', listOf(channelUserSchema)),
      ...errors(auth.required, { 403: notReadable, 404: noChannel, 422: 'user_id_invalid' }),
    },
  })
  serve(routes, usersRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, usersRoute)
    return c.json(await channelUsers(c.var.services.db, c.var.services.media, caller, c.req.param('id'), query.user_id))
  })

  const acceptRoute = createRoute({
    method: 'post',
    path: '/v1/chat/message-channels/{id}/accept',
    tags,
    security: auth.required,
    summary: 'Accept a message request (idempotent): the sender may then write freely.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The channel', oneOf(channelSchema)),
      ...errors(auth.required, { 403: notReadable, 404: `${noChannel}; or the caller is not a member` }),
    },
  })
  serve(routes, acceptRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await acceptChannel(c.var.services.db, c.var.services.media, caller, c.req.param('id')))
  })

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/chat/message-channels',
    tags,
    security: auth.required,
    summary: 'The caller’s channels, newest first, each with its last 5 messages and unread count; `metadata.total_unread` over all of them.',
    request: { query: channelListQuerySchema },
    responses: {
      200: jsonContent('A page of channels', channelListSchema),
      ...errors(auth.required, { 422: 'page_invalid, per_page_invalid' }),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await listChannels(c.var.services.db, c.var.services.media, caller, readQuery(c, listRoute)))
  })

  const sendRoute = createRoute({
    method: 'post',
    path: '/v1/chat/message-channels/{id}/messages',
    tags,
    security: auth.required,
    summary: 'Send a message (answers 201). Sending accepts a request one received. The scam shield’s limits apply to direct channels (decision 038).',
    request: { params: pathParams('id'), body: jsonBody(sendMessageSchema) },
    responses: {
      201: jsonContent('The message as stored', oneOf(messageSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: `${notReadable}; a recipient who is suspended, banned or deleted (code recipient_suspended); a blocked pair (code blocked)`,
        404: noChannel,
        409:
          'The activity’s chat closed (code chat_closed); 2 messages sent before the recipient accepted (code awaiting_acceptance); messages from the product (code product_messages); a phone number or email in a direct channel the other member has not accepted yet, before the member saw the one-time reminder: send again with `acknowledge_contact_reminder: true` (code contact_reminder)',
        422: 'text_required, text_too_long, invalid_characters, direction_characters, acknowledge_contact_reminder_invalid; links_not_allowed_yet (a new or unverified member’s link in a direct channel the other member has not accepted yet); links_not_allowed_until_reply (the same, in a conversation an attendee opened with their activity’s host, until the host writes: decision 060)',
        429: `More than ${messagesPerMinute} messages a minute or ${messagesPerHour} an hour from the member, or ${messagesPerChannelPerMinute} a minute in this channel (code too_many_messages); refused sends count too`,
      }),
    },
  })
  serve(routes, sendRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, sendRoute)
    return c.json(await sendMessage(c.var.services, caller, c.req.param('id'), input), 201)
  })

  const readRoute = createRoute({
    method: 'post',
    path: '/v1/chat/message-channels/{id}/read',
    tags,
    security: auth.required,
    summary: 'Mark everything in the channel read (answers 204).',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Read' },
      ...errors(auth.required, { 403: notReadable, 404: noChannel }),
    },
  })
  serve(routes, readRoute, async (c) => {
    const caller = requireCaller(c)
    await markRead(c.var.services.db, caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const eventsRoute = createRoute({
    method: 'get',
    path: '/v1/chat/events',
    tags,
    security: auth.required,
    summary: 'The caller’s live chat: Server-Sent Events of new messages they may read and their unread total (decision 032).',
    description: [
      'A `text/event-stream` that stays open. Events:',
      '- `ready` first (`id:` the stream’s position), data `{ "seq" }`;',
      '- `message` (`id:` the message’s `seq`), data `ChatMessageEvent`: `channel_id`, `message_id`, `seq` and the message exactly as `GET message-channels/{id}` shows it;',
      '- `unread` (no id) after each batch of messages, data `ChatUnreadEvent`: `total_unread` over the caller’s channels;',
      '- `resync` (`id:` the newest position): too much was missed to replay; reload the channels.',
      'A comment line (`: ping`) every 25 s. Reconnecting with `Last-Event-ID` replays, without loss or duplicates, every readable message after that id.',
      'The stream ends after 10 minutes, or when the client stops reading (256 KB waiting): reconnect with `Last-Event-ID`.',
    ].join('\n'),
    request: {
      query: chatEventsQuerySchema,
      headers: z.object({ 'last-event-id': z.string().optional().meta({ description: 'The last event id received: replay what came after it.' }) }),
    },
    responses: {
      200: {
        description: 'The event stream',
        // The events' data schemas, named where the route documents its stream (registering them
        // apart needs zod-to-openapi's own zod extension, which the contract's zod does not carry).
        content: {
          'text/event-stream': {
            schema: z.union([chatMessageEventSchema, chatUnreadEventSchema]).meta({ description: 'Server-Sent Events; the `data` of each is JSON, one of these.' }),
          },
        },
      },
      ...errors(auth.required, {
        422: 'once_invalid',
        429: `More than ${maxChatStreamsPerMember} streams open at once on this server (code too_many_streams)`,
        503: 'The database is unavailable, or live updates are not available on this server (code service_unavailable)',
      }),
    },
  })
  serve(routes, eventsRoute, (c) => {
    const caller = requireCaller(c)
    const { once } = readQuery(c, eventsRoute)
    const stream = openChatEvents(c.var.services, caller, { lastEventId: c.req.header('last-event-id'), once })
    return new Response(stream, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        // no-transform: no compression (it would hold events back until a buffer fills).
        'cache-control': 'no-store, no-transform',
        // nginx and similar proxies: pass each event on at once.
        'x-accel-buffering': 'no',
      },
    })
  })

  const chatUsersRoute = createRoute({
    method: 'get',
    path: '/v1/chat/users',
    tags,
    security: auth.required,
    summary:
      'New-message search: members the caller met (a shared activity or a conversation) first, then others Members shows them. Never members who blocked the caller, nor suspended, banned or deleted ones; members the caller blocked only when they chose `show_blocked_in_chat_search`. `name` narrows by first name.',
    request: { query: chatUsersQuerySchema },
    responses: {
      200: jsonContent('A page of members', pageOf(chatUserSchema)),
      ...errors(auth.required, { 422: 'name_too_long, page_invalid, per_page_invalid' }),
    },
  })
  serve(routes, chatUsersRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await searchChatUsers(c.var.services.db, c.var.services.media, caller, readQuery(c, chatUsersRoute)))
  })
}
