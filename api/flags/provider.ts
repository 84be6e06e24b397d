import { ErrorCode, OpenFeature, type EvaluationContext, type JsonValue, type Provider, type ResolutionDetails } from '@openfeature/server-sdk'
import { randomUUID } from 'node:crypto'
import type { DB } from '../db/database.ts'
import { evaluateFlag, type FlagContext, type FlagRow } from './evaluate.ts'

/**
 * The built-in OpenFeature provider (decision 079): flags from PostgreSQL (`feature_flags`), read
 * at most every few seconds, evaluated on the server (`evaluate.ts`). A boolean flag answers
 * whether it is on; a string flag answers the member's variant. OpenFeature's client is the only
 * way the API asks about a flag, so a vendor's provider (GrowthBook, decision 080) takes its place
 * without touching a caller.
 */
const CACHE_MS = 5_000

/** Where the flags live: `builtin` (edited at `/admin/flags`) or a vendor, where they are edited instead (decision 080). */
export type FlagSource = 'builtin' | 'growthbook'

/**
 * What the API needs of a flag provider beyond OpenFeature's: where its flags are edited, their
 * keys (for `GET v1/flags`), whether their definitions could be read, and reading them again.
 */
export interface FlagProvider extends Provider {
  readonly source: FlagSource
  /** Every flag's key, sorted. */
  keys(): Promise<string[]>
  /** Whether the definitions were read (a vendor that could never be reached: every flag answers its default). */
  reachable(): Promise<boolean>
  /** Read the flags again at the next question (a change was made here). */
  invalidate(): void
}

export class PostgresFlagProvider implements FlagProvider {
  readonly metadata = { name: 'circle55-postgres' } as const
  readonly runsOn = 'server' as const
  readonly source = 'builtin' as const
  private cache: { at: number; flags: Promise<Map<string, FlagRow>> } | null = null
  private readonly db: DB

  constructor(db: DB) {
    this.db = db
  }

  /** Forgets the flags read, so a change made here is read at once (a change elsewhere within seconds). */
  invalidate() {
    this.cache = null
  }

  private flags() {
    if (!this.cache || Date.now() - this.cache.at > CACHE_MS) {
      const flags = this.db
        .selectFrom('feature_flags')
        .select(['key', 'enabled', 'rollout_percent', 'variants', 'roles', 'regions', 'languages'])
        .execute()
        .then((rows) => new Map(rows.map((row) => [row.key, row])))
      flags.catch(() => {
        if (this.cache?.flags === flags) this.cache = null
      })
      this.cache = { at: Date.now(), flags }
    }
    return this.cache.flags
  }

  async keys() {
    return [...(await this.flags()).keys()].sort()
  }

  async reachable() {
    return true
  }

  private async evaluate(flagKey: string, context: EvaluationContext) {
    const flag = (await this.flags()).get(flagKey)
    return flag ? evaluateFlag(flag, contextOf(context)) : null
  }

  async resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    const result = await this.evaluate(flagKey, context)
    if (!result) return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND }
    return { value: result.on, reason: result.reason, ...(result.variant ? { variant: result.variant } : {}) }
  }

  async resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    const result = await this.evaluate(flagKey, context)
    if (!result) return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND }
    return result.on && result.variant ? { value: result.variant, variant: result.variant, reason: result.reason } : { value: defaultValue, reason: result.reason }
  }

  async resolveNumberEvaluation(_flagKey: string, defaultValue: number): Promise<ResolutionDetails<number>> {
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH }
  }

  async resolveObjectEvaluation<T extends JsonValue>(_flagKey: string, defaultValue: T): Promise<ResolutionDetails<T>> {
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH }
  }
}

function contextOf(context: EvaluationContext): FlagContext {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null)
  return { targetingKey: text(context.targetingKey), role: text(context.role) ?? 'visitor', region: text(context.region), language: text(context.language) }
}

/**
 * An OpenFeature client over this database's provider (the built-in one unless a vendor's is
 * given, decision 080): each API runtime (and each test's) has its own domain, so two databases in
 * one process never share flags.
 */
export function createFlags(db: DB, provider: FlagProvider = new PostgresFlagProvider(db)) {
  const domain = `circle55-${randomUUID()}`
  OpenFeature.setProvider(domain, provider)
  return { client: OpenFeature.getClient(domain), provider }
}
export type Flags = ReturnType<typeof createFlags>
