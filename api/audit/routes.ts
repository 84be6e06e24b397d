import { createRoute } from '@hono/zod-openapi'
import { auditLogPageSchema, auditLogQuerySchema } from '#contract/audit.ts'
import { auth, errors, jsonContent, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { auditLog } from './service.ts'

/** The team's audit log (issue 32 §2, decision 089): who did what, as whom. */
export function auditRoutes(routes: ApiRoutes) {
  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/audit-log',
    tags: ['staff'],
    security: auth.required,
    summary:
      'The audit log, newest first, 50 rows a page (`read:audit`, admins): who did what, as whom (while viewing Circle 55 as a member), to what, with the row’s details. Filter by team member, member and kind; `metadata.next_before` is the next page’s `before`.',
    request: { query: auditLogQuerySchema },
    responses: {
      200: jsonContent('A page of the audit log', auditLogPageSchema),
      ...errors(auth.required, { 403: 'Not an admin (code forbidden)', 422: 'staff_invalid, member_invalid, kind_invalid, before_invalid' }),
    },
  })
  serve(routes, listRoute, async (c) => c.json(await auditLog(c.var.services.db, requireCaller(c), () => readQuery(c, listRoute))))
}
