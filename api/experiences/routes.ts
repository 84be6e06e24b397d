import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { z } from 'zod'
import { oneOf, pageOf } from '#contract/common.ts'
import {
  addByEmailsBodySchema,
  addByEmailsResultSchema,
  attendBodySchema,
  attendeeSchema,
  attendeesQuerySchema,
  cancelAttendanceResponseSchema,
  experienceDetailQuerySchema,
  experienceInputSchema,
  experienceListQuerySchema,
  experienceSchema,
  waitlistEntrySchema,
  waitlistQuerySchema,
} from '#contract/experiences.ts'
import type { ApiEnv } from '../http/context.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { holdsSeat } from '../analytics/events.ts'
import { trackFrom } from '../analytics/service.ts'
import {
  attend,
  attendeesCsv,
  cancelAttendance,
  joinWaitlist,
  leaveWaitlist,
  listAttendees,
  listWaitlist,
} from './attendance.ts'
import { experienceIcal } from './ical.ts'
import { acceptInvitation, declineInvitation, inviteByEmail } from './invitations.ts'
import {
  cancelExperience,
  createExperience,
  getReadableExperience,
  listExperiences,
  serializeExperience,
  updateExperience,
  type ExperienceDeps,
} from './service.ts'

function deps(c: Context<ApiEnv>): ExperienceDeps {
  const { db, env, places, notify, chatMirror, jobs, media } = c.var.services
  return { db, env, places, notify, chatMirror, jobs, media }
}

const tags = ['experiences']

function attachmentName(slug: string, extension: string) {
  return `attachment; filename="${slug.replace(/[^\w.-]+/g, '-')}.${extension}"`
}

export function experienceRoutes(routes: ApiRoutes) {
  const listExperiencesRoute = createRoute({
    method: 'get',
    path: '/v1/experiences',
    tags,
    security: auth.optional,
    summary:
      'Upcoming and past activities, never canceled ones, sorted by start date. Anonymous callers get no address, link or viewer state and rounded coordinates.',
    request: { query: experienceListQuerySchema },
    responses: {
      200: jsonContent('A page of activities', pageOf(experienceSchema)),
      ...errors(auth.optional, { 422: 'Invalid filters (for example origin_required for a distance without an origin)' }),
    },
  })
  serve(routes, listExperiencesRoute, async (c) => {
    const query = readQuery(c, listExperiencesRoute)
    return c.json(await listExperiences(c.var.services.db, c.var.services.media, query, c.var.caller))
  })

  const experienceRoute = createRoute({
    method: 'get',
    path: '/v1/experiences/{idOrSlug}',
    tags,
    security: auth.optional,
    summary:
      'One activity by id or slug (`data` holds one item); `format=ical` answers an RFC 5545 calendar file. A canceled activity is readable by its host, its attendees and admins only.',
    request: { params: pathParams('idOrSlug'), query: experienceDetailQuerySchema },
    responses: {
      200: {
        description: 'The activity, or with `format=ical` its calendar file (an attachment)',
        content: {
          'application/json': { schema: oneOf(experienceSchema) },
          'text/calendar': { schema: z.string() },
        },
      },
      ...errors(auth.optional, {
        404: 'No such activity, or a canceled one the caller neither hosts nor attends (code not_found)',
        409: 'A calendar file of an activity without a date (code experience_undated)',
        422: 'format_invalid',
      }),
    },
  })
  serve(routes, experienceRoute, async (c) => {
    const { format } = readQuery(c, experienceRoute)
    const { db, env, media } = c.var.services
    if (format === 'ical') {
      const { slug, ics } = await experienceIcal(env, db, c.var.caller, c.req.param('idOrSlug'))
      return c.body(ics, 200, {
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': attachmentName(slug, 'ics'),
      })
    }
    const experience = await getReadableExperience(db, c.req.param('idOrSlug'), c.var.caller)
    return c.json({ data: [await serializeExperience(db, media, experience, c.var.caller)] })
  })

  const createExperienceRoute = createRoute({
    method: 'post',
    path: '/v1/experiences',
    tags,
    security: auth.required,
    summary:
      'Create an activity hosted by the caller, with its group chat, the caller in it (decision 060). Times are local to the activity’s time zone. Unknown fields are ignored.',
    request: { body: jsonBody(experienceInputSchema) },
    responses: {
      201: jsonContent('The activity created', oneOf(experienceSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'is_hostless or is_premium from a member (code admin_only)',
        422: 'Invalid fields (title_required, start_date_past, capacity_too_large, currency_invalid, …)',
      }),
    },
  })
  serve(routes, createExperienceRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, createExperienceRoute)
    const created = await createExperience(deps(c), caller, input)
    await trackFrom(c, 'host_activity_created', { experience_id: created.id, venue_type: created.venue_type })
    return c.json({ data: [created] }, 201)
  })

  const updateExperienceRoute = createRoute({
    method: 'put',
    path: '/v1/experiences/{id}',
    tags,
    security: auth.required,
    summary: 'Change an activity (host or admin); send changed fields only.',
    request: { params: pathParams('id'), body: jsonBody(experienceInputSchema) },
    responses: {
      200: jsonContent('The activity as changed', oneOf(experienceSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'Not the host or an admin (code forbidden); is_hostless or is_premium from a member (code admin_only)',
        404: 'No such activity (code not_found)',
        409: 'A canceled activity (code experience_canceled), or one that has begun (code experience_past)',
        422: 'Invalid fields (capacity_below_attendees, …)',
      }),
    },
  })
  serve(routes, updateExperienceRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, updateExperienceRoute)
    return c.json({ data: [await updateExperience(deps(c), caller, c.req.param('id'), input)] })
  })

  const cancelExperienceRoute = createRoute({
    method: 'delete',
    path: '/v1/experiences/{id}',
    tags,
    security: auth.required,
    summary: 'Cancel an activity (host or admin). Final; attendees are notified.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Canceled (or it already was)' },
      ...errors(auth.required, {
        403: 'Not the host or an admin (code forbidden)',
        404: 'No such activity (code not_found)',
        409: 'The activity has begun: nothing is left to cancel (code experience_past)',
      }),
    },
  })
  serve(routes, cancelExperienceRoute, async (c) => {
    const caller = requireCaller(c)
    await cancelExperience(deps(c), caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const attendeesRoute = createRoute({
    method: 'get',
    path: '/v1/experiences/{id}/attendees',
    tags,
    security: auth.required,
    summary:
      'Who is attending (paged); `format=csv` (host or admin) answers a CSV of display names, RSVP time and attendance state (`going`, `cancelled`, `cancelled_late`), never email addresses or phone numbers.',
    request: { params: pathParams('id'), query: attendeesQuerySchema },
    responses: {
      200: {
        description: 'A page of attendees, or with `format=csv` the whole list as a CSV file (an attachment)',
        content: {
          'application/json': { schema: pageOf(attendeeSchema) },
          'text/csv': { schema: z.string() },
        },
      },
      ...errors(auth.required, {
        403: 'The CSV for someone other than the host or an admin (code forbidden)',
        404: 'No such activity (code not_found)',
        422: 'Invalid paging or format (page_invalid, per_page_invalid, format_invalid)',
      }),
    },
  })
  serve(routes, attendeesRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, attendeesRoute)
    const { db, media } = c.var.services
    if (query.format === 'csv') {
      const { slug, csv } = await attendeesCsv(db, caller, c.req.param('id'))
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': attachmentName(`${slug}-attendees`, 'csv'),
      })
    }
    return c.json(await listAttendees(db, media, caller, c.req.param('id'), query.page, query.per_page))
  })

  const attendRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/attendees',
    tags,
    security: auth.required,
    summary: 'Attend (user_id is the caller; admins may add anyone). Idempotent; never over capacity.',
    request: { params: pathParams('id'), body: jsonBody(attendBodySchema) },
    responses: {
      200: jsonContent('The activity, with the caller’s seat', oneOf(experienceSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'Signing up someone else (code forbidden); a premium activity and the caller has no premium (code premium_required)',
        404: 'No such activity or member (code not_found)',
        409: 'Full: the notify list is open (code experience_full); experience_past; experience_canceled; a fee and no usable default card (code card_required)',
        422: 'user_id_invalid; fee_consent_required (the activity has a no-show fee and the caller did not agree to it)',
      }),
    },
  })
  serve(routes, attendRoute, async (c) => {
    const caller = requireCaller(c)
    const { user_id, ...consent } = await readJson(c, attendRoute)
    const seated = await holdsSeat(c.var.services.db, c.req.param('id'), user_id)
    const experience = await attend(deps(c), caller, c.req.param('id'), user_id, consent)
    if (!seated) await trackFrom(c, 'rsvp_created', { experience_id: experience.id, waitlisted: false }, user_id)
    return c.json({ data: [experience] })
  })

  const cancelAttendanceRoute = createRoute({
    method: 'delete',
    path: '/v1/experiences/{id}/attendees/{userId}',
    tags,
    security: auth.required,
    summary:
      'Cancel a seat (the member, the host or an admin). Within 12 h of the start it is recorded as late with the no-show fee; the freed seat goes to the notify list.',
    request: { params: pathParams('id', 'userId') },
    responses: {
      200: jsonContent('The activity now, and whether the cancellation was late', cancelAttendanceResponseSchema),
      ...errors(auth.required, {
        403: 'Someone else’s seat (code forbidden)',
        404: 'No such activity, or not attending (code not_found)',
        409: 'experience_past, experience_canceled',
      }),
    },
  })
  serve(routes, cancelAttendanceRoute, async (c) => {
    const caller = requireCaller(c)
    const canceled = await cancelAttendance(deps(c), caller, c.req.param('id'), c.req.param('userId'))
    const experienceId = canceled.data[0]?.id
    if (experienceId) await trackFrom(c, 'rsvp_cancelled', { experience_id: experienceId, late: canceled.metadata.late_cancellation }, c.req.param('userId'))
    return c.json(canceled)
  })

  const addByEmailsRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/attendees/create-by-emails',
    tags,
    security: auth.required,
    summary:
      'Invite members by email (host or admin; at most 50): each member found who is not going yet gets an invitation, emailed in their language, and is seated only if they accept it. Inviting again sends nothing more. `data` holds one item, the same whether or not an address belongs to a member (decision 066): every address under `invited_if_member`, or under `full` when the activity has no seat.',
    request: { params: pathParams('id'), body: jsonBody(addByEmailsBodySchema) },
    responses: {
      200: jsonContent('The addresses an invitation went to if they belong to a member, or that were not invited because the activity is full', oneOf(addByEmailsResultSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'Not the host or an admin (code forbidden)',
        404: 'No such activity (code not_found)',
        409: 'experience_past, experience_canceled',
        422: 'emails_required, too_many_emails, email_invalid',
        429: 'More addresses than a member may invite in a day (code too_many_invitations)',
      }),
    },
  })
  serve(routes, addByEmailsRoute, async (c) => {
    const caller = requireCaller(c)
    const { emails } = await readJson(c, addByEmailsRoute)
    return c.json({ data: [await inviteByEmail(deps(c), caller, c.req.param('id'), emails)] })
  })

  const acceptInvitationRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/invitations/accept',
    tags,
    security: auth.required,
    summary:
      'Accept the caller’s invitation to the activity: the caller takes a seat as attending would seat them (never over capacity). Idempotent while seated.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The activity, with the caller’s seat', oneOf(experienceSchema)),
      ...errors(auth.required, {
        404: 'No such activity, or the caller holds no invitation to it (code not_found)',
        409: 'Full: the invitation stays open and the notify list is offered (code experience_full); invitation_declined; experience_past; experience_canceled',
      }),
    },
  })
  serve(routes, acceptInvitationRoute, async (c) => {
    const caller = requireCaller(c)
    const seated = await holdsSeat(c.var.services.db, c.req.param('id'), caller.id)
    const experience = await acceptInvitation(c.var.services.db, c.var.services.media, caller, c.req.param('id'))
    if (!seated) await trackFrom(c, 'rsvp_created', { experience_id: experience.id, waitlisted: false })
    return c.json({ data: [experience] })
  })

  const declineInvitationRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/invitations/decline',
    tags,
    security: auth.required,
    summary: 'Decline the caller’s invitation to the activity (idempotent). The host is not told; inviting again sends nothing.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Declined (or it already was)' },
      ...errors(auth.required, {
        404: 'No such activity, or the caller holds no invitation to it (code not_found)',
        409: 'The caller accepted it: cancel the seat instead (code invitation_accepted)',
      }),
    },
  })
  serve(routes, declineInvitationRoute, async (c) => {
    const caller = requireCaller(c)
    await declineInvitation(c.var.services.db, caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const waitlistRoute = createRoute({
    method: 'get',
    path: '/v1/experiences/{id}/waitlist',
    tags,
    security: auth.required,
    summary: 'The notify list in join order: all of it for the host or an admin, otherwise only the caller’s entry (with the total count).',
    request: { params: pathParams('id'), query: waitlistQuerySchema },
    responses: {
      200: jsonContent('A page of the notify list', pageOf(waitlistEntrySchema)),
      ...errors(auth.required, { 404: 'No such activity (code not_found)', 422: 'page_invalid, per_page_invalid' }),
    },
  })
  serve(routes, waitlistRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, waitlistRoute)
    return c.json(await listWaitlist(c.var.services.db, caller, c.req.param('id'), query.page, query.per_page))
  })

  const joinWaitlistRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/waitlist',
    tags,
    security: auth.required,
    summary: 'Join the notify list of a full activity (idempotent).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The activity, with the caller’s place on the list', oneOf(experienceSchema)),
      ...errors(auth.required, {
        403: 'A premium activity and the caller has no premium (code premium_required)',
        404: 'No such activity (code not_found)',
        409: 'experience_not_full, already_attending, already_hosting (the caller hosts it), experience_past, experience_canceled',
      }),
    },
  })
  serve(routes, joinWaitlistRoute, async (c) => {
    const caller = requireCaller(c)
    const experience = await joinWaitlist(c.var.services.db, c.var.services.media, caller, c.req.param('id'))
    await trackFrom(c, 'rsvp_created', { experience_id: experience.id, waitlisted: true })
    return c.json({ data: [experience] })
  })

  const leaveWaitlistRoute = createRoute({
    method: 'delete',
    path: '/v1/experiences/{id}/waitlist',
    tags,
    security: auth.required,
    summary: 'Leave the notify list.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Off the list (or was not on it)' },
      ...errors(auth.required, { 404: 'No such activity (code not_found)' }),
    },
  })
  serve(routes, leaveWaitlistRoute, async (c) => {
    const caller = requireCaller(c)
    await leaveWaitlist(c.var.services.db, caller, c.req.param('id'))
    return c.body(null, 204)
  })
}
