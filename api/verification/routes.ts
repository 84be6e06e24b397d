import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { oneOf, pageOf, pageQuerySchema } from '#contract/common.ts'
import { maxPhotoBytes } from '#contract/limits.ts'
import {
  initiateVerificationFormSchema,
  rejectVerificationBodySchema,
  verificationFiles,
  verificationRequestSchema,
  verificationSchema,
} from '#contract/verification.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { MULTIPART_OVERHEAD_BYTES, readMultipart } from '../media/multipart.ts'
import { InvalidSignatureError } from '../providers/verification/provider.ts'
import {
  decideRequest,
  getRequest,
  getVerification,
  handleStripeEvent,
  initiateVerification,
  listPendingRequests,
  readRequestPhoto,
} from './service.ts'
import { verificationDeps } from './deps.ts'

/** Two photos of at most 15 MB each, and the multipart framing around them. */
const MAX_INITIATE_BODY_BYTES = 2 * maxPhotoBytes + MULTIPART_OVERHEAD_BYTES
const MAX_INITIATE_PARTS = 4

const reviewerErrors = (more: Parameters<typeof errors>[1] = {}) =>
  errors(auth.required, { 404: 'No such request, or the caller is not a reviewer (code not_found)', ...more })

export function verificationRoutes(routes: ApiRoutes) {
  const tags = ['verification']

  const statusRoute = createRoute({
    method: 'get',
    path: '/v1/verification',
    tags,
    security: auth.required,
    summary:
      "The caller's identity verification (spec §3): `not_verified` (with the last rejection's reason, if any), `processing` or `verified`. `data` holds one item.",
    responses: { 200: jsonContent('The status', oneOf(verificationSchema)), ...errors(auth.required) },
  })
  serve(routes, statusRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await getVerification(verificationDeps(c), caller)] })
  })

  const initiateRoute = createRoute({
    method: 'post',
    path: '/v1/verification/initiate',
    tags,
    security: auth.required,
    summary:
      'Start verification. Built-in (`provider: builtin`): multipart with `document` (a photo of a driver’s license, passport or state ID) and `selfie`, ' +
      'kept encrypted until an admin decides. Stripe Identity (`provider: stripe`): no body; go to `redirect_url`. `data` holds one item.',
    request: { body: { required: false, content: { 'multipart/form-data': { schema: initiateVerificationFormSchema } } } },
    responses: {
      200: jsonContent('The request, now processing', oneOf(verificationSchema)),
      ...errors(auth.required, {
        400: 'Not a multipart body (code invalid_body)',
        409: 'A verification request is already pending (code verification_pending), or the member is already verified (code already_verified)',
        413: 'A body over 30 MB, or more than 4 parts (codes too_large, payload_too_large)',
        422: 'A photo missing (`required`), not a JPEG or PNG (`invalid_format`) or too large (`too_large`), per field (code invalid_input)',
        503: 'Stripe Identity could not be reached, or the database is unavailable (code service_unavailable)',
      }),
    },
  })
  serve(routes, initiateRoute, async (c) => {
    const caller = requireCaller(c)
    const d = verificationDeps(c)
    let photos = { document: null as Uint8Array | null, selfie: null as Uint8Array | null }
    if (!d.verification.stripe) {
      const form = await readMultipart(c, { maxBytes: MAX_INITIATE_BODY_BYTES, maxParts: MAX_INITIATE_PARTS, fields: 'document and selfie' })
      const bytesOf = async (name: string) => {
        const file = form.get(name)
        if (!file || typeof file === 'string') return null
        if (file.size > maxPhotoBytes) throw problems.invalid({ [name]: ['too_large'] })
        return new Uint8Array(await file.arrayBuffer())
      }
      photos = { document: await bytesOf('document'), selfie: await bytesOf('selfie') }
    }
    return c.json({ data: [await initiateVerification(d, caller, photos)] })
  })

  // Review (admins holding review:verification; 404 for anyone else) ------------------------

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/verification/requests',
    tags,
    security: auth.required,
    summary: 'Pending built-in verification requests, oldest first (reviewers only).',
    request: { query: pageQuerySchema },
    responses: { 200: jsonContent('A page of requests', pageOf(verificationRequestSchema)), ...reviewerErrors({ 422: 'Bad paging (code invalid_input)' }) },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, listRoute)
    return c.json(await listPendingRequests(verificationDeps(c), caller, query.page, query.per_page))
  })

  const getRoute = createRoute({
    method: 'get',
    path: '/v1/verification/requests/{id}',
    tags,
    security: auth.required,
    summary: 'One verification request (reviewers only). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: { 200: jsonContent('The request', oneOf(verificationRequestSchema)), ...reviewerErrors() },
  })
  serve(routes, getRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await getRequest(verificationDeps(c), caller, c.req.param('id'))] })
  })

  const jpeg = { schema: z.string().meta({ format: 'binary' }) }
  const fileRoute = createRoute({
    method: 'get',
    path: '/v1/verification/requests/{id}/files/{file}',
    tags,
    security: auth.required,
    summary: "A pending request's photo (`document` or `selfie`), decrypted, never cached (reviewers only; gone once decided).",
    request: { params: z.object({ id: z.string(), file: z.enum(verificationFiles) }) },
    responses: { 200: { description: 'The photo', content: { 'image/jpeg': jpeg } }, ...reviewerErrors() },
  })
  serve(routes, fileRoute, async (c) => {
    const caller = requireCaller(c)
    const file = c.req.param('file')
    if (!(verificationFiles as readonly string[]).includes(file)) throw problems.notFound()
    const bytes = await readRequestPhoto(verificationDeps(c), caller, c.req.param('id'), file as (typeof verificationFiles)[number])
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'image/jpeg',
      'content-length': String(bytes.byteLength),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    })
  })

  const approveRoute = createRoute({
    method: 'post',
    path: '/v1/verification/requests/{id}/approve',
    tags,
    security: auth.required,
    summary: 'Approve a pending request: the member is verified and told; the photos are deleted (reviewers only).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The decided request', oneOf(verificationRequestSchema)),
      ...reviewerErrors({ 409: 'Already decided (code verification_decided)' }),
    },
  })
  serve(routes, approveRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await decideRequest(verificationDeps(c), caller, c.req.param('id'), { outcome: 'approved' })] })
  })

  const rejectRoute = createRoute({
    method: 'post',
    path: '/v1/verification/requests/{id}/reject',
    tags,
    security: auth.required,
    summary: 'Reject a pending request with a reason the member reads; they are told and may try again; the photos are deleted (reviewers only).',
    request: { params: pathParams('id'), body: jsonBody(rejectVerificationBodySchema) },
    responses: {
      200: jsonContent('The decided request', oneOf(verificationRequestSchema)),
      ...reviewerErrors({
        ...jsonBodyErrors,
        409: 'Already decided (code verification_decided)',
        422: 'No reason, or one over 500 characters (reason_required, reason_too_long, invalid_characters, direction_characters)',
      }),
    },
  })
  serve(routes, rejectRoute, async (c) => {
    const caller = requireCaller(c)
    const d = verificationDeps(c)
    // The reviewer is checked before the body, so a member learns nothing from a 422.
    await getRequest(d, caller, c.req.param('id'))
    const { reason } = await readJson(c, rejectRoute)
    return c.json({ data: [await decideRequest(d, caller, c.req.param('id'), { outcome: 'rejected', reason })] })
  })

  const webhookRoute = createRoute({
    method: 'post',
    path: '/v1/webhooks/stripe-identity',
    tags,
    security: auth.none,
    summary:
      'Stripe Identity events (`identity.verification_session.verified`, `requires_input`, `canceled`), authenticated by the `Stripe-Signature` header; 404 when Stripe Identity is not configured.',
    request: { body: { required: true, content: { 'application/json': { schema: z.object({}).passthrough() } } } },
    responses: {
      200: jsonContent('Received', z.object({ received: z.literal(true) })),
      ...errors(auth.none, {
        400: 'No valid signature, or one older than 5 minutes (code invalid_body)',
        404: 'Stripe Identity is not configured (code not_found)',
        413: 'A body over 100 KB (code payload_too_large)',
      }),
    },
  })
  serve(routes, webhookRoute, async (c) => {
    const d = verificationDeps(c)
    if (!d.verification.stripe) throw problems.notFound()
    const payload = await c.req.text()
    let event
    try {
      event = d.verification.stripe.parseWebhook(payload, c.req.header('stripe-signature'))
    } catch (error) {
      if (!(error instanceof InvalidSignatureError)) throw error
      d.logger.warn({ requestId: c.var.requestId, reason: error.message }, 'Stripe webhook refused')
      throw new ApiProblem(400, 'invalid_body', 'The Stripe signature is missing or does not match.')
    }
    const result = await handleStripeEvent(d, event)
    d.logger.info({ requestId: c.var.requestId, eventId: event.id, type: event.type, handled: result.handled }, 'Stripe Identity event')
    return c.json({ received: true as const })
  })
}
