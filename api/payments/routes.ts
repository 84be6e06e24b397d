import { createRoute } from '@hono/zod-openapi'
import { listOf, oneOf } from '#contract/common.ts'
import {
  builtinAuthenticationBodySchema,
  builtinCardBodySchema,
  builtinCheckoutSchema,
  cardSetupSchema,
  defaultCardQuerySchema,
  paymentMethodSchema,
  startCardSetupBodySchema,
} from '#contract/payments.ts'
import { z } from 'zod'
import { ApiProblem, problems } from '../http/errors.ts'
import { InvalidSignatureError } from '../providers/verification/provider.ts'
import { applyPaymentEvent } from './webhook.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller, validate } from '../http/request.ts'
import { paymentsDeps } from './deps.ts'
import {
  answerCheckoutAuthentication,
  defaultCard,
  getBuiltinCheckout,
  listCards,
  makeDefaultCard,
  readCardSetup,
  removeCard,
  startCardSetup,
  submitCheckoutCard,
} from './service.ts'

/**
 * Payment cards (spec §7 `v1/payment-methods…`, issue 31 §2, decision 073): always the caller's
 * own. A card's number never passes through these routes except the built-in hosted page's, which
 * exist only while the built-in provider is in use and keep nothing but the last four digits.
 */
export function paymentRoutes(routes: ApiRoutes) {
  const tags = ['payments']
  const cardNotFound = 'Not one of the caller’s cards (code not_found)'

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/payment-methods',
    tags,
    security: auth.required,
    summary: 'The caller’s cards (spec §3 “Payment method”): the default first, then the newest. Never a number: brand, last four digits, expiry.',
    responses: { 200: jsonContent('The cards', listOf(paymentMethodSchema)), ...errors(auth.required) },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await listCards(paymentsDeps(c), caller) })
  })

  const getDefaultRoute = createRoute({
    method: 'get',
    path: '/v1/payment-methods/default',
    tags,
    security: auth.required,
    summary: 'The caller’s default card: `data` holds it, or nothing when the caller has no card.',
    responses: { 200: jsonContent('The default card', listOf(paymentMethodSchema)), ...errors(auth.required) },
  })
  serve(routes, getDefaultRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await defaultCard(paymentsDeps(c), caller) })
  })

  const setDefaultRoute = createRoute({
    method: 'post',
    path: '/v1/payment-methods/default',
    tags,
    security: auth.required,
    summary: 'Make card `id` (a query parameter, spec §7) the caller’s default: fees and the subscription are charged to it. `data` holds the card.',
    request: { query: defaultCardQuerySchema },
    responses: {
      200: jsonContent('The card, now the default', oneOf(paymentMethodSchema)),
      ...errors(auth.required, { 404: cardNotFound, 422: 'No id, or not an id (id_invalid in fields.id)' }),
    },
  })
  serve(routes, setDefaultRoute, async (c) => {
    const caller = requireCaller(c)
    const { id } = readQuery(c, setDefaultRoute)
    return c.json({ data: [await makeDefaultCard(paymentsDeps(c), caller, id)] })
  })

  const setupRoute = createRoute({
    method: 'post',
    path: '/v1/payment-methods/setup',
    tags,
    security: auth.required,
    summary:
      'Start adding a card: send the member to `redirect_url`, the provider’s hosted card page (built in: `/checkout/{id}`; Stripe: Checkout in setup mode). ' +
      'They come back to `return_path?setup={id}` (or `…&canceled=1`); `GET v1/payment-methods/setup/{id}` then tells what came of it. The body is optional. `data` holds one item.',
    request: { body: { required: false, content: { 'application/json': { schema: startCardSetupBodySchema } } } },
    responses: {
      200: jsonContent('The setup, open', oneOf(cardSetupSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        422: 'A return_path that is not a path of the web app (return_path_invalid)',
        429: 'More than 20 setups started in an hour (code too_many_attempts)',
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, setupRoute, async (c) => {
    const caller = requireCaller(c)
    const text = await c.req.text()
    let body: unknown = {}
    if (text.trim()) {
      try {
        body = JSON.parse(text)
      } catch {
        throw new ApiProblem(400, 'invalid_json', 'The request body is not valid JSON.')
      }
    }
    return c.json({ data: [await startCardSetup(paymentsDeps(c), caller, validate(startCardSetupBodySchema, body))] })
  })

  const readSetupRoute = createRoute({
    method: 'get',
    path: '/v1/payment-methods/setup/{id}',
    tags,
    security: auth.required,
    summary: 'What came of one of the caller’s card setups: `open`, `complete` with the card saved, or `expired`. `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The setup', oneOf(cardSetupSchema)),
      ...errors(auth.required, { 404: 'Not one of the caller’s setups (code not_found)', 503: 'The payments provider could not be reached (code service_unavailable)' }),
    },
  })
  serve(routes, readSetupRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await readCardSetup(paymentsDeps(c), caller, c.req.param('id'))] })
  })

  const removeRoute = createRoute({
    method: 'delete',
    path: '/v1/payment-methods/{id}',
    tags,
    security: auth.required,
    summary: 'Remove one of the caller’s cards (answers 204). When it was the default, the newest other card becomes the default.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Removed' },
      ...errors(auth.required, {
        404: cardNotFound,
        409: 'The caller’s only card, and it pays for their premium membership (code card_in_use) or a no-show fee not settled yet (code card_backs_fee)',
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, removeRoute, async (c) => {
    const caller = requireCaller(c)
    await removeCard(paymentsDeps(c), caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const webhookRoute = createRoute({
    method: 'post',
    path: '/v1/webhooks/stripe',
    tags,
    security: auth.none,
    summary:
      'Stripe’s payment events (`checkout.session.completed`, `checkout.session.async_payment_succeeded`, `payment_method.detached`, `payment_method.updated`, `payment_method.automatically_updated`, `customer.subscription.updated`, `customer.subscription.deleted`, `invoice.paid`, `invoice.payment_failed`; others are acknowledged and ignored), authenticated by the `Stripe-Signature` header (five minutes’ tolerance) and applied once by their id, in any order; 404 while payments are built in.',
    request: { body: { required: true, content: { 'application/json': { schema: z.object({}).passthrough() } } } },
    responses: {
      200: jsonContent('Received', z.object({ received: z.literal(true) })),
      ...errors(auth.none, {
        400: 'No valid signature, or one older than 5 minutes (code invalid_body)',
        404: 'Payments are built in: Stripe is not configured (code not_found)',
        413: 'A body over 100 KB (code payload_too_large)',
        503: 'Stripe could not be reached to read the event’s object (code service_unavailable): Stripe sends it again',
      }),
    },
  })
  serve(routes, webhookRoute, async (c) => {
    const d = paymentsDeps(c)
    if (!d.payments.parseWebhook) throw problems.notFound()
    const payload = await c.req.text()
    let event
    try {
      event = d.payments.parseWebhook(payload, c.req.header('stripe-signature'))
    } catch (error) {
      if (!(error instanceof InvalidSignatureError)) throw error
      d.logger.warn({ requestId: c.var.requestId, reason: error.message }, 'Stripe payments webhook refused')
      throw new ApiProblem(400, 'invalid_body', 'The Stripe signature is missing or does not match.')
    }
    const result = await applyPaymentEvent({ ...d, notify: c.var.services.notify }, event)
    d.logger.info({ requestId: c.var.requestId, eventId: event.id, type: event.type, applied: result.applied }, 'Stripe payments event')
    return c.json({ received: true as const })
  })

  // The built-in hosted card page (404 while Stripe is configured) -------------------------

  const builtinOnly = '404: not the caller’s checkout, or Stripe is configured (code not_found)'
  const checkoutRoute = createRoute({
    method: 'get',
    path: '/v1/payments/checkout/{id}',
    tags,
    security: auth.required,
    summary: 'The built-in hosted card page’s session, for the member who started it. `data` holds one item.',
    request: { params: pathParams('id') },
    responses: { 200: jsonContent('The checkout', oneOf(builtinCheckoutSchema)), ...errors(auth.required, { 404: builtinOnly }) },
  })
  serve(routes, checkoutRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await getBuiltinCheckout(paymentsDeps(c), caller, c.req.param('id'))] })
  })

  const cardRoute = createRoute({
    method: 'post',
    path: '/v1/payments/checkout/{id}/card',
    tags,
    security: auth.required,
    summary:
      'The card typed on the built-in hosted page. Only Stripe’s test cards are taken (card_not_test otherwise); the bank answers as Stripe’s test cards do: ' +
      'saved (`complete`), asks the member to confirm (`requires_authentication`), or declined (card_declined, insufficient_funds in fields.number). Only the last four digits are kept.',
    request: { params: pathParams('id'), body: jsonBody(builtinCardBodySchema) },
    responses: {
      200: jsonContent('The checkout', oneOf(builtinCheckoutSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        404: builtinOnly,
        409: 'The session is finished or expired (code checkout_closed)',
        422: 'Per field: number (card_number_required, card_number_invalid, card_not_test, card_declined, insufficient_funds), expiry (card_expiry_required, card_expiry_invalid, card_expired), cvc (card_cvc_required, card_cvc_invalid), postal_code (postal_code_required, postal_code_invalid)',
      }),
    },
  })
  serve(routes, cardRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, cardRoute)
    return c.json({ data: [await submitCheckoutCard(paymentsDeps(c), caller, c.req.param('id'), body)] })
  })

  const authenticationRoute = createRoute({
    method: 'post',
    path: '/v1/payments/checkout/{id}/authentication',
    tags,
    security: auth.required,
    summary: 'The member’s answer to the built-in bank’s confirmation (3-D Secure): `confirm` saves the card, set up for later charges; `fail` leaves it unsaved.',
    request: { params: pathParams('id'), body: jsonBody(builtinAuthenticationBodySchema) },
    responses: {
      200: jsonContent('The checkout', oneOf(builtinCheckoutSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 404: builtinOnly, 409: 'Nothing waits for confirmation (code checkout_closed)', 422: 'outcome_invalid' }),
    },
  })
  serve(routes, authenticationRoute, async (c) => {
    const caller = requireCaller(c)
    const { outcome } = await readJson(c, authenticationRoute)
    return c.json({ data: [await answerCheckoutAuthentication(paymentsDeps(c), caller, c.req.param('id'), outcome)] })
  })
}
