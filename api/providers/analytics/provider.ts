/**
 * The analytics vendor (decision 081): every event is recorded first-party in PostgreSQL
 * (api/analytics/service.ts); a vendor, when configured, also receives the events a visitor
 * consented to, never those of staff viewing as a member, of bots, or marked first-party only.
 * Segment (`SEGMENT_WRITE_KEY`) is the one adapter; without it nothing leaves the server.
 */
export interface VendorMessage {
  type: 'track' | 'identify' | 'page'
  /** The member's id; or, for a visitor, `anonymousId` (the day's visitor hash). */
  userId?: string
  anonymousId?: string
  /** The event's name (`track`). */
  event?: string
  /** The page's path with only its campaign parameters (`page`). */
  path?: string
  /** Allow-listed properties only (contract/analytics.ts). */
  properties?: Record<string, unknown>
  locale?: string | null
  timestamp: Date
  messageId: string
}

export interface AnalyticsVendor {
  name: string
  /** Queues a message; sent in a batch soon after (never blocks the caller, never throws). */
  enqueue(message: VendorMessage): void
  /** Sends what is queued now. */
  flush(): Promise<void>
  /** Sends what is queued and stops (at shutdown, so no event is lost). */
  close(): Promise<void>
}
