import { createRoute } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import { impersonationReasonBodySchema, impersonationSchema } from '#contract/staff.ts'
import { problems } from '../http/errors.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import type { Context } from 'hono'
import type { ApiEnv } from '../http/context.ts'
import { impersonationFor, impersonationJson, startActing, startImpersonation, stopImpersonation } from './service.ts'

/** Viewing Circle 55 as a member (issue 32 §2, decision 078): start, what the banner says, acting, stop. */
export function impersonationRoutes(routes: ApiRoutes) {
  const tags = ['impersonation']
  const deps = (c: Context<ApiEnv>) => ({ db: c.var.services.db, notify: c.var.services.notify })
  /** The impersonation this call carries (`X-Impersonation`), or 404. */
  const current = (c: Context<ApiEnv>) => {
    requireCaller(c)
    const impersonation = c.var.impersonation
    if (!impersonation) throw problems.notFound('Not viewing as a member')
    return impersonation
  }
  const notViewing = '404: the call carries no impersonation (code not_found); 403: it has ended (code impersonation_ended)'

  const startRoute = createRoute({
    method: 'post',
    path: '/v1/admin/users/{id}/impersonation',
    tags,
    security: auth.required,
    summary:
      'Start viewing Circle 55 as this member, for the reason given (recorded, and told to the member when it ends): `impersonate:user`, a sign-in within 15 minutes, never a team member, oneself, a suspended member, or while already viewing as someone. It lasts 30 minutes. Further calls carry the id in `X-Impersonation`. `data` holds one item.',
    request: { params: pathParams('id'), body: jsonBody(impersonationReasonBodySchema) },
    responses: {
      200: jsonContent('The impersonation', oneOf(impersonationSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'May not (code forbidden), or signed in more than 15 minutes ago (code fresh_sign_in_required)',
        404: 'No such member (code not_found)',
        409: 'A team member, oneself or a suspended member (code impersonation_not_allowed), or already viewing as someone (code already_impersonating)',
        422: 'reason_required, reason_too_long',
      }),
    },
  })
  serve(routes, startRoute, async (c) => {
    const caller = requireCaller(c)
    const { reason } = await readJson(c, startRoute)
    const row = await startImpersonation(deps(c), caller, c.req.param('id'), reason, c.var.requestId)
    return c.json({ data: [impersonationJson(await impersonationFor(deps(c), caller, row.id))] })
  })

  const readRoute = createRoute({
    method: 'get',
    path: '/v1/impersonation',
    tags,
    security: auth.required,
    summary: 'The impersonation this call carries: whom, why, until when, viewing or acting (the banner). `data` holds one item.',
    responses: { 200: jsonContent('The impersonation', oneOf(impersonationSchema)), ...errors(auth.required, { 403: 'It has ended (code impersonation_ended)', 404: 'The call carries no impersonation (code not_found)' }) },
  })
  serve(routes, readRoute, (c) => c.json({ data: [impersonationJson(current(c))] }))

  const actingRoute = createRoute({
    method: 'post',
    path: '/v1/impersonation/acting',
    tags,
    security: auth.required,
    summary: 'Switch to acting on the member’s behalf, for the reason given (`act:as:user`, support and admins; audited). Payments, cards, email, phone, sessions, deleting the account, identity verification and sending messages stay refused. `data` holds one item.',
    request: { body: jsonBody(impersonationReasonBodySchema) },
    responses: {
      200: jsonContent('The impersonation, acting', oneOf(impersonationSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 403: 'May not act (code forbidden), or it has ended (code impersonation_ended)', 404: notViewing, 422: 'reason_required, reason_too_long' }),
    },
  })
  serve(routes, actingRoute, async (c) => {
    const impersonation = current(c)
    const { reason } = await readJson(c, actingRoute)
    const row = await startActing(c.var.services.db, impersonation, reason, c.var.requestId)
    return c.json({ data: [impersonationJson({ ...impersonation, row, mode: 'acting' })] })
  })

  const stopRoute = createRoute({
    method: 'delete',
    path: '/v1/impersonation',
    tags,
    security: auth.required,
    summary: 'Stop viewing as the member (audited); the member is told, in the app and by email, who looked, when and why. Answers 204.',
    responses: { 204: { description: 'Stopped' }, ...errors(auth.required, { 403: 'It has ended already (code impersonation_ended)', 404: notViewing }) },
  })
  serve(routes, stopRoute, async (c) => {
    await stopImpersonation(deps(c), current(c), c.var.requestId)
    return c.body(null, 204)
  })
}
