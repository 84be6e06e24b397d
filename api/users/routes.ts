import { createRoute } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import { meQuerySchema, signInSchema, updateMeSchema, userSchema } from '#contract/users.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { verificationDeps } from '../verification/deps.ts'
import { forgetVerificationPhotos } from '../verification/service.ts'
import { paymentsDeps } from '../payments/deps.ts'
import { forgetCards } from '../payments/service.ts'
import { stopSubscriptions } from '../subscriptions/service.ts'
import { deleteAccount, ownUserJson, recordSignIn, updateMe } from './service.ts'
import { trackFrom } from '../analytics/service.ts'

export function userRoutes(routes: ApiRoutes) {
  const tags = ['users']

  const meRoute = createRoute({
    method: 'get',
    path: '/v1/users/me',
    tags,
    security: auth.required,
    summary: 'The signed-in member; `data` holds one item. `include=badges` adds the unread messages and notifications (every page’s header).',
    request: { query: meQuerySchema },
    responses: {
      200: jsonContent('The signed-in member', oneOf(userSchema)),
      ...errors(auth.required, { 422: 'include_invalid' }),
    },
  })
  serve(routes, meRoute, async (c) => {
    const caller = requireCaller(c)
    const { include } = readQuery(c, meRoute)
    return c.json({ data: [await ownUserJson(c.var.services, caller, { badges: include === 'badges', shell: c.var.callerShell })] })
  })

  const updateMeRoute = createRoute({
    method: 'put',
    path: '/v1/users/me',
    tags,
    security: auth.required,
    summary: 'Update the signed-in member. Unknown fields are ignored.',
    request: { body: jsonBody(updateMeSchema) },
    responses: {
      200: jsonContent('The member as changed', oneOf(userSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        422: 'Invalid fields (for example invalid_phone, required, too_long, invalid_characters, direction_characters, too_many_interests, duplicate_interest, too_many_prompts, duplicate_prompt); an unknown home city (code unknown_place)',
      }),
    },
  })
  serve(routes, updateMeRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, updateMeRoute)
    const updated = await updateMe(c.var.services.db, caller, input, c.var.services.places)
    // Basic info saved for the first time: the account is made (decision 081); then each onboarding step reached.
    if (input.onboarded && caller.onboarded_at === null) await trackFrom(c, 'signup_completed', {})
    if (updated.onboarding_step !== null && updated.onboarding_step !== caller.onboarding_step) await trackFrom(c, 'onboarding_step', { step: updated.onboarding_step })
    return c.json({ data: [await ownUserJson(c.var.services, updated)] })
  })

  const signInRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/sign-ins',
    tags,
    security: auth.required,
    summary: 'Record that the member has just signed in (once per new web session). `data` holds one item: the sign-in before it, and whether to greet the member back after a long absence.',
    responses: {
      200: jsonContent('The sign-in before this one', oneOf(signInSchema)),
      ...errors(auth.required),
    },
  })
  serve(routes, signInRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await recordSignIn(c.var.services.db, caller)] })
  })

  const deleteAccountRoute = createRoute({
    method: 'delete',
    path: '/v1/users/{id}',
    tags,
    security: auth.required,
    summary:
      "Delete the member's own account: hosted activities that have not started are canceled (attendees told), seats given back (the notify list offered them), personal data and photos erased; the row stays as a tombstone shown under the generic member label (decision 028).",
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Deleted' },
      ...errors(auth.required, { 403: "Another member's account (code forbidden)" }),
    },
  })
  serve(routes, deleteAccountRoute, async (c) => {
    const caller = requireCaller(c)
    await deleteAccount(
      { ...c.var.services, forgetVerification: (id) => forgetVerificationPhotos(verificationDeps(c), id), forgetCards: (id) => stopSubscriptions(paymentsDeps(c), id).then(() => forgetCards(paymentsDeps(c), id)) },
      caller,
      c.req.param('id'),
      c.var.requestId,
    )
    return c.body(null, 204)
  })
}
