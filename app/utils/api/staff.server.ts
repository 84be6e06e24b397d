import { listOf } from '#contract/common.ts'
import {
  adminMemberSchema,
  impersonationSchema,
  staffMemberSchema,
  staffOverviewSchema,
  type AdminMember,
  type ImpersonationView,
  type StaffMember,
  type StaffOverview,
  type StaffRole,
} from '#contract/staff.ts'
import type { ApiTransport } from '../api.server.ts'

/** The team (decision 077): `/admin`'s overview and the roles. The only code that knows their paths. */
export function staffClient(api: ApiTransport) {
  return {
    overview: (): Promise<StaffOverview> => api.one('GET', 'v1/admin/overview', staffOverviewSchema),
    list: async (): Promise<StaffMember[]> => (await api.json('GET', 'v1/admin/staff', listOf(staffMemberSchema))).data,
    grant: (email: string, role: StaffRole): Promise<StaffMember> => api.one('POST', 'v1/admin/staff', staffMemberSchema, { body: { email, role } }),
    change: async (id: string, role: StaffRole | null) => (await api.json('PUT', `v1/admin/staff/${encodeURIComponent(id)}`, listOf(staffMemberSchema), { body: { role } })).data,
    findMembers: async (q: string): Promise<AdminMember[]> => (await api.json('GET', 'v1/admin/users', listOf(adminMemberSchema), { query: { q } })).data,
    member: (id: string): Promise<AdminMember> => api.one('GET', `v1/admin/users/${encodeURIComponent(id)}`, adminMemberSchema),
    /** Viewing Circle 55 as a member (decision 078): start, what the banner says, acting, stop. */
    impersonate: (id: string, reason: string): Promise<ImpersonationView> => api.one('POST', `v1/admin/users/${encodeURIComponent(id)}/impersonation`, impersonationSchema, { body: { reason } }),
    impersonation: (): Promise<ImpersonationView> => api.one('GET', 'v1/impersonation', impersonationSchema),
    act: (reason: string): Promise<ImpersonationView> => api.one('POST', 'v1/impersonation/acting', impersonationSchema, { body: { reason } }),
    stopImpersonating: () => api.empty('DELETE', 'v1/impersonation'),
  }
}
