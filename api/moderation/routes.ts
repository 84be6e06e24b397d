import { createRoute } from '@hono/zod-openapi'
import { oneOf, pageOf, pageQuerySchema } from '#contract/common.ts'
import {
  moderationActionInputSchema,
  moderationReportDetailSchema,
  moderationReportSchema,
  moderationResultSchema,
} from '#contract/moderation.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { actOnReport, getReport, listOpenReports } from './service.ts'

const tags = ['moderation']
const adminOnly = 'Not an admin holding review:reports (code forbidden)'

/** The admins' report queue (issue 14 §5, decision 037). */
export function moderationRoutes(routes: ApiRoutes) {
  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/reports',
    tags,
    security: auth.required,
    summary: 'Open reports, most-reported first (by member, or by content when no member), then newest (admins only).',
    request: { query: pageQuerySchema },
    responses: {
      200: jsonContent('A page of open reports', pageOf(moderationReportSchema)),
      ...errors(auth.required, { 403: adminOnly, 422: 'Bad paging (code invalid_input)' }),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, listRoute)
    return c.json(await listOpenReports(c.var.services.db, caller, query))
  })

  const getRoute = createRoute({
    method: 'get',
    path: '/v1/admin/reports/{id}',
    tags,
    security: auth.required,
    summary: 'One report with its snapshot and the reported member’s history (admins only). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The report', oneOf(moderationReportDetailSchema)),
      ...errors(auth.required, { 403: adminOnly, 404: 'No such report (code not_found)' }),
    },
  })
  serve(routes, getRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await getReport(c.var.services.db, caller, c.req.param('id'))] })
  })

  const actionRoute = createRoute({
    method: 'post',
    path: '/v1/admin/reports/{id}/actions',
    tags,
    security: auth.required,
    summary:
      'Act on an open report with a reason (admins only): `dismiss`, `remove_message`, `warn` (a product message to the member), `suspend` (until `suspended_until`) or `ban`. Resolves the report (and, except for dismiss, the other open reports about the same message or member), records the audit log and tells each reporter it was handled.',
    request: { params: pathParams('id'), body: jsonBody(moderationActionInputSchema) },
    responses: {
      200: jsonContent('What was done', oneOf(moderationResultSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: adminOnly,
        404: 'No such report (code not_found)',
        409: 'Already handled (code report_resolved)',
        422: 'Invalid fields (action_invalid, reason_required, reason_too_long, invalid_characters, direction_characters, suspended_until_invalid, suspended_until_required, suspended_until_past, no_message, no_member, cannot_act_on_self)',
      }),
    },
  })
  serve(routes, actionRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, actionRoute)
    const result = await actOnReport(c.var.services, caller, c.req.param('id'), input, { requestId: c.var.requestId })
    c.var.services.logger.info({ reportId: c.req.param('id'), outcome: result.outcome, requestId: c.var.requestId }, 'Report handled')
    return c.json({ data: [result] })
  })
}
