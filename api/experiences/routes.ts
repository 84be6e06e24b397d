import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { ApiEnv } from '../app.ts'
import type { OpenApiRegistry } from '../http/openapi.ts'
import { parseJson, requireCaller, validate } from '../http/request.ts'
import {
  addAttendeesByEmail,
  addByEmailsSchema,
  attend,
  attendeesCsv,
  cancelAttendance,
  cancelExperience,
  createExperience,
  experienceIcal,
  experienceInputSchema,
  getReadableExperience,
  joinWaitlist,
  leaveWaitlist,
  listAttendees,
  listExperiences,
  listQuerySchema,
  listUserExperiences,
  listWaitlist,
  pageQuerySchema,
  serializeExperience,
  updateExperience,
  userExperiencesQuerySchema,
  type ExperienceDeps,
} from './service.ts'

function deps(c: Context<ApiEnv>): ExperienceDeps {
  const { db, env, places, notify } = c.var.services
  return { db, env, places, notify }
}

const nullableString = z.string().nullable()
const experienceJson = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  cover_photo: z.object({ url: z.string(), thumbnail_url: nullableString }).nullable(),
  max_attendees: z.number().int().nullable(),
  attendees_count: z.number().int(),
  is_full: z.boolean(),
  start_date: nullableString,
  end_date: nullableString,
  timezone: z.string(),
  venue_type: z.enum(['in_person', 'online']),
  location: z
    .object({
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      formattedAddress: nullableString,
      placeId: nullableString,
      city: nullableString,
      region: nullableString,
    })
    .nullable(),
  url: nullableString,
  ticket_url: nullableString,
  no_show_fee: nullableString,
  is_hostless: z.boolean(),
  is_premium: z.boolean(),
  host: z.object({ id: z.string(), display_name: nullableString, avatar: z.object({ url: z.string() }).nullable() }).nullable(),
  canceled_at: nullableString,
  is_past: z.boolean(),
  distance_miles: z.number().nullable(),
  viewer: z
    .object({
      is_attending: z.boolean(),
      is_host: z.boolean(),
      can_manage: z.boolean(),
      waitlist_position: z.number().int().nullable(),
    })
    .nullable(),
})
const pageMetadata = z.object({ page: z.number().int(), total_pages: z.number().int(), total_count: z.number().int() })
const experienceList = z.object({ data: z.array(experienceJson) })
const experiencePage = z.object({ data: z.array(experienceJson), metadata: pageMetadata })
const attendeePage = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      display_name: nullableString,
      avatar: z.object({ url: z.string() }).nullable(),
      is_host: z.boolean(),
    }),
  ),
  metadata: pageMetadata,
})
const waitlistPage = z.object({
  data: z.array(z.object({ user_id: z.string(), position: z.number().int(), display_name: nullableString, joined_at: z.string() })),
  metadata: pageMetadata,
})
const addByEmailsResult = z.object({
  data: z.array(
    z.object({
      added: z.array(z.string()),
      already_attending: z.array(z.string()),
      not_found: z.array(z.string()),
      full: z.array(z.string()),
    }),
  ),
})
const attendBody = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) })
const detailQuery = z.object({ format: z.enum(['json', 'ical'], { error: 'format_invalid' }).optional() })

function attachmentName(slug: string, extension: string) {
  return `attachment; filename="${slug.replace(/[^\w.-]+/g, '-')}.${extension}"`
}

export function experienceRoutes(app: Hono<ApiEnv>, registry: OpenApiRegistry) {
  const tag = 'experiences'

  registry.add({
    method: 'get',
    path: '/v1/experiences',
    tag,
    auth: 'optional',
    summary:
      'Upcoming and past activities, never cancelled ones, sorted by start date. Anonymous callers get no address, link or viewer state and rounded coordinates.',
    query: listQuerySchema,
    response: experiencePage,
    errors: { 422: 'Invalid filters (for example origin_required for a distance without an origin)' },
  })
  app.get('/v1/experiences', async (c) => {
    const query = validate(listQuerySchema, c.req.query())
    return c.json(await listExperiences(c.var.services.db, query, c.var.caller))
  })

  registry.add({
    method: 'get',
    path: '/v1/experiences/{idOrSlug}',
    tag,
    auth: 'optional',
    summary:
      'One activity by id or slug (`data` holds one item); `format=ical` answers an RFC 5545 calendar file. A cancelled activity is readable by its host, its attendees and admins only.',
    query: detailQuery,
    response: experienceList,
    errors: {
      404: 'No such activity, or a cancelled one the caller neither hosts nor attends',
      409: 'experience_undated (iCal of an activity without a date)',
      422: 'format_invalid',
    },
  })
  app.get('/v1/experiences/:idOrSlug', async (c) => {
    const { format } = validate(detailQuery, c.req.query())
    const { db, env } = c.var.services
    if (format === 'ical') {
      const { slug, ics } = await experienceIcal(env, db, c.var.caller, c.req.param('idOrSlug'))
      return c.body(ics, 200, {
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': attachmentName(slug, 'ics'),
      })
    }
    const experience = await getReadableExperience(db, c.req.param('idOrSlug'), c.var.caller)
    return c.json({ data: [await serializeExperience(db, experience, c.var.caller)] })
  })

  registry.add({
    method: 'post',
    path: '/v1/experiences',
    tag,
    auth: 'required',
    summary: 'Create an activity hosted by the caller. Times are local to the activity’s time zone. Unknown fields are ignored.',
    body: experienceInputSchema,
    response: experienceList,
    errors: { 403: 'admin_only (is_hostless, is_premium)', 422: 'Invalid fields (title_required, start_date_past, …)' },
  })
  app.post('/v1/experiences', async (c) => {
    const caller = requireCaller(c)
    const input = await parseJson(c, experienceInputSchema)
    return c.json({ data: [await createExperience(deps(c), caller, input)] }, 201)
  })

  registry.add({
    method: 'put',
    path: '/v1/experiences/{id}',
    tag,
    auth: 'required',
    summary: 'Change an activity (host or admin); send changed fields only.',
    body: experienceInputSchema,
    response: experienceList,
    errors: {
      403: 'Not the host or an admin; admin_only',
      404: 'No such activity',
      409: 'experience_canceled',
      422: 'Invalid fields (capacity_below_attendees, …)',
    },
  })
  app.put('/v1/experiences/:id', async (c) => {
    const caller = requireCaller(c)
    const input = await parseJson(c, experienceInputSchema)
    return c.json({ data: [await updateExperience(deps(c), caller, c.req.param('id'), input)] })
  })

  registry.add({
    method: 'delete',
    path: '/v1/experiences/{id}',
    tag,
    auth: 'required',
    summary: 'Cancel an activity (host or admin). Final; attendees are notified.',
    errors: { 403: 'Not the host or an admin', 404: 'No such activity' },
  })
  app.delete('/v1/experiences/:id', async (c) => {
    const caller = requireCaller(c)
    await cancelExperience(deps(c), caller, c.req.param('id'))
    return c.body(null, 204)
  })

  registry.add({
    method: 'get',
    path: '/v1/experiences/{id}/attendees',
    tag,
    auth: 'required',
    summary: 'Who is attending (paged); `format=csv` (host or admin) answers name, email, phone and joined at as CSV.',
    query: pageQuerySchema,
    response: attendeePage,
    errors: { 403: 'CSV for someone other than the host or an admin', 404: 'No such activity' },
  })
  app.get('/v1/experiences/:id/attendees', async (c) => {
    const caller = requireCaller(c)
    const query = validate(pageQuerySchema, c.req.query())
    const { db } = c.var.services
    if (query.format === 'csv') {
      const { slug, csv } = await attendeesCsv(db, caller, c.req.param('id'))
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': attachmentName(`${slug}-attendees`, 'csv'),
      })
    }
    return c.json(await listAttendees(db, caller, c.req.param('id'), query.page, query.per_page))
  })

  registry.add({
    method: 'post',
    path: '/v1/experiences/{id}/attendees',
    tag,
    auth: 'required',
    summary: 'Attend (user_id is the caller; admins may add anyone). Idempotent; never over capacity.',
    body: attendBody,
    response: experienceList,
    errors: {
      403: 'Signing up someone else',
      404: 'No such activity or member',
      409: 'experience_full (the notify list is open), experience_past, experience_canceled',
    },
  })
  app.post('/v1/experiences/:id/attendees', async (c) => {
    const caller = requireCaller(c)
    const { user_id } = await parseJson(c, attendBody)
    return c.json({ data: [await attend(c.var.services.db, caller, c.req.param('id'), user_id)] })
  })

  registry.add({
    method: 'delete',
    path: '/v1/experiences/{id}/attendees/{userId}',
    tag,
    auth: 'required',
    summary:
      'Cancel a seat (the member, the host or an admin). Within 12 h of the start it is recorded as late with the no-show fee; the freed seat goes to the notify list.',
    response: z.object({ data: z.array(experienceJson), metadata: z.object({ late_cancellation: z.boolean() }) }),
    errors: { 403: 'Someone else’s seat', 404: 'No such activity, or not attending', 409: 'experience_past, experience_canceled' },
  })
  app.delete('/v1/experiences/:id/attendees/:userId', async (c) => {
    const caller = requireCaller(c)
    return c.json(await cancelAttendance(deps(c), caller, c.req.param('id'), c.req.param('userId')))
  })

  registry.add({
    method: 'post',
    path: '/v1/experiences/{id}/attendees/create-by-emails',
    tag,
    auth: 'required',
    summary: 'Add members by email (host or admin; at most 50).',
    body: addByEmailsSchema,
    response: addByEmailsResult,
    errors: { 403: 'Not the host or an admin', 404: 'No such activity', 409: 'experience_past, experience_canceled' },
  })
  app.post('/v1/experiences/:id/attendees/create-by-emails', async (c) => {
    const caller = requireCaller(c)
    const { emails } = await parseJson(c, addByEmailsSchema)
    return c.json({ data: [await addAttendeesByEmail(c.var.services.db, caller, c.req.param('id'), emails)] })
  })

  registry.add({
    method: 'get',
    path: '/v1/experiences/{id}/waitlist',
    tag,
    auth: 'required',
    summary: 'The notify list in join order: all of it for the host or an admin, otherwise only the caller’s entry (with the total count).',
    query: pageQuerySchema.omit({ format: true }),
    response: waitlistPage,
    errors: { 404: 'No such activity' },
  })
  app.get('/v1/experiences/:id/waitlist', async (c) => {
    const caller = requireCaller(c)
    const query = validate(pageQuerySchema, c.req.query())
    return c.json(await listWaitlist(c.var.services.db, caller, c.req.param('id'), query.page, query.per_page))
  })

  registry.add({
    method: 'post',
    path: '/v1/experiences/{id}/waitlist',
    tag,
    auth: 'required',
    summary: 'Join the notify list of a full activity (idempotent).',
    response: experienceList,
    errors: { 404: 'No such activity', 409: 'experience_not_full, already_attending, experience_past, experience_canceled' },
  })
  app.post('/v1/experiences/:id/waitlist', async (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [await joinWaitlist(c.var.services.db, caller, c.req.param('id'))] })
  })

  registry.add({
    method: 'delete',
    path: '/v1/experiences/{id}/waitlist',
    tag,
    auth: 'required',
    summary: 'Leave the notify list.',
    errors: { 404: 'No such activity' },
  })
  app.delete('/v1/experiences/:id/waitlist', async (c) => {
    const caller = requireCaller(c)
    await leaveWaitlist(c.var.services.db, caller, c.req.param('id'))
    return c.body(null, 204)
  })

  registry.add({
    method: 'get',
    path: '/v1/users/{id}/experiences',
    tag,
    auth: 'required',
    summary: 'A member’s activities, attending or hosting (that member or an admin); never cancelled ones.',
    query: userExperiencesQuerySchema,
    response: experiencePage,
    errors: { 403: 'Another member’s activities' },
  })
  app.get('/v1/users/:id/experiences', async (c) => {
    const caller = requireCaller(c)
    const query = validate(userExperiencesQuerySchema, c.req.query())
    return c.json(await listUserExperiences(c.var.services.db, caller, c.req.param('id'), query))
  })
}
