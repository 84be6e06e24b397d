import { listOf, oneOf } from '#contract/common.ts'
import { evaluatedFlagsSchema, featureFlagSchema, flagProviderInfoSchema, type EvaluatedFlags, type FeatureFlag, type FeatureFlagBody, type FlagProviderInfo } from '#contract/flags.ts'
import type { ApiTransport } from '../api.server.ts'

/** Feature flags (decisions 079, 080): the caller's values, where flags live, and the admins' editing. The only code that knows their paths. */
export function flagsClient(api: ApiTransport) {
  return {
    mine: async (): Promise<EvaluatedFlags> => (await api.json('GET', 'v1/flags', oneOf(evaluatedFlagsSchema))).data[0],
    provider: async (): Promise<FlagProviderInfo> => (await api.json('GET', 'v1/admin/flag-provider', oneOf(flagProviderInfoSchema))).data[0],
    list: async (): Promise<FeatureFlag[]> => (await api.json('GET', 'v1/admin/flags', listOf(featureFlagSchema))).data,
    save: (key: string, body: FeatureFlagBody): Promise<FeatureFlag> => api.one('PUT', `v1/admin/flags/${encodeURIComponent(key)}`, featureFlagSchema, { body }),
  }
}
