import type { AnalyticsConsent, AnalyticsProps, PrivacySignals, TrackedEventName } from '#contract/analytics.ts'

/**
 * What the analytics service offers (decision 081), apart from its making (service.ts), so that
 * the request context (api/http/context.ts) can name it without importing the service.
 */
export interface Visit {
  /** The page's address as requested (the query is stripped here). */
  url: string
  referrer: string | null
  userAgent: string | null
  /** The client's address: hashed with the day's salt, never stored. */
  address: string
  language: string | null
  signals: PrivacySignals
  /** The consent cookie's (or the member's account's) answer; null when none. */
  choice: AnalyticsConsent | null
  userId: string | null
  impersonated: boolean
}

export interface TrackOptions {
  /** The member the event is about. */
  userId: string
  /** A staff member made the call as the member (decision 078). */
  impersonated?: boolean
  /** The member's own browser's GPC/DNT (only when they made the call themselves). */
  signals?: PrivacySignals
}

export interface Analytics {
  page(visit: Visit): Promise<void>
  /** A visitor signed in or up: links the day's visitor hash to the member (with consent only). */
  identify(visit: Visit & { userId: string }, method: 'sign_in' | 'sign_up'): Promise<void>
  track<N extends TrackedEventName>(name: N, props: AnalyticsProps<N>, options: TrackOptions): Promise<void>
  /** Sends what the vendor still holds (at shutdown). */
  close(): Promise<void>
}
