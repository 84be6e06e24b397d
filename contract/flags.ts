import { z } from 'zod'
import { languages } from './enums.ts'
import { flagKeyPattern, flagRoles } from './staff-roles.ts'

/**
 * Feature flags and variants (issue 32 §3, decision 079). A flag is on for a member when it is
 * enabled, the member matches its roles, regions and languages (an empty list matches everyone),
 * and the member's stable bucket (a hash of the flag and the member, 0–9,999) falls within its
 * rollout; a flag with variants gives each member one of them, by weight, stably.
 */
export { flagKeyPattern, flagRoles } from './staff-roles.ts'

export const flagVariantSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,29}$/, 'variant_invalid'),
  weight: z.number().int().min(1, 'variant_invalid').max(1000, 'variant_invalid'),
})

/** A flag as admins edit it (`GET/PUT v1/admin/flags`). */
export const featureFlagSchema = z
  .object({
    key: z.string().regex(flagKeyPattern, 'key_invalid'),
    description: z.string().trim().max(500, 'description_too_long'),
    enabled: z.boolean(),
    rollout_percent: z.number({ error: 'rollout_invalid' }).int('rollout_invalid').min(0, 'rollout_invalid').max(100, 'rollout_invalid'),
    variants: z.array(flagVariantSchema).max(10, 'variant_invalid'),
    roles: z.array(z.enum(flagRoles, { error: 'role_invalid' })),
    regions: z.array(z.string().regex(/^[A-Z]{2}$/, 'region_invalid')).max(60, 'region_invalid'),
    languages: z.array(z.enum(languages, { error: 'language_invalid' })),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'FeatureFlag' })
export type FeatureFlag = z.infer<typeof featureFlagSchema>

/** `PUT v1/admin/flags/{key}`: a flag created or changed (audited). */
export const featureFlagBodySchema = featureFlagSchema.omit({ key: true, updated_at: true }).meta({ id: 'FeatureFlagChange' })
export type FeatureFlagBody = z.infer<typeof featureFlagBodySchema>

/** `GET v1/flags`: the caller's value of every flag, evaluated on the server (read once per page). */
export const evaluatedFlagsSchema = z
  .record(z.string(), z.object({ on: z.boolean(), variant: z.string().nullable() }))
  .meta({ id: 'EvaluatedFlags' })
export type EvaluatedFlags = z.infer<typeof evaluatedFlagsSchema>

/**
 * `GET v1/admin/flag-provider` (decision 080): where the flags live. `builtin`: edited at
 * `/admin/flags`; a vendor (`growthbook`): edited there, refused here (409
 * `flags_managed_by_vendor`), with the keys it defines and whether it could be read.
 */
export const flagProviderInfoSchema = z
  .object({
    provider: z.enum(['builtin', 'growthbook']),
    editable: z.boolean(),
    reachable: z.boolean(),
    keys: z.array(z.string()),
  })
  .meta({ id: 'FlagProvider' })
export type FlagProviderInfo = z.infer<typeof flagProviderInfoSchema>
