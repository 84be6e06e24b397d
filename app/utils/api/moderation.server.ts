import { pageOf } from '#contract/common.ts'
import {
  moderationReportDetailSchema,
  moderationReportSchema,
  moderationResultSchema,
  type ModerationActionInput,
  type ModerationReportDetail,
  type ModerationResult,
} from '#contract/moderation.ts'
import type { ApiTransport } from '../api.server.ts'

/** The admins' report queue (decision 037): the only code that knows its paths. */
export function moderationClient(api: ApiTransport) {
  const report = (id: string) => `v1/admin/reports/${encodeURIComponent(id)}`
  return {
    /** Open reports, most-reported first (403 for anyone but admins). */
    queue: (page = 1) => api.json('GET', 'v1/admin/reports', pageOf(moderationReportSchema), { query: { page } }),
    report: (id: string): Promise<ModerationReportDetail> => api.one('GET', report(id), moderationReportDetailSchema),
    act: (id: string, input: ModerationActionInput): Promise<ModerationResult> =>
      api.one('POST', `${report(id)}/actions`, moderationResultSchema, { body: input }),
  }
}
