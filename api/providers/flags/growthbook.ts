import { GrowthBookClient, type FeatureApiResponse, type FeatureResult, type FeatureResultSource } from '@growthbook/growthbook'
import { ErrorCode, type EvaluationContext, type JsonValue, type ResolutionDetails } from '@openfeature/server-sdk'
import type { FlagProvider } from '../../flags/provider.ts'

/**
 * GrowthBook as the flag provider (decision 080, FLAGS_PROVIDER=growthbook). Its SDK connection's
 * definitions (`GET {apiHost}/api/features/{clientKey}`, https://docs.growthbook.io/app/api) are
 * fetched here and evaluated here by GrowthBook's own engine (`GrowthBookClient.evalFeature`):
 * no request per page or per flag, and nothing about a member leaves the server.
 *
 * - Fresh for `refreshMs`; older, the last definitions keep answering while they are fetched
 *   again in the background.
 * - The first question waits for the first fetch (started at boot, at most `timeoutMs`), so no
 *   flag answers "off until synchronised".
 * - GrowthBook unreachable: the last definitions stay; never read, every flag answers the
 *   caller's default, and the next attempt waits `retryMs`. Each outage is logged once, and its end.
 * - The evaluation context is the built-in provider's: the member's id (GrowthBook's usual hash
 *   attribute, `id`), `role`, `region` and `language`; a visitor has an empty id, so rollouts and
 *   experiments leave them out, as the built-in provider does below 100%.
 * - A boolean feature is on or off; a string feature is a flag with variants: on when it has a
 *   value, and the value is the variant (an experiment on a boolean feature gives its variation key).
 */
export interface GrowthBookFlagOptions {
  apiHost: string
  clientKey: string
  /** The SDK connection's key when it encrypts the payload. */
  decryptionKey?: string | undefined
  /** How long definitions are fresh; default 30 s. */
  refreshMs?: number
  /** How long a fetch may take; default 2 s. */
  timeoutMs?: number
  /** How long to wait after a failed fetch before trying again; default 5 s (at most `refreshMs`). */
  retryMs?: number
  fetch?: typeof fetch
  logger?: FlagLogger
  now?: () => number
}

export interface FlagLogger {
  warn(data: Record<string, unknown>, message: string): void
  info(data: Record<string, unknown>, message: string): void
}

const reasons: Record<FeatureResultSource, string> = {
  defaultValue: 'DEFAULT',
  force: 'TARGETING_MATCH',
  experiment: 'SPLIT',
  override: 'STATIC',
  prerequisite: 'DISABLED',
  unknownFeature: 'ERROR',
  cyclicPrerequisite: 'ERROR',
}

export class GrowthBookFlagProvider implements FlagProvider {
  readonly metadata = { name: 'growthbook' } as const
  readonly runsOn = 'server' as const
  readonly source = 'growthbook' as const
  private readonly client: GrowthBookClient
  private readonly options: Required<Pick<GrowthBookFlagOptions, 'refreshMs' | 'timeoutMs' | 'retryMs'>> & GrowthBookFlagOptions
  private loadedAt: number | null = null
  private failedAt: number | null = null
  private pending: Promise<void> | null = null

  constructor(options: GrowthBookFlagOptions) {
    const refreshMs = options.refreshMs ?? 30_000
    this.options = { timeoutMs: 2_000, ...options, refreshMs, retryMs: Math.min(options.retryMs ?? 5_000, refreshMs) }
    // Only the evaluation engine: no client key, so GrowthBook's own fetching, caching and streaming stay off.
    this.client = new GrowthBookClient(options.decryptionKey ? { decryptionKey: options.decryptionKey } : {})
  }

  private now() {
    return this.options.now?.() ?? Date.now()
  }

  /** Fetches the definitions now (once at a time); the runtime starts this at boot. */
  refresh(): Promise<void> {
    this.pending ??= this.load().finally(() => {
      this.pending = null
    })
    return this.pending
  }

  private async load() {
    const { apiHost, clientKey, timeoutMs, logger } = this.options
    const url = `${apiHost.replace(/\/$/, '')}/api/features/${encodeURIComponent(clientKey)}`
    try {
      const response = await (this.options.fetch ?? globalThis.fetch)(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
      if (!response.ok) throw new Error(`GrowthBook answered ${response.status}`)
      const payload = (await response.json()) as FeatureApiResponse | null
      if (!payload || typeof payload !== 'object' || (typeof payload.features !== 'object' && typeof payload.encryptedFeatures !== 'string')) {
        throw new Error('GrowthBook answered without features')
      }
      if (payload.encryptedFeatures && !this.options.decryptionKey) throw new Error('GrowthBook’s payload is encrypted: set GROWTHBOOK_DECRYPTION_KEY')
      await this.client.setPayload(payload)
      // A payload that could not be decrypted leaves the last definitions in place.
      if (typeof this.client.getDecryptedPayload().features !== 'object') throw new Error('GrowthBook’s payload could not be decrypted: check GROWTHBOOK_DECRYPTION_KEY')
      if (this.failedAt !== null) logger?.info({ flags: 'growthbook' }, 'GrowthBook answers again: feature flags are up to date')
      this.loadedAt = this.now()
      this.failedAt = null
    } catch (error) {
      if (this.failedAt === null) {
        logger?.warn(
          { flags: 'growthbook', error: error instanceof Error ? error.message : String(error) },
          this.loadedAt === null ? 'GrowthBook cannot be reached: every feature flag answers its default' : 'GrowthBook cannot be reached: feature flags keep their last definitions',
        )
      }
      this.failedAt = this.now()
    }
  }

  /** Whether there are definitions to answer from, fetching them when they are old (waiting only when there are none yet). */
  private async definitions() {
    const now = this.now()
    const fresh = this.loadedAt !== null && now - this.loadedAt < this.options.refreshMs
    const resting = this.failedAt !== null && now - this.failedAt < this.options.retryMs
    if (!fresh && !resting) {
      const load = this.refresh()
      if (this.loadedAt === null) await load
    } else if (this.loadedAt === null && this.pending) {
      await this.pending
    }
    return this.loadedAt !== null
  }

  async keys() {
    return (await this.definitions()) ? Object.keys(this.client.getFeatures()).sort() : []
  }

  async reachable() {
    await this.definitions()
    return this.loadedAt !== null && this.failedAt === null
  }

  invalidate() {
    this.loadedAt = this.loadedAt === null ? null : this.loadedAt - this.options.refreshMs
  }

  private async evaluate(flagKey: string, context: EvaluationContext): Promise<FeatureResult | null> {
    if (!(await this.definitions())) return null
    return this.client.evalFeature(flagKey, { attributes: attributesOf(context) })
  }

  async resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    const result = await this.evaluate(flagKey, context)
    if (!answers(result)) return failure(result, defaultValue)
    const variant = result.on ? variantOf(result) : null
    return { value: result.on, reason: reasons[result.source], ...(variant ? { variant } : {}) }
  }

  async resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    const result = await this.evaluate(flagKey, context)
    if (!answers(result)) return failure(result, defaultValue)
    const value: unknown = result.value
    if (typeof value === 'string') return { value, variant: value, reason: reasons[result.source] }
    if (value === null || value === false) return { value: defaultValue, reason: reasons[result.source] }
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH }
  }

  async resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    const result = await this.evaluate(flagKey, context)
    if (!answers(result)) return failure(result, defaultValue)
    if (typeof result.value === 'number') return { value: result.value, reason: reasons[result.source] }
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH }
  }

  async resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    const result = await this.evaluate(flagKey, context)
    if (!answers(result)) return failure(result, defaultValue)
    if (typeof result.value === 'object' && result.value !== null) return { value: result.value as T, reason: reasons[result.source] }
    return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH }
  }
}

/** Whether GrowthBook gave an answer: it was read, the flag is defined there, and its prerequisites do not loop. */
function answers(result: FeatureResult | null): result is FeatureResult {
  return result !== null && result.source !== 'unknownFeature' && result.source !== 'cyclicPrerequisite'
}

/** The caller's default, and why. */
function failure<T>(result: FeatureResult | null, defaultValue: T): ResolutionDetails<T> {
  if (!result) return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.PROVIDER_NOT_READY, errorMessage: 'GrowthBook has not been reached' }
  return { value: defaultValue, reason: 'ERROR', errorCode: result.source === 'unknownFeature' ? ErrorCode.FLAG_NOT_FOUND : ErrorCode.PARSE_ERROR }
}

function variantOf(result: FeatureResult) {
  if (typeof result.value === 'string' && result.value) return result.value
  return result.experimentResult?.inExperiment ? result.experimentResult.key : null
}

/** The built-in provider's context in GrowthBook's words: `targetingKey` is `id`, its usual hash attribute. */
function attributesOf(context: EvaluationContext) {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return { id: text(context.targetingKey), role: text(context.role) || 'visitor', region: text(context.region), language: text(context.language) }
}
