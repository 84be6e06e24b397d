import { createRoute } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import { adminDashboardSchema, dashboardQuerySchema, hostDashboardSchema } from '#contract/dashboards.ts'
import { auth, errors, jsonContent, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { adminDashboard, hostDashboard } from './service.ts'

/** Dashboards (issue 32 §5, decision 082): the team's weekly numbers, and a host's own. Never kept by a cache. */
export function dashboardRoutes(routes: ApiRoutes) {
  const tags = ['dashboards']
  const privateAnswer = { 'cache-control': 'private, no-store' }

  const adminRoute = createRoute({
    method: 'get',
    path: '/v1/admin/dashboard',
    tags,
    security: auth.required,
    summary:
      'The team’s weekly numbers (`read:analytics`, every team role), weeks in UTC: sign-ups and how far onboarding got, active members, activities created and held, who came and who did not, seats filled from notify lists, reports and how soon the team acted. Counts only; nobody is named. `data` holds one item.',
    request: { query: dashboardQuerySchema },
    responses: { 200: jsonContent('The dashboard', oneOf(adminDashboardSchema)), ...errors(auth.required, { 403: 'Not on the team (code forbidden)', 422: 'weeks_invalid' }) },
  })
  serve(routes, adminRoute, async (c) => {
    const caller = requireCaller(c)
    const { weeks } = readQuery(c, adminRoute)
    return c.json({ data: [await adminDashboard(c.var.services.db, caller, weeks)] }, 200, privateAnswer)
  })

  const hostRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/hosting/dashboard',
    tags,
    security: auth.required,
    summary:
      'The caller’s own activities in numbers, by week (each in the week of its start where it takes place): activities held, seats booked, who came, who did not, ratings. A count of 1 to 4 of “did not come” or of ratings is null, and an average needs 5 ratings. `data` holds one item.',
    request: { query: dashboardQuerySchema },
    responses: { 200: jsonContent('The dashboard', oneOf(hostDashboardSchema)), ...errors(auth.required, { 404: 'The `host-numbers` flag is off for the caller (code not_found)', 422: 'weeks_invalid' }) },
  })
  serve(routes, hostRoute, async (c) => {
    const caller = requireCaller(c)
    const { weeks } = readQuery(c, hostRoute)
    return c.json({ data: [await hostDashboard(c.var.services.db, caller, weeks)] }, 200, privateAnswer)
  })
}
