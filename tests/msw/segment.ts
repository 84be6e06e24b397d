import { http, HttpResponse } from 'msw'

/**
 * Segment's HTTP Tracking API as its documentation describes it
 * (https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/):
 * `POST https://api.segment.io/v1/track`, `/v1/identify`, `/v1/page` and `/v1/batch`, JSON bodies,
 * HTTP basic auth with the source's write key as the user name and an empty password. Every
 * message needs `userId` or `anonymousId`; a track needs `event`; `timestamp` is ISO 8601 and
 * `messageId` de-duplicates. A message may be at most 32 KB and a batch at most 500 KB: larger,
 * or JSON that does not parse, is answered 400; anything else 200 `{ "success": true }`.
 */
export interface SegmentMock {
  handlers: ReturnType<typeof http.post>[]
  /** Each request Segment accepted: its endpoint, Authorization header and messages (a batch's each). */
  received: { endpoint: 'track' | 'identify' | 'page' | 'batch'; authorization: string | null; messages: Record<string, unknown>[] }[]
  /** Every accepted message, in order. */
  messages(): Record<string, unknown>[]
  /** While true, Segment answers 503 (a retryable outage). */
  down: { value: boolean }
}

const maxMessageBytes = 32 * 1024
const maxBatchBytes = 500 * 1024

export function segmentHandlers(options: { writeKey: string; baseUrl?: string }): SegmentMock {
  const base = (options.baseUrl ?? 'https://api.segment.io').replace(/\/$/, '')
  const received: SegmentMock['received'] = []
  const down = { value: false }
  const bad = (message: string) => HttpResponse.json({ success: false, message }, { status: 400 })

  function check(message: Record<string, unknown>, type: string): string | null {
    if (Buffer.byteLength(JSON.stringify(message)) > maxMessageBytes) return 'Message too large'
    if (typeof message.userId !== 'string' && typeof message.anonymousId !== 'string') return 'userId or anonymousId is required'
    if (type === 'track' && typeof message.event !== 'string') return 'event is required'
    if (message.timestamp !== undefined && (typeof message.timestamp !== 'string' || Number.isNaN(Date.parse(message.timestamp)))) return 'timestamp must be ISO 8601'
    return null
  }

  const handler = (endpoint: 'track' | 'identify' | 'page' | 'batch') =>
    http.post(`${base}/v1/${endpoint}`, async ({ request }) => {
      if (down.value) return new HttpResponse(null, { status: 503 })
      const text = await request.text()
      if (Buffer.byteLength(text) > maxBatchBytes) return bad('Payload too large')
      let body: Record<string, unknown>
      try {
        body = JSON.parse(text) as Record<string, unknown>
      } catch {
        return bad('Invalid JSON')
      }
      const messages = endpoint === 'batch' ? (Array.isArray(body.batch) ? (body.batch as Record<string, unknown>[]) : null) : [{ ...body, type: endpoint }]
      if (!messages) return bad('batch is required')
      for (const message of messages) {
        const problem = check(message, String(message.type))
        if (problem) return bad(problem)
      }
      received.push({ endpoint, authorization: request.headers.get('authorization'), messages })
      return HttpResponse.json({ success: true })
    })

  return {
    handlers: [handler('track'), handler('identify'), handler('page'), handler('batch')],
    received,
    messages: () => received.flatMap((request) => request.messages),
    down,
  }
}
