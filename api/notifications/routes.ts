import { createRoute } from '@hono/zod-openapi'
import { oneOf, pageOf } from '#contract/common.ts'
import { notificationSchema, notificationsQuerySchema } from '#contract/notifications.ts'
import { auth, errors, jsonContent, pathParams, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { listNotifications, markAllNotificationsSeen, markNotificationSeen } from './inbox.ts'

/**
 * The member's in-app notifications (issue 15 §3, spec §7 `GET users/notifications`, decision
 * 043). Registered before `GET /users/{id}`, which would otherwise take `notifications` for a member's id.
 */
export function notificationRoutes(routes: ApiRoutes) {
  const tags = ['notifications']

  const listRoute = createRoute({
    method: 'get',
    path: '/users/notifications',
    tags,
    security: auth.required,
    summary:
      'The caller’s notifications, newest first, each with its title and body in the caller’s language and the web page it leads to. ' +
      '`seen_at=null`: unread only; `exclude_results=true`: metadata only, so `users/notifications?seen_at=null&exclude_results=true` answers the unread total in `metadata.total_count`.',
    request: { query: notificationsQuerySchema },
    responses: {
      200: jsonContent('A page of notifications', pageOf(notificationSchema)),
      ...errors(auth.required, { 422: 'page_invalid, per_page_invalid, seen_at_invalid, exclude_results_invalid' }),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await listNotifications(c.var.services.db, caller, readQuery(c, listRoute)))
  })

  // Registered before `{id}/seen` so that `seen` is never read as an id.
  const allSeenRoute = createRoute({
    method: 'put',
    path: '/users/notifications/seen',
    tags,
    security: auth.required,
    summary: 'Mark every notification of the caller read (answers 204). Idempotent.',
    responses: {
      204: { description: 'Every notification is read' },
      ...errors(auth.required),
    },
  })
  serve(routes, allSeenRoute, async (c) => {
    const caller = requireCaller(c)
    await markAllNotificationsSeen(c.var.services.db, caller)
    return c.body(null, 204)
  })

  const seenRoute = createRoute({
    method: 'put',
    path: '/users/notifications/{id}/seen',
    tags,
    security: auth.required,
    summary: 'Mark one of the caller’s notifications read (when it was first seen is kept). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The notification', oneOf(notificationSchema)),
      ...errors(auth.required, { 404: 'No such notification of the caller’s (code not_found)' }),
    },
  })
  serve(routes, seenRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await markNotificationSeen(c.var.services.db, caller, c.req.param('id'))] as [typeof notificationSchema._output] })
  })
}
