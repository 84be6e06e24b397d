import { createRoute } from '@hono/zod-openapi'
import { listOf, oneOf } from '#contract/common.ts'
import { memberInterestSchema, memberPromptSchema, profileCatalogueSchema } from '#contract/profile-schemas.ts'
import { auth, errors, jsonContent, pathParams, serve, type ApiRoutes } from '../http/openapi.ts'
import { memberInterests, memberPrompts, profileCatalogue, readerLanguage } from './service.ts'

/** Profiles (issue 13 §1, spec §7): a member's interests and prompts, and the catalogue of choices. */
export function profileRoutes(routes: ApiRoutes) {
  const tags = ['profiles']
  const notFound = { 404: 'No such member, or one suspended, banned or deleted (code not_found)' }

  const interestsRoute = createRoute({
    method: 'get',
    path: '/v1/users/{id}/interests',
    tags,
    security: auth.required,
    summary: 'A member’s interests (`me`, an id or a slug), in the order chosen, named in the caller’s language (their locale, else Accept-Language).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The interests', listOf(memberInterestSchema)),
      ...errors(auth.required, notFound),
    },
  })
  serve(routes, interestsRoute, async (c) => {
    const language = readerLanguage(c.var.caller, c.req.header('accept-language'))
    return c.json({ data: await memberInterests(c.var.services.db, c.var.caller, c.req.param('id'), language) })
  })

  const promptsRoute = createRoute({
    method: 'get',
    path: '/v1/users/{id}/profile-prompts',
    tags,
    security: auth.required,
    summary: 'A member’s answered prompts (`me`, an id or a slug), in order, each question in the caller’s language.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The prompts and answers', listOf(memberPromptSchema)),
      ...errors(auth.required, notFound),
    },
  })
  serve(routes, promptsRoute, async (c) => {
    const language = readerLanguage(c.var.caller, c.req.header('accept-language'))
    return c.json({ data: await memberPrompts(c.var.services.db, c.var.caller, c.req.param('id'), language) })
  })

  const catalogueRoute = createRoute({
    method: 'get',
    path: '/v1/profile/catalogue',
    tags,
    security: auth.optional,
    summary: 'Every choice a profile offers (interests by group, prompts, gender, reasons for joining, employment, relationship, family, near-by visibility), in order, named in the caller’s language; `data` holds one item.',
    responses: {
      200: jsonContent('The catalogue', oneOf(profileCatalogueSchema)),
      ...errors(auth.optional),
    },
  })
  serve(routes, catalogueRoute, (c) => {
    const language = readerLanguage(c.var.caller, c.req.header('accept-language'))
    return c.json({ data: [profileCatalogue(language)] })
  })
}
