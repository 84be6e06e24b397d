/** A page view as the web hands it to analytics (decision 081); the address is hashed, never kept. */
export interface AnalyticsVisit {
  url: string
  referrer: string | null
  userAgent: string | null
  address: string
  language: string | null
  signals: { gpc: boolean; dnt: boolean }
  choice: 'granted' | 'refused' | null
  userId: string | null
  impersonated: boolean
}

/** First-party analytics (api/analytics/service.ts): page views and sign-ins, recorded by the host's runtime. */
export interface WebAnalytics {
  page(visit: AnalyticsVisit): Promise<void>
  identify(visit: AnalyticsVisit & { userId: string }, method: 'sign_in' | 'sign_up'): Promise<void>
}
