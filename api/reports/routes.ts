import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { ApiEnv } from '../app.ts'
import { reportReasons } from '../db/schema.ts'
import type { OpenApiRegistry } from '../http/openapi.ts'
import { parseJson, requireCaller } from '../http/request.ts'
import { createReport, reportInputSchema } from './service.ts'

const reportList = z.object({
  data: z.array(z.object({ id: z.string(), reason: z.enum(reportReasons), created_at: z.string() })),
})

async function postReport(c: Context<ApiEnv>) {
  const caller = requireCaller(c)
  const input = await parseJson(c, reportInputSchema)
  const report = await createReport(c.var.services.db, caller, input)
  c.var.services.logger.info({ reportId: report.id, requestId: c.var.requestId }, 'Content reported')
  return c.json({ data: [report] }, 201)
}

export function reportRoutes(app: Hono<ApiEnv>, registry: OpenApiRegistry) {
  // The spec names the path without a version (`reported-contents`); `/v1/` is served too, like the rest of the API.
  for (const path of ['/v1/reported-contents', '/reported-contents']) {
    registry.add({
      method: 'post',
      path,
      tag: 'reports',
      auth: 'required',
      summary:
        'Report an activity, a member or a message to the moderators (answers 201). At least one of `experience_id`, `user_id`, `message_id`; unknown fields are ignored.',
      body: reportInputSchema,
      response: reportList,
      errors: {
        400: 'The body is not JSON (code invalid_json)',
        422: 'Invalid fields (reason_invalid, details_too_long, invalid_characters, direction_characters, target_required, cannot_report_self)',
        404: 'No such activity, member or message',
      },
    })
    app.post(path, postReport)
  }
}
