import { z } from 'zod'
import { auditKinds } from './audit-kinds.ts'
import { queryInteger } from './input-validation.ts'

/**
 * The team's audit log (issue 32 §2, decision 089): who did what, as whom, to what, newest first.
 * Admins only (`read:audit`). The kinds live in `audit-kinds.ts` (no zod, for the page).
 */
export { auditKinds, auditKindOf, auditPageSize, type AuditKind } from './audit-kinds.ts'

/** `GET v1/admin/audit-log`: the filters, each optional, and the page before a row. */
export const auditLogQuerySchema = z.object({
  staff: z
    .uuid({ error: 'staff_invalid' })
    .optional()
    .meta({ description: 'A team member’s id: what they did themselves, and every change made while they viewed Circle 55 as a member.' }),
  member: z
    .uuid({ error: 'member_invalid' })
    .optional()
    .meta({ description: 'A member’s id: rows they are the actor of (themselves, or as the team viewed Circle 55 as them), the target of, or that name them (`user_id`).' }),
  kind: z.enum(auditKinds, { error: 'kind_invalid' }).optional().meta({ description: 'The family of the action: its code before the first dot.' }),
  before: queryInteger('before_invalid', (id) => id.min(1, 'before_invalid'))
    .optional()
    .meta({ type: 'integer', minimum: 1, description: 'A row’s id: the page of rows older than it (`metadata.next_before` of the page before).' }),
})
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>

const personSchema = z.object({
  id: z.uuid(),
  display_name: z.string().nullable().meta({ description: 'Null for a suspended, banned or deleted member: the generic member label.' }),
})

/** One row of the audit log as the team reads it. */
export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    action: z.string().meta({ description: 'The code of what was done (`impersonation.call`, `staff.role`, `fee.waive`…).' }),
    kind: z.enum([...auditKinds, 'other']).meta({ description: 'The action’s family (`other`: one this API version does not name).' }),
    who: personSchema
      .nullable()
      .meta({ description: 'Who did it: the team member viewing Circle 55 as a member if one was, else the actor; null for Circle 55 itself (a job, a webhook).' }),
    as_member: personSchema.nullable().meta({ description: 'The member the team viewed Circle 55 as when it was done; null otherwise.' }),
    target: z
      .object({
        type: z.string(),
        id: z.string().nullable(),
        display_name: z.string().nullable().meta({ description: 'For a member (`type` user): their display name; null otherwise, or for the generic member label.' }),
      })
      .nullable(),
    details: z
      .array(z.object({ key: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) }))
      .meta({ description: 'The row’s data, one item per field; a nested value (or null) as JSON, cut to 200 characters.' }),
    request_id: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' })
export type AuditEntry = z.infer<typeof auditEntrySchema>

/** A page of the audit log: at most 50 rows, newest first, and where the next (older) page starts. */
export const auditLogPageSchema = z
  .object({
    data: z.array(auditEntrySchema),
    metadata: z.object({
      next_before: z.number().int().nullable().meta({ description: 'Pass as `before` for the older rows; null on the last page.' }),
    }),
  })
  .meta({ id: 'AuditLogPage' })
export type AuditLogPage = z.infer<typeof auditLogPageSchema>
