import { createHash } from 'node:crypto'
import type { FeatureFlagsTable } from '../db/schema.ts'
import type { Selectable } from 'kysely'

/**
 * One flag for one member (decision 079), the same answer on every server and every request:
 * - off when disabled, or when the member is not among its roles, regions or languages (an
 *   empty list matches everyone; a visitor has the role `visitor` and matches only open flags);
 * - on for the members whose bucket (the first 32 bits of SHA-256 of "flag:member", 0–9,999) is
 *   under the rollout (50% → buckets 0–4,999); a visitor is on only at 100%;
 * - the variant, when the flag has some, from a second bucket of "flag:variant:member", by weight.
 */
export type FlagRow = Pick<Selectable<FeatureFlagsTable>, 'key' | 'enabled' | 'rollout_percent' | 'variants' | 'roles' | 'regions' | 'languages'>

export interface FlagContext {
  /** The member's id; null for a visitor. */
  targetingKey: string | null
  role: string
  region: string | null
  language: string | null
}

export type FlagReason = 'DISABLED' | 'TARGETING_MATCH' | 'SPLIT' | 'STATIC'
export interface FlagResult {
  on: boolean
  variant: string | null
  reason: FlagReason
}

/** 0–9,999 for this text, evenly spread and the same everywhere. */
export function bucketOf(text: string) {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % 10_000
}

const matches = (list: readonly string[], value: string | null) => list.length === 0 || (value !== null && list.includes(value))

export function evaluateFlag(flag: FlagRow, context: FlagContext): FlagResult {
  if (!flag.enabled) return { on: false, variant: null, reason: 'DISABLED' }
  if (!matches(flag.roles, context.role) || !matches(flag.regions, context.region) || !matches(flag.languages, context.language)) {
    return { on: false, variant: null, reason: 'TARGETING_MATCH' }
  }
  if (flag.rollout_percent < 100) {
    const inside = context.targetingKey !== null && bucketOf(`${flag.key}:${context.targetingKey}`) < flag.rollout_percent * 100
    if (!inside) return { on: false, variant: null, reason: 'SPLIT' }
  }
  const variants = flag.variants
  if (variants.length === 0) return { on: true, variant: null, reason: flag.rollout_percent < 100 ? 'SPLIT' : 'STATIC' }
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0)
  let point = (bucketOf(`${flag.key}:variant:${context.targetingKey ?? 'visitor'}`) * total) / 10_000
  for (const variant of variants) {
    if (point < variant.weight) return { on: true, variant: variant.name, reason: 'SPLIT' }
    point -= variant.weight
  }
  return { on: true, variant: variants.at(-1)!.name, reason: 'SPLIT' }
}
