import { createRoute } from '@hono/zod-openapi'
import { channelSchema } from '#contract/chat.ts'
import { helpChatSchema, type HelpChat } from '#contract/help-chat.ts'
import { oneOf, pageOf, pageQuerySchema } from '#contract/common.ts'
import { supportAnswerSchema, supportConversationSchema, supportConversationWithMessagesSchema, supportMessageSchema } from '#contract/support.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { answerSupport, conversation, getSupportConversation, helpChat, listSupportConversations, markSupportDone, openSupportChannel } from './service.ts'

const notAgent = 'Not an admin who answers support (code forbidden)'
const noConversation = 'No such support conversation (code not_found)'

/** "Contact the product" and the admins' support inbox (issue 14 §1, decision 039). */
export function supportRoutes(routes: ApiRoutes) {
  const tags = ['support']

  const openRoute = createRoute({
    method: 'post',
    path: '/v1/support/message-channel',
    tags,
    security: auth.required,
    summary:
      'The caller’s conversation with Circle 55 support (a channel of kind `support`): the existing one (200) or a new one (201). ' +
      'Read and write it as any channel (`GET message-channels/{id}`, `POST v1/chat/message-channels/{id}/messages`); answers come from "Circle 55 support" (`is_system`, no sender).',
    responses: {
      200: jsonContent('The existing conversation', oneOf(channelSchema)),
      201: jsonContent('The new conversation', oneOf(channelSchema)),
      ...errors(auth.required),
    },
  })
  serve(routes, openRoute, async (c) => {
    const caller = requireCaller(c)
    const { created, body } = await openSupportChannel(c.var.services.db, c.var.services.media, caller)
    return c.json(body, created ? 201 : 200)
  })

  const helpChatRoute = createRoute({
    method: 'get',
    path: '/v1/support/help-chat',
    tags,
    security: auth.required,
    summary:
      'The Help panel and page (decision 083): the caller’s support conversation, its latest 100 messages oldest first (answers from "Circle 55 support", never naming who wrote them), without opening one; ' +
      'and `widget`, the configured vendor’s settings with the caller’s identity signed on the server (Chatwoot `identifier_hash`, Intercom JWT), or null for the built-in help chat — always null while a staff member views Circle 55 as the caller. `data` holds one item.',
    responses: {
      200: jsonContent('The conversation and the widget', oneOf(helpChatSchema)),
      ...errors(auth.required),
    },
  })
  serve(routes, helpChatRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await helpChat(c.var.services, caller, { impersonated: c.var.impersonation !== undefined })] as [HelpChat] })
  })

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/support',
    tags,
    security: auth.required,
    summary: 'Every member’s support conversation, those waiting for an answer first, then the newest (admins with `answer:support`).',
    request: { query: pageQuerySchema },
    responses: {
      200: jsonContent('A page of conversations', pageOf(supportConversationSchema)),
      ...errors(auth.required, { 403: notAgent, 422: 'Bad paging (code invalid_input)' }),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await listSupportConversations(c.var.services.db, c.var.services.media, caller, readQuery(c, listRoute)))
  })

  const getRoute = createRoute({
    method: 'get',
    path: '/v1/admin/support/{id}',
    tags,
    security: auth.required,
    summary: 'One support conversation with its latest 100 messages, oldest first (admins with `answer:support`). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The conversation', oneOf(supportConversationWithMessagesSchema)),
      ...errors(auth.required, { 403: notAgent, 404: noConversation }),
    },
  })
  serve(routes, getRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getSupportConversation(c.var.services.db, c.var.services.media, caller, c.req.param('id')))
  })

  const answerRoute = createRoute({
    method: 'post',
    path: '/v1/admin/support/{id}/messages',
    tags,
    security: auth.required,
    summary:
      'Answer as "Circle 55 support" (answers 201): the member reads it live, without the admin’s name; the conversation stops waiting (admins with `answer:support`).',
    request: { params: pathParams('id'), body: jsonBody(supportAnswerSchema) },
    responses: {
      201: jsonContent('The answer as stored', oneOf(supportMessageSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: notAgent,
        404: noConversation,
        422: 'text_required, text_too_long, invalid_characters, direction_characters',
      }),
    },
  })
  serve(routes, answerRoute, async (c) => {
    const caller = requireCaller(c)
    const db = c.var.services.db
    // The admin and the conversation are checked before the body, so a member learns nothing from a 422.
    await conversation(db, caller, c.req.param('id'))
    const input = await readJson(c, answerRoute)
    return c.json(await answerSupport(c.var.services, caller, c.req.param('id'), input), 201)
  })

  const doneRoute = createRoute({
    method: 'post',
    path: '/v1/admin/support/{id}/done',
    tags,
    security: auth.required,
    summary: 'Mark the conversation done: it stops waiting until the member writes again (admins with `answer:support`). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The conversation', oneOf(supportConversationSchema)),
      ...errors(auth.required, { 403: notAgent, 404: noConversation }),
    },
  })
  serve(routes, doneRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await markSupportDone(c.var.services.db, c.var.services.media, caller, c.req.param('id')))
  })
}
