import type { Context, Hono } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import type { ApiEnv } from '../app.ts'
import { memberText, memberTextCodes } from '../../app/utils/input-validation.ts'
import { reportReasons } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import type { OpenApiRegistry } from '../http/openapi.ts'
import { parseJson, requireCaller } from '../http/request.ts'

/** Spec: free-text details of a report, at most this long. */
export const MAX_DETAILS_LENGTH = 2000

const optionalId = (code: string) => z.uuid({ error: code }).nullish()

/** Spec §7 `POST reported-contents`: a reason, free-text details and what is reported. Unknown fields are ignored. */
export const reportInputSchema = z.object({
  reason: z.enum(reportReasons, { error: 'reason_invalid' }),
  details: memberText(z.string({ error: 'details_invalid' }).trim(), memberTextCodes, { multiline: true })
    .max(MAX_DETAILS_LENGTH, 'details_too_long')
    .nullish(),
  experience_id: optionalId('experience_id_invalid'),
  user_id: optionalId('user_id_invalid'),
  message_id: optionalId('message_id_invalid'),
})

const reportList = z.object({
  data: z.array(z.object({ id: z.string(), reason: z.enum(reportReasons), created_at: z.string() })),
})

async function createReport(c: Context<ApiEnv>) {
  const caller = requireCaller(c)
  const input = await parseJson(c, reportInputSchema)
  if (!input.experience_id && !input.user_id && !input.message_id) throw problems.invalid({ target: ['target_required'] })
  if (input.user_id === caller.id) throw problems.invalid({ user_id: ['cannot_report_self'] })
  const { db } = c.var.services

  if (input.experience_id) {
    const experience = await db.selectFrom('experiences').select('id').where('id', '=', input.experience_id).executeTakeFirst()
    if (!experience) throw problems.notFound('Activity not found')
  }
  if (input.user_id) {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', input.user_id)
      .where('state', '<>', 'deleted')
      .executeTakeFirst()
    if (!user) throw problems.notFound('User not found')
  }
  if (input.message_id) {
    const message = await sql<{ id: string }>`select id from messages where id = ${input.message_id} and deleted_at is null`.execute(db)
    if (message.rows.length === 0) throw problems.notFound('Message not found')
  }

  const report = await db
    .insertInto('reports')
    .values({
      reporter_id: caller.id,
      reason: input.reason,
      details: input.details ?? '',
      experience_id: input.experience_id ?? null,
      reported_user_id: input.user_id ?? null,
      message_id: input.message_id ?? null,
    })
    .returning(['id', 'reason', 'created_at'])
    .executeTakeFirstOrThrow()
  c.var.services.logger.info({ reportId: report.id, requestId: c.var.requestId }, 'Content reported')
  return c.json({ data: [{ id: report.id, reason: report.reason, created_at: report.created_at.toISOString() }] }, 201)
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
    app.post(path, createReport)
  }
}
