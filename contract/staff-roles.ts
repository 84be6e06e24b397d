/**
 * The Circle 55 team's roles and tools (decision 077), without zod: the pages that list them
 * (`/admin/staff`, `/admin/flags`) load only these words, not the schemas in `staff.ts`.
 * - admin: everything, and manages the team;
 * - moderator: reports, suspensions, identity checks;
 * - support: the support inbox, and viewing a member's account as them (read-only);
 * - finance: no-show fees (disputes, waivers, refunds) and the partner offers.
 */
export const staffRoles = ['admin', 'moderator', 'support', 'finance'] as const
export type StaffRole = (typeof staffRoles)[number]

/** The team's tools, as `/admin` lists them: each present only for a role that may use it. */
export const staffTools = ['members', 'reports', 'verifications', 'support', 'payments', 'partners', 'medicare', 'staff', 'flags', 'banners', 'analytics', 'audit'] as const
export type StaffTool = (typeof staffTools)[number]

/** The roles a feature flag can be limited to: members, and each team role (decision 079). */
export const flagRoles = ['member', ...staffRoles] as const
/** A feature flag's key: lower-case letters, digits and dashes. */
export const flagKeyPattern = /^[a-z][a-z0-9-]{1,59}$/
