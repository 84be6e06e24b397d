import { createRoute } from '@hono/zod-openapi'
import { pageOf } from '#contract/common.ts'
import { experienceSchema, userExperiencesQuerySchema } from '#contract/experiences.ts'
import { memberSuggestionSchema, membersQuerySchema } from '#contract/members.ts'
import { publicUserSchema } from '#contract/users.ts'
import { auth, errors, jsonContent, pathParams, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { getPublicProfile, listMembers, memberExperiences } from './service.ts'

/** Public profiles and members to meet (issue 13 §3, decision 027). */
export function memberRoutes(routes: ApiRoutes) {
  const tags = ['members']

  const profileRoute = createRoute({
    method: 'get',
    path: '/users/{id}',
    tags,
    security: auth.optional,
    summary:
      'A member’s public profile, by id or slug (anonymous callers get the name only, for referral banners; a suspended or banned member only the generic label).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The member’s public profile', publicUserSchema),
      ...errors(auth.optional, { 404: 'No such member (code not_found)' }),
    },
  })
  serve(routes, profileRoute, async (c) => {
    return c.json(await getPublicProfile(c.var.services.db, c.var.services.media, c.var.caller, c.req.param('id')))
  })

  const membersRoute = createRoute({
    method: 'get',
    path: '/v1/members',
    tags,
    security: auth.required,
    summary:
      'Members to meet: people the caller has been to activities with, then members near them who share an interest (each member’s near-by visibility respected). `name` narrows this list by first name.',
    request: { query: membersQuerySchema },
    responses: {
      200: jsonContent('A page of members', pageOf(memberSuggestionSchema)),
      ...errors(auth.required, { 422: 'name_too_long, page_invalid, per_page_invalid' }),
    },
  })
  serve(routes, membersRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await listMembers(c.var.services.db, c.var.services.media, caller, readQuery(c, membersRoute)))
  })

  const userExperiencesRoute = createRoute({
    method: 'get',
    path: '/v1/users/{id}/experiences',
    tags,
    security: auth.required,
    summary:
      'A member’s activities. Their own (or any, for admins): attending or hosting. Another member’s: those they host that are coming up, or with `in_common=true` those both take part in, past and upcoming. Never canceled ones for another member.',
    request: { params: pathParams('id'), query: userExperiencesQuerySchema },
    responses: {
      200: jsonContent('A page of activities', pageOf(experienceSchema)),
      ...errors(auth.required, {
        404: 'No such member, or one the caller may not see (code not_found)',
        422: 'type_invalid, hosting_invalid, in_common_invalid, page_invalid, per_page_invalid',
      }),
    },
  })
  serve(routes, userExperiencesRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, userExperiencesRoute)
    return c.json(await memberExperiences(c.var.services.db, c.var.services.media, caller, c.req.param('id'), query))
  })
}
