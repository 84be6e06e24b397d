import { z } from 'zod'
import { oneOf, type ApiTransport } from '../api.server.ts'

// The report as the API records it (spec §7 reported-contents).
const reportSchema = z.object({ id: z.string() })

/** Reports of an activity (spec §7 reported-contents): the only code that knows their paths. */
export function reportsClient(api: ApiTransport) {
  return {
    create: (report: { reason: string; details: string; experience_id: string }) =>
      api.json('POST', 'v1/reported-contents', oneOf(reportSchema), { body: report }),
  }
}
