import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { listOf, oneOf } from '#contract/common.ts'
import {
  adminPartnershipSchema,
  initiateSubscriptionBodySchema,
  initiatedSubscriptionSchema,
  partnershipBodySchema,
  partnershipSchema,
  subscriptionSchema,
} from '#contract/subscriptions.ts'
import type { ApiEnv } from '../http/context.ts'
import {
  auth,
  errors,
  jsonBody,
  jsonBodyErrors,
  jsonContent,
  pathParams,
  readJson,
  serve,
  type ApiRoutes,
} from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { paymentsDeps } from '../payments/deps.ts'
import {
  adminGetPartnership,
  adminListPartnerships,
  cancelSubscription,
  createPartnership,
  initiateSubscription,
  listPartnerships,
  mySubscription,
  updatePartnership,
  type SubscriptionsDeps,
} from './service.ts'

/** What the subscriptions service needs, from a request's services. */
export function subscriptionsDeps(c: Context<ApiEnv>): SubscriptionsDeps {
  return { ...paymentsDeps(c), paymentsOn: c.var.services.env.PAYMENTS !== 'off' }
}

/**
 * Premium membership and the partner offer (spec §7 `v1/subscriptions/…`, issue 31 §4, decision
 * 074): always the caller's own; the partnerships' administration is for admins.
 */
export function subscriptionRoutes(routes: ApiRoutes) {
  const tags = ['subscriptions']

  const partnershipsRoute = createRoute({
    method: 'get',
    path: '/v1/subscriptions/partnerships',
    tags,
    security: auth.required,
    summary:
      'The partner offers for the caller’s region (their US state): the first item is the partnership (spec §7); `data` is empty when there is none.',
    responses: {
      200: jsonContent('The offers', listOf(partnershipSchema)),
      ...errors(auth.required),
    },
  })
  serve(routes, partnershipsRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await listPartnerships(subscriptionsDeps(c), caller) })
  })

  const initiateRoute = createRoute({
    method: 'post',
    path: '/v1/subscriptions/initiate',
    tags,
    security: auth.required,
    summary:
      'Join premium. With `partnership_id` (an eligible $0 offer): active at once, no card, no charge, nothing that ever turns paid; `redirect_url` is null. ' +
      'Without: the paid plan, $20 per year renewing until cancelled, which needs `consent_to_renewal: true` with the terms’ version and text; ' +
      'send the member to `redirect_url` (the provider’s hosted payment page); they come back to `return_path?checkout={id}`. `data` holds one item.',
    request: { body: jsonBody(initiateSubscriptionBodySchema) },
    responses: {
      200: jsonContent(
        'Premium, active or waiting for the payment',
        oneOf(initiatedSubscriptionSchema),
      ),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        409: 'The caller already has premium (already_subscribed), or the paid plan is not sold here (payments_off)',
        422: 'partnership_id (partnership_invalid, partnership_not_eligible), consent_to_renewal (consent_required), consent_text_version (consent_version_outdated), consent_text (consent_text_required), return_path (return_path_invalid)',
        429: 'More than 20 paid starts in an hour (code too_many_attempts)',
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, initiateRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, initiateRoute)
    return c.json({ data: [await initiateSubscription(subscriptionsDeps(c), caller, body)] })
  })

  const meRoute = createRoute({
    method: 'get',
    path: '/v1/subscriptions/me',
    tags,
    security: auth.required,
    summary:
      'The caller’s premium: plan, status, price, renewal date, card, partner. `data` holds it, or nothing when the caller never joined.',
    responses: {
      200: jsonContent('The subscription', listOf(subscriptionSchema)),
      ...errors(auth.required, {
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, meRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await mySubscription(subscriptionsDeps(c), caller) })
  })

  const cancelRoute = createRoute({
    method: 'post',
    path: '/v1/subscriptions/me/cancel',
    tags,
    security: auth.required,
    summary:
      'Cancel premium: a paid plan is not renewed and ends with the year paid for; a partner’s $0 plan ends now. `data` holds the subscription.',
    responses: {
      200: jsonContent('The subscription, cancelled', oneOf(subscriptionSchema)),
      ...errors(auth.required, {
        409: 'Nothing to cancel (code not_subscribed)',
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, cancelRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await cancelSubscription(subscriptionsDeps(c), caller)] })
  })

  // Admin ---------------------------------------------------------------------------------

  const adminOnly = 'Not an admin (code admin_only)'
  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/partnerships',
    tags,
    security: auth.required,
    summary: 'Every partnership (admins), the newest first.',
    responses: {
      200: jsonContent('The partnerships', listOf(adminPartnershipSchema)),
      ...errors(auth.required, { 403: adminOnly }),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await adminListPartnerships(subscriptionsDeps(c), caller) })
  })

  const getRoute = createRoute({
    method: 'get',
    path: '/v1/admin/partnerships/{id}',
    tags,
    security: auth.required,
    summary: 'One partnership (admins).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The partnership', oneOf(adminPartnershipSchema)),
      ...errors(auth.required, { 403: adminOnly, 404: 'No such partnership (code not_found)' }),
    },
  })
  serve(routes, getRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({
      data: [await adminGetPartnership(subscriptionsDeps(c), caller, c.req.param('id'))],
    })
  })

  const fieldProblems =
    'name (name_required, name_too_long), regions (regions_required, regions_invalid, regions_over_limit), active (active_invalid)'
  const createPartnershipRoute = createRoute({
    method: 'post',
    path: '/v1/admin/partnerships',
    tags,
    security: auth.required,
    summary:
      'Create a partnership (admins): a partner’s $0 premium offer for members in its regions (US state codes or ZIP codes). Audited.',
    request: { body: jsonBody(partnershipBodySchema) },
    responses: {
      200: jsonContent('The partnership', oneOf(adminPartnershipSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 403: adminOnly, 422: fieldProblems }),
    },
  })
  serve(routes, createPartnershipRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, createPartnershipRoute)
    return c.json({
      data: [await createPartnership(subscriptionsDeps(c), caller, body, c.var.requestId)],
    })
  })

  const updateRoute = createRoute({
    method: 'put',
    path: '/v1/admin/partnerships/{id}',
    tags,
    security: auth.required,
    summary:
      'Change a partnership’s name, regions and whether it is offered (admins). Members on it keep their plan. Audited.',
    request: { params: pathParams('id'), body: jsonBody(partnershipBodySchema) },
    responses: {
      200: jsonContent('The partnership', oneOf(adminPartnershipSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: adminOnly,
        404: 'No such partnership (code not_found)',
        422: fieldProblems,
      }),
    },
  })
  serve(routes, updateRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, updateRoute)
    return c.json({
      data: [
        await updatePartnership(
          subscriptionsDeps(c),
          caller,
          c.req.param('id'),
          body,
          c.var.requestId,
        ),
      ],
    })
  })
}
