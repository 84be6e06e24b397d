import { auditLogPageSchema, type AuditLogPage, type AuditLogQuery } from '#contract/audit.ts'
import type { ApiTransport } from '../api.server.ts'

/** The team's audit log (decision 089). The only code that knows its path. */
export function auditClient(api: ApiTransport) {
  return {
    /** A page of rows, newest first; `before` from the previous page's `metadata.next_before`. */
    list: (query: AuditLogQuery = {}): Promise<AuditLogPage> => api.json('GET', 'v1/admin/audit-log', auditLogPageSchema, { query }),
  }
}
