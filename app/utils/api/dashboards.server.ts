import { adminDashboardSchema, hostDashboardSchema, type AdminDashboard, type HostDashboard } from '#contract/dashboards.ts'
import type { ApiTransport } from '../api.server.ts'

/** Dashboards (decision 082): the team's weekly numbers, and a host's own. The only code that knows their paths. */
export function dashboardsClient(api: ApiTransport) {
  return {
    admin: (): Promise<AdminDashboard> => api.one('GET', 'v1/admin/dashboard', adminDashboardSchema),
    hosting: (): Promise<HostDashboard> => api.one('GET', 'v1/users/me/hosting/dashboard', hostDashboardSchema),
  }
}
