import type { Logger } from '../../logger.ts'
import type { AnalyticsVendor, VendorMessage } from './provider.ts'

/**
 * The analytics vendor adapter: Segment's HTTP Tracking API
 * (https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/). Messages are
 * queued and sent together to `POST /v1/batch` (at most 500 KB a batch, 32 KB a message), with
 * HTTP basic auth: the source's write key as the user name, no password. Each message carries
 * `type`, `userId` or `anonymousId`, `event` (track) or `name` (page), `properties`, `context`,
 * an ISO `timestamp` and a `messageId` (Segment drops a repeated id, so a retried batch counts
 * once). `context.ip` is set to `0.0.0.0`: Segment would otherwise take our server's address
 * for the visitor's and look up a location from it.
 */
export interface SegmentOptions {
  writeKey: string
  /** Segment's API address; tests and proxies set it (the EU workspace is `https://events.eu1.segmentapis.com`). */
  baseUrl?: string
  /** Sent once this many messages wait (default 20), or `flushIntervalMs` after the first (default 5 s). */
  flushAt?: number
  flushIntervalMs?: number
  /** Attempts for a batch that failed on the network, a 429 or a 5xx (default 3); then it is dropped and logged. */
  attempts?: number
  logger?: Pick<Logger, 'warn'>
  fetch?: typeof fetch
}

const library = { name: 'circle55-server', version: '1' }
const maxBatchBytes = 450_000
const maxMessageBytes = 32_000

/** A message as Segment's HTTP API documents it. */
export function segmentMessage(message: VendorMessage): Record<string, unknown> {
  // An identify carries both: Segment then links the visitor's earlier events to the member.
  const who = { ...(message.userId ? { userId: message.userId } : {}), ...(message.anonymousId ? { anonymousId: message.anonymousId } : {}) }
  const context = { library, ip: '0.0.0.0', ...(message.locale ? { locale: message.locale } : {}), ...(message.path ? { page: { path: message.path } } : {}) }
  const common = { ...who, context, timestamp: message.timestamp.toISOString(), messageId: message.messageId }
  switch (message.type) {
    case 'track':
      return { type: 'track', ...common, event: message.event, properties: message.properties ?? {} }
    case 'page':
      return { type: 'page', ...common, properties: { ...message.properties, path: message.path } }
    case 'identify':
      // No traits: a name, email or birth date never goes to the vendor.
      return { type: 'identify', ...common, traits: {} }
  }
}

export function createSegmentAnalytics(options: SegmentOptions): AnalyticsVendor {
  const base = (options.baseUrl ?? 'https://api.segment.io').replace(/\/$/, '')
  const authorization = `Basic ${Buffer.from(`${options.writeKey}:`).toString('base64')}`
  const flushAt = options.flushAt ?? 20
  const attempts = options.attempts ?? 3
  const doFetch = (input: string, init: RequestInit) => (options.fetch ?? fetch)(input, init)
  let queue: Record<string, unknown>[] = []
  let timer: NodeJS.Timeout | null = null
  let sending: Promise<void> = Promise.resolve()

  async function post(batch: Record<string, unknown>[]) {
    const body = JSON.stringify({ batch, sentAt: new Date().toISOString() })
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let status = 0
      try {
        const response = await doFetch(`${base}/v1/batch`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        })
        status = response.status
        await response.text().catch(() => '')
        if (response.ok) return
      } catch {
        status = 0
      }
      if (status !== 0 && status !== 429 && status < 500) {
        options.logger?.warn({ status, messages: batch.length }, 'Segment refused a batch of analytics events')
        return
      }
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 200 * attempt))
      else options.logger?.warn({ status, messages: batch.length }, 'Segment could not be reached: analytics events dropped')
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    const taken = queue
    queue = []
    // Batches go one after another, each under Segment's size limit.
    const batches: Record<string, unknown>[][] = []
    let current: Record<string, unknown>[] = []
    let bytes = 0
    for (const message of taken) {
      const size = Buffer.byteLength(JSON.stringify(message))
      if (current.length > 0 && bytes + size > maxBatchBytes) {
        batches.push(current)
        current = []
        bytes = 0
      }
      current.push(message)
      bytes += size
    }
    if (current.length > 0) batches.push(current)
    sending = sending.then(async () => {
      for (const batch of batches) await post(batch)
    })
    return sending
  }

  return {
    name: 'segment',
    enqueue(message) {
      const shaped = segmentMessage(message)
      if (Buffer.byteLength(JSON.stringify(shaped)) > maxMessageBytes) return
      queue.push(shaped)
      if (queue.length >= flushAt) void flush()
      else if (!timer) {
        timer = setTimeout(() => void flush(), options.flushIntervalMs ?? 5_000)
        timer.unref()
      }
    },
    flush,
    close: flush,
  }
}
