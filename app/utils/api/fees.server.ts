import { z } from 'zod'
import { listOf } from '#contract/common.ts'
import { feePaymentSchema, noShowFeeSchema, teamFeeSchema, type NoShowFee, type TeamFee } from '#contract/fees.ts'
import type { ApiTransport } from '../api.server.ts'

export const attendanceSheetSchema = z.object({
  open: z.boolean(),
  confirmed_at: z.string().nullable(),
  attendees: z.array(z.object({ user_id: z.string(), display_name: z.string().nullable(), present: z.boolean().nullable(), fee_bound: z.boolean() })),
})
export type AttendanceSheet = z.infer<typeof attendanceSheetSchema>

const attendancePath = (id: string) => `v1/experiences/${encodeURIComponent(id)}/attendance`

/** No-show fees (decision 075): the host's attendance, the member's fees, the team's queue. The only code that knows their paths. */
export function feesClient(api: ApiTransport) {
  return {
    attendance: (experienceId: string): Promise<AttendanceSheet> => api.one('GET', attendancePath(experienceId), attendanceSheetSchema),
    markAttendance: (experienceId: string, marks: Array<{ user_id: string; present: boolean }>): Promise<AttendanceSheet> =>
      api.one('POST', attendancePath(experienceId), attendanceSheetSchema, { body: { marks } }),
    mine: async (): Promise<NoShowFee[]> => (await api.json('GET', 'v1/fees', listOf(noShowFeeSchema))).data,
    dispute: (id: string, reason: string): Promise<NoShowFee> => api.one('POST', `v1/fees/${encodeURIComponent(id)}/dispute`, noShowFeeSchema, { body: { reason } }),
    forTeam: async (): Promise<TeamFee[]> => (await api.json('GET', 'v1/admin/fees', listOf(teamFeeSchema))).data,
    waive: (id: string, reason: string) => api.empty('POST', `v1/admin/fees/${encodeURIComponent(id)}/waive`, { body: { reason } }),
    charge: (id: string) => api.empty('POST', `v1/admin/fees/${encodeURIComponent(id)}/charge`),
    refund: (id: string, reason: string) => api.empty('POST', `v1/admin/fees/${encodeURIComponent(id)}/refund`, { body: { reason } }),
    /** Where to send the member to pay the fee themselves (the provider's hosted page). */
    pay: async (id: string): Promise<string> => (await api.one('POST', `v1/fees/${encodeURIComponent(id)}/pay`, feePaymentSchema)).redirect_url,
  }
}
