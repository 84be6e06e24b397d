import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { listOf, oneOf } from '#contract/common.ts'
import { attendanceMarksBodySchema, feeDisputeBodySchema, feePaymentSchema, feeRefundBodySchema, feeWaiveBodySchema, noShowFeeSchema, teamFeeSchema } from '#contract/fees.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { paymentsDeps } from '../payments/deps.ts'
import { attendanceSheet, decideFee, disputeFee, listFeesForTeam, listOwnFees, markAttendance, refundFee, startFeePayment } from './service.ts'
import { attendanceMarksOf } from '../analytics/events.ts'
import { trackFrom } from '../analytics/service.ts'

const attendanceSheetSchema = z
  .object({
    open: z.boolean().meta({ description: 'Whether the host may still say who came (after the start, until the fees are worked out).' }),
    confirmed_at: z.string().nullable(),
    attendees: z.array(
      z.object({
        user_id: z.string(),
        display_name: z.string().nullable().meta({ description: 'As members are named everywhere; null for the generic member label.' }),
        present: z.boolean().nullable().meta({ description: 'The host’s mark; null when not marked (never charged).' }),
        fee_bound: z.boolean().meta({ description: 'The member agreed to the no-show fee for this seat.' }),
      }),
    ),
  })
  .meta({ id: 'AttendanceSheet' })

/**
 * The no-show fee (issue 31 §3, decision 075): the host's attendance after an activity, the
 * member's fees and their "tell us if this is wrong", and the team's queue.
 */
export function feeRoutes(routes: ApiRoutes) {
  const tags = ['fees']
  const feeDeps = (c: Parameters<typeof paymentsDeps>[0]) => ({ ...paymentsDeps(c), notify: c.var.services.notify })
  const sheet = (value: Awaited<ReturnType<typeof attendanceSheet>>) => ({
    open: value.open,
    confirmed_at: value.confirmed_at?.toISOString() ?? null,
    attendees: value.attendees,
  })

  const readAttendanceRoute = createRoute({
    method: 'get',
    path: '/v1/experiences/{id}/attendance',
    tags,
    security: auth.required,
    summary: 'Who held a seat, whether each seat is bound by the no-show fee, and the host’s marks (the host or an admin). `data` holds one item.',
    request: { params: pathParams('id') },
    responses: { 200: jsonContent('The attendance sheet', oneOf(attendanceSheetSchema)), ...errors(auth.required, { 403: 'Not the host or an admin (code forbidden)', 404: 'No such activity (code not_found)' }) },
  })
  serve(routes, readAttendanceRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [sheet(await attendanceSheet(c.var.services.db, caller, c.req.param('id')))] })
  })

  const markRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/attendance',
    tags,
    security: auth.required,
    summary:
      'The host says who came (present or not), once the activity has begun and until its fees are worked out, a day after the first confirmation. Only a member marked “did not come” whose seat is bound by the fee can be charged. `data` holds one item.',
    request: { params: pathParams('id'), body: jsonBody(attendanceMarksBodySchema) },
    responses: {
      200: jsonContent('The attendance sheet', oneOf(attendanceSheetSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'Not the host or an admin (code forbidden)',
        404: 'No such activity (code not_found)',
        409: 'Not begun, canceled, or its fees already worked out (code attendance_not_open)',
        422: 'marks_required, user_id_invalid, present_invalid, not_attending (in fields.marks)',
      }),
    },
  })
  serve(routes, markRoute, async (c) => {
    const caller = requireCaller(c)
    const { marks } = await readJson(c, markRoute)
    const before = await attendanceMarksOf(c.var.services.db, c.req.param('id'))
    const marked = await markAttendance(c.var.services.db, caller, c.req.param('id'), marks, c.var.services.notify)
    // A mark given or changed is an event about that member; the same mark given again is not.
    for (const mark of marks) {
      if (before.get(mark.user_id) !== mark.present) await trackFrom(c, mark.present ? 'attended' : 'no_show', { experience_id: marked.experience.id }, mark.user_id)
    }
    return c.json({ data: [sheet(marked)] })
  })

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/fees',
    tags,
    security: auth.required,
    summary:
      'The caller’s no-show fees, the newest first: noticed (with the date it will be charged), disputed, charged, waived… A payment page opened for a fee still to pay is asked of the payments provider first.',
    responses: { 200: jsonContent('The fees', listOf(noShowFeeSchema)), ...errors(auth.required, { 503: 'The payments provider could not be reached (code service_unavailable)' }) },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await listOwnFees(feeDeps(c), caller) })
  })

  const payRoute = createRoute({
    method: 'post',
    path: '/v1/fees/{id}/pay',
    tags,
    security: auth.required,
    summary:
      'Pay a fee the bank wanted the member to confirm, or declined, on the payments provider’s hosted page (`can_pay`). The page sends the member back to `/account/fees?paid={id}`. `data` holds one item.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('Where to send the member', oneOf(feePaymentSchema)),
      ...errors(auth.required, {
        404: 'Not one of the caller’s fees (code not_found)',
        409: 'Nothing left to pay (code fee_not_payable)',
        429: 'Too many payment pages for this fee in an hour (code too_many_attempts)',
        503: 'The payments provider could not be reached (code service_unavailable)',
      }),
    },
  })
  serve(routes, payRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await startFeePayment(feeDeps(c), caller, c.req.param('id'))] })
  })

  const disputeRoute = createRoute({
    method: 'post',
    path: '/v1/fees/{id}/dispute',
    tags,
    security: auth.required,
    summary: '“Tell us if this is wrong”: before the charge, the fee waits for the Circle 55 team, who charge or waive it. `data` holds one item.',
    request: { params: pathParams('id'), body: jsonBody(feeDisputeBodySchema) },
    responses: {
      200: jsonContent('The fee, disputed', oneOf(noShowFeeSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 404: 'Not one of the caller’s fees (code not_found)', 409: 'Already charged, waived or disputed (code fee_closed)', 422: 'reason_too_long' }),
    },
  })
  serve(routes, disputeRoute, async (c) => {
    const caller = requireCaller(c)
    const { reason } = await readJson(c, disputeRoute)
    return c.json({ data: [await disputeFee(c.var.services.db, caller, c.req.param('id'), reason)] })
  })

  const teamListRoute = createRoute({
    method: 'get',
    path: '/v1/admin/fees',
    tags,
    security: auth.required,
    summary: 'Every member’s fees for the team (`review:fees`), the disputed ones first, with what the member said.',
    responses: { 200: jsonContent('The fees', listOf(teamFeeSchema)), ...errors(auth.required, { 403: 'Not on the team (code forbidden)' }) },
  })
  serve(routes, teamListRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: await listFeesForTeam(c.var.services.db, caller) })
  })

  const waiveRoute = createRoute({
    method: 'post',
    path: '/v1/admin/fees/{id}/waive',
    tags,
    security: auth.required,
    summary: 'Waive a fee not yet charged, with the reason (audited; the member is told). Answers 204.',
    request: { params: pathParams('id'), body: jsonBody(feeWaiveBodySchema) },
    responses: {
      204: { description: 'Waived' },
      ...errors(auth.required, { ...jsonBodyErrors, 403: 'Not on the team (code forbidden)', 404: 'No such fee (code not_found)', 409: 'Already charged, refunded or waived (code fee_closed)', 422: 'reason_required, reason_too_long' }),
    },
  })
  serve(routes, waiveRoute, async (c) => {
    const caller = requireCaller(c)
    const { reason } = await readJson(c, waiveRoute)
    await decideFee(c.var.services.db, c.var.services.notify, caller, c.req.param('id'), { action: 'waive', reason }, c.var.requestId)
    return c.body(null, 204)
  })

  const chargeRoute = createRoute({
    method: 'post',
    path: '/v1/admin/fees/{id}/charge',
    tags,
    security: auth.required,
    summary: 'Uphold a disputed fee: it is charged at the next run (audited). Answers 204.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'To be charged' },
      ...errors(auth.required, { 403: 'Not on the team (code forbidden)', 404: 'No such fee (code not_found)', 409: 'Not disputed (code fee_closed)' }),
    },
  })
  const refundRoute = createRoute({
    method: 'post',
    path: '/v1/admin/fees/{id}/refund',
    tags,
    security: auth.required,
    summary: 'Give back a charged fee in full, with the reason (`refund:fees`; audited; the member is told). Answers 204.',
    request: { params: pathParams('id'), body: jsonBody(feeRefundBodySchema) },
    responses: {
      204: { description: 'Refunded' },
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'May not give money back (code forbidden)',
        404: 'No such fee (code not_found)',
        409: 'Not charged (code fee_not_charged)',
        422: 'reason_required, reason_too_long',
        503: 'The payments provider could not be reached or refused (code service_unavailable)',
      }),
    },
  })
  serve(routes, refundRoute, async (c) => {
    const caller = requireCaller(c)
    const { reason } = await readJson(c, refundRoute)
    await refundFee(feeDeps(c), caller, c.req.param('id'), reason, c.var.requestId)
    return c.body(null, 204)
  })

  serve(routes, chargeRoute, async (c) => {
    const caller = requireCaller(c)
    await decideFee(c.var.services.db, c.var.services.notify, caller, c.req.param('id'), { action: 'charge' }, c.var.requestId)
    return c.body(null, 204)
  })
}
