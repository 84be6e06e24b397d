/**
 * The families of the team's audit log (decision 089), without zod: `/admin/audit` loads only
 * these words, not the schemas in `audit.ts`. A row's family is its action's code before the first
 * dot (`impersonation.call` → `impersonation`); each is written by one part of the API.
 * - banner: banners (decision 084); fee: no-show fees (075); flag: feature flags (079);
 * - impersonation: viewing Circle 55 as a member, and each change tried as them (078);
 * - medicare: the agency and its list (086); partnership: the partner offers (074);
 * - report: what moderators did about a report (037); staff: roles on the team (077);
 * - suspension: a suspension lifted at its end, by Circle 55 itself (042);
 * - user: a member's own account (sign-up, email, sign-out everywhere, deletion);
 * - verification: identity checks decided, by the team or by Stripe (025).
 */
export const auditKinds = ['banner', 'fee', 'flag', 'impersonation', 'medicare', 'partnership', 'report', 'staff', 'suspension', 'user', 'verification'] as const
export type AuditKind = (typeof auditKinds)[number]

/** A row's family: its known one, or `other` for one this list does not name yet. */
export function auditKindOf(action: string): AuditKind | 'other' {
  const family = action.split('.', 1)[0] ?? ''
  return (auditKinds as readonly string[]).includes(family) ? (family as AuditKind) : 'other'
}

/** Entries a page of the audit log holds. */
export const auditPageSize = 50
/** A nested value of a row's details is written as JSON and cut to this many characters. */
export const auditDetailLength = 200
