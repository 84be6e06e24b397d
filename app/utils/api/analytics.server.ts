import { oneOf } from '#contract/common.ts'
import { analyticsConsentSchema, type AnalyticsConsent } from '#contract/analytics.ts'
import type { ApiTransport } from '../api.server.ts'

/** The member's analytics consent on their account (decision 081). The only code that knows its path. */
export function analyticsClient(api: ApiTransport) {
  return {
    consent: async (options: { token?: string } = {}): Promise<AnalyticsConsent | null> =>
      (await api.json('GET', 'v1/users/me/analytics-consent', oneOf(analyticsConsentSchema), options)).data[0].choice,
    saveConsent: async (choice: AnalyticsConsent): Promise<void> => {
      await api.one('PUT', 'v1/users/me/analytics-consent', analyticsConsentSchema, { body: { choice } })
    },
  }
}
