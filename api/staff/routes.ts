import { createRoute } from '@hono/zod-openapi'
import { listOf, oneOf } from '#contract/common.ts'
import { z } from 'zod'
import { adminMemberSchema, changeStaffRoleBodySchema, grantStaffRoleBodySchema, staffMemberSchema, staffOverviewSchema } from '#contract/staff.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { adminMember, changeStaffRole, findMembers, grantStaffRole, listStaff, staffOverview } from './service.ts'

/** The team's start page and the team itself (issue 32 §1, decision 077). */
export function staffRoutes(routes: ApiRoutes) {
  const tags = ['staff']
  const notStaff = 'Not on the team (code forbidden)'

  const overviewRoute = createRoute({
    method: 'get',
    path: '/v1/admin/overview',
    tags,
    security: auth.required,
    summary: 'The caller’s role on the team, the tools it may use, and how many items wait in each (open reports, identity checks, support conversations, disputed fees). `data` holds one item.',
    responses: { 200: jsonContent('The overview', oneOf(staffOverviewSchema)), ...errors(auth.required, { 403: notStaff }) },
  })
  serve(routes, overviewRoute, async (c) => c.json({ data: [await staffOverview(c.var.services.db, requireCaller(c))] }))

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/staff',
    tags,
    security: auth.required,
    summary: 'The team: every member with a role (`manage:staff`, admins), by role then name.',
    responses: { 200: jsonContent('The team', listOf(staffMemberSchema)), ...errors(auth.required, { 403: 'Not an admin (code forbidden)' }) },
  })
  serve(routes, listRoute, async (c) => c.json({ data: await listStaff(c.var.services.db, requireCaller(c)) }))

  const refusals = {
    403: 'Not an admin (code forbidden)',
    409: 'One’s own role (code own_role), or a suspended member (code member_suspended)',
  }
  const grantRoute = createRoute({
    method: 'post',
    path: '/v1/admin/staff',
    tags,
    security: auth.required,
    summary: 'Give the member with this email a role on the team (audited). `data` holds the team member.',
    request: { body: jsonBody(grantStaffRoleBodySchema) },
    responses: {
      200: jsonContent('The team member', oneOf(staffMemberSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, ...refusals, 404: 'No such member (code not_found)', 422: 'email_required, email_invalid, member_not_found (in fields.email), role_invalid' }),
    },
  })
  serve(routes, grantRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, grantRoute)
    return c.json({ data: [(await grantStaffRole(c.var.services.db, caller, body, c.var.requestId))!] })
  })

  const changeRoute = createRoute({
    method: 'put',
    path: '/v1/admin/staff/{id}',
    tags,
    security: auth.required,
    summary: 'Change a team member’s role, or take them off the team with `role: null` (audited). `data` holds the team member, or nothing once they left the team.',
    request: { params: pathParams('id'), body: jsonBody(changeStaffRoleBodySchema) },
    responses: {
      200: jsonContent('The team member (none when taken off the team)', listOf(staffMemberSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, ...refusals, 404: 'No such member (code not_found)', 422: 'role_invalid' }),
    },
  })
  serve(routes, changeRoute, async (c) => {
    const caller = requireCaller(c)
    const { role } = await readJson(c, changeRoute)
    const member = await changeStaffRole(c.var.services.db, caller, c.req.param('id'), role, c.var.requestId)
    return c.json({ data: member ? [member] : [] })
  })

  const findRoute = createRoute({
    method: 'get',
    path: '/v1/admin/users',
    tags,
    security: auth.required,
    summary: 'Members whose name or email holds `q` (two characters or more; at most 20), as the team sees them (`read:user:admin`, every team role).',
    request: { query: z.object({ q: z.string().max(100, 'q_too_long').optional().meta({ description: 'Part of a name or an email address.' }) }) },
    responses: { 200: jsonContent('The members found', listOf(adminMemberSchema)), ...errors(auth.required, { 403: notStaff, 422: 'q_too_long' }) },
  })
  serve(routes, findRoute, async (c) => c.json({ data: await findMembers(c.var.services.db, requireCaller(c), readQuery(c, findRoute).q ?? '') }))

  const memberRoute = createRoute({
    method: 'get',
    path: '/v1/admin/users/{id}',
    tags,
    security: auth.required,
    summary: 'One member as the team sees them, with whether the caller may view Circle 55 as them now. `data` holds one item.',
    request: { params: pathParams('id') },
    responses: { 200: jsonContent('The member', oneOf(adminMemberSchema)), ...errors(auth.required, { 403: notStaff, 404: 'No such member (code not_found)' }) },
  })
  serve(routes, memberRoute, async (c) => c.json({ data: [await adminMember(c.var.services.db, requireCaller(c), c.req.param('id'))] }))
}
