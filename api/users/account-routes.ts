import { createRoute } from '@hono/zod-openapi'
import { emailChangeConfirmSchema, emailChangeSchema, emailChangeStartedSchema, pendingEmailChangeSchema } from '#contract/account.ts'
import { oneOf } from '#contract/common.ts'
import { userSchema } from '#contract/users.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { signOutEverywhere } from './account.ts'
import { confirmEmailChange, getPendingEmailChange, startEmailChange } from './email-change.ts'
import { ownUserJson } from './service.ts'

/** The member's own account (issue 13 §4, decision 028): email change and signing out everywhere. */
export function accountRoutes(routes: ApiRoutes) {
  const tags = ['users']
  const auth0 = 'The sign-in address is kept by Auth0 (code email_change_unavailable)'

  const startRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/email-change',
    tags,
    security: auth.required,
    summary:
      'Start changing the sign-in email: a 6-digit code (10 minutes, 5 attempts) goes to the new address. An address that belongs to another account gets the same answer, no code, and its owner is told.',
    request: { body: jsonBody(emailChangeSchema) },
    responses: {
      202: jsonContent('A code was sent to the new address', emailChangeStartedSchema),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        409: auth0,
        422: 'Invalid address (email_invalid, required, same_email)',
        429: 'Too many codes for this member or this address (code too_many_attempts)',
        503: 'The email could not be sent (code email_not_sent), or the database is unavailable (code service_unavailable)',
      }),
    },
  })
  serve(routes, startRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, startRoute)
    return c.json(await startEmailChange(c.var.services, caller, input), 202)
  })

  const pendingRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/email-change',
    tags,
    security: auth.required,
    summary: 'The email change waiting for its code: where the code went and until when it works.',
    responses: {
      200: jsonContent('The change waiting for its code', pendingEmailChangeSchema),
      ...errors(auth.required, { 404: 'No change is waiting, or its code expired or was used up (code not_found)' }),
    },
  })
  serve(routes, pendingRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getPendingEmailChange(c.var.services.db, caller))
  })

  const confirmRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/email-change/confirm',
    tags,
    security: auth.required,
    summary: 'Finish changing the sign-in email with the code sent to the new address; the old address is told. Other sessions stay.',
    request: { body: jsonBody(emailChangeConfirmSchema) },
    responses: {
      200: jsonContent('The member with the new address', oneOf(userSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        409: `${auth0}; or the address now belongs to another account (code email_taken)`,
        422: 'Wrong code (code_invalid), or none waiting, used up or expired (code_expired)',
        429: 'Too many attempts for this member (code too_many_attempts)',
      }),
    },
  })
  serve(routes, confirmRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, confirmRoute)
    const updated = await confirmEmailChange(c.var.services, caller, input)
    return c.json({ data: [await ownUserJson(c.var.services, updated)] })
  })

  const sessionsRoute = createRoute({
    method: 'delete',
    path: '/v1/users/me/sessions',
    tags,
    security: auth.required,
    summary: "Sign out everywhere: ends every web session of the member and the identity provider's sessions, grants and refresh tokens.",
    responses: {
      204: { description: 'Every session ended' },
      ...errors(auth.required),
    },
  })
  serve(routes, sessionsRoute, async (c) => {
    const caller = requireCaller(c)
    await signOutEverywhere(c.var.services.db, caller, c.var.requestId)
    return c.body(null, 204)
  })
}
