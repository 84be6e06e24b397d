import type { LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'

/**
 * `/messenger/events`: the signed-in member's live chat as Server-Sent Events (issue 14 §2,
 * decision 032), for the messenger page's `EventSource`. The browser talks only to the web tier;
 * this passes the API's stream (`GET v1/chat/events`, with the member's token) on as it comes,
 * with the browser's `Last-Event-ID`, so a reconnect resumes without loss or duplicates.
 */
const streamHeaders = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: the host's compression leaves the stream alone (it would hold events back).
  'Cache-Control': 'private, no-store, no-transform',
  'X-Accel-Buffering': 'no',
}

/** How long a browser waits before trying again when the API cannot stream now. */
const retryLaterMs = 15_000

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  let upstream: Response
  try {
    upstream = await getApi(request, context).chatEvents.open({
      lastEventId: request.headers.get('last-event-id'),
      signal: request.signal,
    })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // Signed out or suspended meanwhile: a plain refusal ends the EventSource for good.
    if (error.status === 401 || error.status === 403) return new Response(null, { status: error.status, headers: { 'Cache-Control': 'private, no-store' } })
    // The API or its database is down, or too many tabs: an empty stream that asks the
    // browser to come back later (an error status would make EventSource give up).
    return new Response(`retry: ${retryLaterMs}\n\n`, { headers: streamHeaders })
  }
  return new Response(relay(upstream.body, request.signal), { headers: streamHeaders })
}

/**
 * The API's stream as the browser's body; when the browser goes away (`signal`), the API's
 * stream is cancelled too, so its subscription ends at once and not at the next heartbeat.
 */
function relay(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body?.getReader()
  let onAbort: (() => void) | undefined
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        void reader?.cancel().catch(() => undefined)
        try {
          controller.close()
        } catch {
          // already closed
        }
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    },
    async pull(controller) {
      if (!reader) return controller.close()
      try {
        const chunk = await reader.read()
        if (chunk.done) {
          signal.removeEventListener('abort', onAbort!)
          controller.close()
        } else controller.enqueue(chunk.value)
      } catch {
        // The API's stream broke: end this one; the browser reconnects with its last id.
        try {
          controller.close()
        } catch {
          // already closed
        }
      }
    },
    cancel() {
      if (onAbort) signal.removeEventListener('abort', onAbort)
      void reader?.cancel().catch(() => undefined)
    },
  })
}
