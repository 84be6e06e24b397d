import { createRoute } from '@hono/zod-openapi'
import { blockStateSchema, reachabilitySchema } from '#contract/blocks.ts'
import { auth, errors, jsonContent, pathParams, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { blockMember, getBlock, reachability, unblockMember } from './service.ts'

/**
 * Block and unblock (spec §7 `v1/block/{id}`, issue 14 §4, decision 030). Nothing is logged
 * here: who blocked whom is private.
 */
export function blockRoutes(routes: ApiRoutes) {
  const tags = ['blocks']
  const notFound = 'No such member, or a deleted one (code not_found)'

  const stateRoute = createRoute({
    method: 'get',
    path: '/v1/block/{id}',
    tags,
    security: auth.required,
    summary: 'Whether the caller blocked member `{id}`, and since when.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The caller’s block of this member', blockStateSchema),
      ...errors(auth.required, { 404: notFound }),
    },
  })
  serve(routes, stateRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getBlock(c.var.services.db, caller, c.req.param('id')))
  })

  const blockRoute = createRoute({
    method: 'put',
    path: '/v1/block/{id}',
    tags,
    security: auth.required,
    summary:
      'Block member `{id}`: neither can message the other, and they disappear from the caller’s members list and search. Idempotent (blocking again keeps the first block). The member is not told.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('The block as recorded', blockStateSchema),
      ...errors(auth.required, { 404: notFound, 422: 'The caller’s own id (cannot_block_self in fields.id)' }),
    },
  })
  serve(routes, blockRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await blockMember(c.var.services, caller, c.req.param('id')))
  })

  const unblockRoute = createRoute({
    method: 'delete',
    path: '/v1/block/{id}',
    tags,
    security: auth.required,
    summary: 'Unblock member `{id}` (answers 204). Idempotent: a member not blocked answers 204 too.',
    request: { params: pathParams('id') },
    responses: {
      204: { description: 'Not blocked (any more)' },
      ...errors(auth.required, { 404: notFound }),
    },
  })
  serve(routes, unblockRoute, async (c) => {
    const caller = requireCaller(c)
    await unblockMember(c.var.services, caller, c.req.param('id'))
    return c.body(null, 204)
  })

  const reachabilityRoute = createRoute({
    method: 'get',
    path: '/v1/block/{id}/me',
    tags,
    security: auth.required,
    summary:
      'Whether the caller can message member `{id}`: false when either blocked the other or the member is suspended or banned, without saying which (a member is never told that someone blocked them).',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('Whether the caller can reach this member', reachabilitySchema),
      ...errors(auth.required, { 404: notFound }),
    },
  })
  serve(routes, reachabilityRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await reachability(c.var.services.db, caller, c.req.param('id')))
  })
}
