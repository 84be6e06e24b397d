import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { oneOf } from '#contract/common.ts'
import { reportInputSchema, reportSchema } from '#contract/reports.ts'
import type { ApiEnv } from '../http/context.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { createReport } from './service.ts'

/** The spec names the path without a version (`reported-contents`); `/v1/` is served too, like the rest of the API. */
const reportPaths = ['/v1/reported-contents', '/reported-contents'] as const

function reportRoute(path: (typeof reportPaths)[number]) {
  return createRoute({
    method: 'post',
    path,
    tags: ['reports'],
    security: auth.required,
    summary:
      'Report an activity, a member, a message or a channel to the moderators (answers 201). Exactly one of `experience_id`, `user_id`, `message_id`, `channel_id`; a snapshot of it is kept with the report; `block: true` also blocks the member behind it. Unknown fields are ignored.',
    request: { body: jsonBody(reportInputSchema) },
    responses: {
      201: jsonContent('The report as recorded', oneOf(reportSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        404: 'No such activity or member, or a message or channel the caller cannot read (code not_found)',
        422: 'Invalid fields (reason_invalid, details_too_long, invalid_characters, direction_characters, target_required, target_ambiguous, cannot_report_self, nothing_to_block)',
      }),
    },
  })
}

async function postReport(c: Context<ApiEnv>, route: ReturnType<typeof reportRoute>) {
  const caller = requireCaller(c)
  const input = await readJson(c, route)
  const report = await createReport(c.var.services, caller, input)
  c.var.services.logger.info({ reportId: report.id, requestId: c.var.requestId }, 'Content reported')
  return c.json({ data: [report] }, 201)
}

export function reportRoutes(routes: ApiRoutes) {
  for (const path of reportPaths) {
    const route = reportRoute(path)
    serve(routes, route, (c) => postReport(c, route))
  }
}
