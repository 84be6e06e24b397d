import { reportSchema, type Report, type ReportInput } from '#contract/reports.ts'
import type { ApiTransport } from '../api.server.ts'

/** Reports to the moderators (spec §7 reported-contents): the only code that knows their paths. */
export function reportsClient(api: ApiTransport) {
  return {
    create: (report: ReportInput): Promise<Report> => api.one('POST', 'v1/reported-contents', reportSchema, { body: report }),
  }
}
