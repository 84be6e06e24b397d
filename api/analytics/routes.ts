import { createRoute } from '@hono/zod-openapi'
import { analyticsConsentBodySchema, analyticsConsentSchema } from '#contract/analytics.ts'
import { oneOf } from '#contract/common.ts'
import { requirePermission } from '../policy/permissions.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'

/**
 * The member's analytics consent (decision 081), kept on their account so that a new browser
 * remembers it too. Visitors keep theirs in the web's first-party cookie only. Staff viewing as a
 * member may not change it (api/policy/impersonation.ts).
 */
export function analyticsRoutes(routes: ApiRoutes) {
  const tags = ['analytics']

  const readRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/analytics-consent',
    tags,
    security: auth.required,
    summary: 'The member’s answer to the analytics consent choice: `granted`, `refused`, or null when they have not answered.',
    responses: { 200: jsonContent('The answer', oneOf(analyticsConsentSchema)), ...errors(auth.required) },
  })
  serve(routes, readRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [{ choice: caller.analytics_consent }] })
  })

  const saveRoute = createRoute({
    method: 'put',
    path: '/v1/users/me/analytics-consent',
    tags,
    security: auth.required,
    summary: 'Record the member’s answer to the analytics consent choice (`granted` or `refused`). Refused: nothing of theirs is sent to a vendor and their page views are counted anonymously.',
    request: { body: jsonBody(analyticsConsentBodySchema) },
    responses: {
      200: jsonContent('The answer', oneOf(analyticsConsentSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 422: 'choice_invalid' }),
    },
  })
  serve(routes, saveRoute, async (c) => {
    const caller = requireCaller(c)
    requirePermission(caller, 'update:user', { id: caller.id })
    const { choice } = await readJson(c, saveRoute)
    await c.var.services.db.updateTable('users').set({ analytics_consent: choice, updated_at: new Date() }).where('id', '=', caller.id).execute()
    return c.json({ data: [{ choice }] })
  })
}
