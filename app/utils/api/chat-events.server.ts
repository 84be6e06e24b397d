import type { ApiTransport } from '../api.server.ts'

/**
 * The member's live chat (`GET v1/chat/events`, decision 032): the only code that knows its
 * path. The answer is a Server-Sent Events stream that the web tier passes on to the browser
 * unread; the browser parses each event's data with the contract (`chatMessageEventSchema`).
 */
export function chatEventsClient(api: ApiTransport) {
  return {
    open: (options: { lastEventId: string | null; signal: AbortSignal }): Promise<Response> =>
      api.stream('v1/chat/events', {
        headers: options.lastEventId ? { 'last-event-id': options.lastEventId } : {},
        signal: options.signal,
      }),
  }
}
