import { z } from 'zod'
import { staffRoles, staffTools } from './staff-roles.ts'

/** The team's roles and tools live in `staff-roles.ts` (no zod, for the pages); the schemas below. */
export { staffRoles, staffTools, type StaffRole, type StaffTool } from './staff-roles.ts'

/** `GET v1/admin/overview`: what needs the caller's attention, for the tools their role may use. */
export const staffOverviewSchema = z
  .object({
    role: z.enum(staffRoles),
    tools: z.array(z.enum(staffTools)).meta({ description: 'The tools the caller’s role may use, in the order `/admin` lists them.' }),
    attention: z
      .object({
        reports: z.number().int().optional().meta({ description: 'Reports not handled yet.' }),
        verifications: z.number().int().optional().meta({ description: 'Identity checks waiting for a review.' }),
        support: z.number().int().optional().meta({ description: 'Support conversations whose last message is the member’s.' }),
        disputes: z.number().int().optional().meta({ description: 'No-show fees a member said are wrong.' }),
      })
      .meta({ description: 'Counts for the tools the caller may use; the others are left out.' }),
  })
  .meta({ id: 'StaffOverview' })
export type StaffOverview = z.infer<typeof staffOverviewSchema>

/** A member of the team, as `/admin/staff` lists them. */
export const staffMemberSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string().nullable(),
    role: z.enum(staffRoles),
  })
  .meta({ id: 'StaffMember' })
export type StaffMember = z.infer<typeof staffMemberSchema>

/** `POST v1/admin/staff`: give a member a role on the team, found by their email. */
export const grantStaffRoleBodySchema = z
  .object({
    email: z.string({ error: 'email_required' }).trim().min(1, 'email_required').max(254, 'email_invalid'),
    role: z.enum(staffRoles, { error: 'role_invalid' }),
  })
  .meta({ id: 'GrantStaffRole' })

/** `PUT v1/admin/staff/{id}`: change a team member's role, or (null) take them off the team. */
export const changeStaffRoleBodySchema = z.object({ role: z.enum(staffRoles, { error: 'role_invalid' }).nullable() }).meta({ id: 'ChangeStaffRole' })

/** A member as the team sees them (`/admin/members`, decision 078). */
export const adminMemberSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    display_name: z.string().nullable(),
    email: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    state: z.string(),
    suspended: z.boolean(),
    role: z.enum(staffRoles).nullable(),
    joined_at: z.string(),
    last_sign_in_at: z.string().nullable(),
    can_impersonate: z.boolean().meta({ description: 'The caller may view Circle 55 as this member now (not on the team, not suspended, and the caller’s role allows it).' }),
    viewed_as: z
      .array(
        z.object({
          staff_name: z.string(),
          reason: z.string(),
          acting_reason: z.string().nullable(),
          started_at: z.string(),
          ended_at: z.string().nullable(),
        }),
      )
      .meta({ description: 'The last 10 times the team viewed Circle 55 as this member, the newest first (decision 078): who, why, when. Only on `GET v1/admin/users/{id}`; empty in search results.' }),
  })
  .meta({ id: 'AdminMember' })
export type AdminMember = z.infer<typeof adminMemberSchema>

/** `POST v1/admin/users/{id}/impersonation` and `POST v1/impersonation/acting`: why (recorded, and told to the member). */
export const impersonationReasonBodySchema = z
  .object({ reason: z.string({ error: 'reason_required' }).trim().min(1, 'reason_required').max(500, 'reason_too_long') })
  .meta({ id: 'ImpersonationReason' })

/** Viewing Circle 55 as a member: what the banner says (decision 078). */
export const impersonationSchema = z
  .object({
    id: z.uuid(),
    subject: z.object({ id: z.uuid(), display_name: z.string().nullable() }),
    mode: z.enum(['viewing', 'acting']),
    reason: z.string(),
    started_at: z.string(),
    expires_at: z.string().meta({ description: 'It ends by itself then (30 minutes after the start, never extended).' }),
    can_act: z.boolean().meta({ description: 'The staff member’s role may switch to acting on the member’s behalf.' }),
  })
  .meta({ id: 'Impersonation' })
export type ImpersonationView = z.infer<typeof impersonationSchema>

/** The header every call made while viewing as a member carries (spec §6: the impersonation id). */
export const impersonationHeader = 'x-impersonation'
