import { createRoute } from '@hono/zod-openapi'
import { adminBannerSchema, bannerInputSchema, bannerQuerySchema, bannerSchema } from '#contract/banners.ts'
import { listOf, oneOf } from '#contract/common.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { bannersAt, createBanner, endBanner, listBanners, updateBanner } from './service.ts'

/** Banners by location (spec §7 `GET v1/cms/banners`; issue 32 §4; decision 084), and the admins' editing. */
export function bannerRoutes(routes: ApiRoutes) {
  const tags = ['banners']
  const notAdmin = 'Not allowed to manage banners (code forbidden)'
  const invalid = 'title_required, title_too_long, body_required, body_too_long, text_invalid, link_invalid, starts_at_invalid, ends_at_invalid, ends_before_start, ends_too_late, area_invalid, radius_invalid, states_required, states_invalid, audience_invalid, dismiss_days_invalid'

  const showingRoute = createRoute({
    method: 'get',
    path: '/v1/cms/banners',
    tags,
    security: auth.optional,
    summary:
      'The banners showing at a point now, newest first: for everyone, and with a token for members (and premium members), without those the caller put away. Both `latitude` and `longitude` are required. Show one at a time.',
    request: { query: bannerQuerySchema },
    responses: {
      200: jsonContent('The banners showing there', listOf(bannerSchema)),
      ...errors(auth.optional, { 422: 'latitude_invalid, longitude_invalid (a missing one too)' }),
    },
  })
  serve(routes, showingRoute, async (c) => {
    const point = readQuery(c, showingRoute)
    return c.json({ data: await bannersAt(c.var.services.db, c.var.services.places, c.var.caller, point) })
  })

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/banners',
    tags,
    security: auth.required,
    summary: 'Every banner as admins edit it (`manage:banners`): showing and scheduled ones, then those that ended.',
    responses: { 200: jsonContent('The banners', listOf(adminBannerSchema)), ...errors(auth.required, { 403: notAdmin }) },
  })
  serve(routes, listRoute, async (c) => c.json({ data: await listBanners(c.var.services.db, requireCaller(c)) }))

  const createBannerRoute = createRoute({
    method: 'post',
    path: '/v1/admin/banners',
    tags,
    security: auth.required,
    summary: 'A new banner (`manage:banners`; audited). `data` holds it.',
    request: { body: jsonBody(bannerInputSchema) },
    responses: {
      201: jsonContent('The banner', oneOf(adminBannerSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 403: notAdmin, 422: invalid }),
    },
  })
  serve(routes, createBannerRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, createBannerRoute)
    return c.json({ data: [await createBanner(c.var.services.db, caller, body, c.var.requestId)] }, 201)
  })

  const updateRoute = createRoute({
    method: 'put',
    path: '/v1/admin/banners/{id}',
    tags,
    security: auth.required,
    summary: 'Changes a banner (`manage:banners`; audited with what it was). New words or a new link bring it back to members who put it away.',
    request: { params: pathParams('id'), body: jsonBody(bannerInputSchema) },
    responses: {
      200: jsonContent('The banner', oneOf(adminBannerSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 403: notAdmin, 404: 'No such banner (code not_found)', 422: invalid }),
    },
  })
  serve(routes, updateRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, updateRoute)
    return c.json({ data: [await updateBanner(c.var.services.db, caller, c.req.param('id'), body, c.var.requestId)] })
  })

  const endRoute = createRoute({
    method: 'post',
    path: '/v1/admin/banners/{id}/end',
    tags,
    security: auth.required,
    summary: 'Ends a banner now (`manage:banners`; audited); it stays listed as ended. Ending it again changes nothing.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The banner', oneOf(adminBannerSchema)),
      ...errors(auth.required, { 403: notAdmin, 404: 'No such banner (code not_found)' }),
    },
  })
  serve(routes, endRoute, async (c) => c.json({ data: [await endBanner(c.var.services.db, requireCaller(c), c.req.param('id'), c.var.requestId)] }))
}
