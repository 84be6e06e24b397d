import { gunzipSync } from 'node:zlib'
import { http, HttpResponse } from 'msw'

/**
 * Sentry's ingestion endpoint as its SDK documentation describes it
 * (https://develop.sentry.dev/sdk/data-model/envelopes/, https://develop.sentry.dev/sdk/overview/#parsing-the-dsn):
 * a DSN `https://<public key>@<host>/<project id>` sends to `POST https://<host>/api/<project id>/envelope/`
 * (the key in the `sentry_key` query parameter or the `X-Sentry-Auth` header), a body of
 * newline-separated JSON: the envelope header, then each item's header and payload; gzip-compressed
 * when the SDK chooses (`Content-Encoding: gzip`). It answers 200 with the event's id.
 */
export interface SentryEnvelope {
  header: Record<string, unknown>
  items: { header: { type?: string } & Record<string, unknown>; payload: unknown }[]
  /** The body as sent (decompressed), to check what never appears in it. */
  raw: string
}

export function sentryHandlers(dsn: string) {
  const url = new URL(dsn)
  const project = url.pathname.replace(/^\//, '')
  const envelopes: SentryEnvelope[] = []
  const handlers = [
    http.post(`${url.origin}/api/${project}/envelope/`, async ({ request }) => {
      const key = new URL(request.url).searchParams.get('sentry_key') ?? /sentry_key=([^,\s]+)/.exec(request.headers.get('x-sentry-auth') ?? '')?.[1]
      if (key !== url.username) return HttpResponse.json({ detail: 'invalid api key' }, { status: 401 })
      const bytes = Buffer.from(await request.arrayBuffer())
      const raw = (request.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8')
      const lines = raw.split('\n').filter((line) => line.length > 0)
      const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
      const items: SentryEnvelope['items'] = []
      for (let index = 1; index + 1 < lines.length; index += 2) {
        items.push({ header: JSON.parse(lines[index] ?? '{}') as SentryEnvelope['items'][number]['header'], payload: JSON.parse(lines[index + 1] ?? 'null') as unknown })
      }
      envelopes.push({ header, items, raw })
      return HttpResponse.json({ id: header.event_id ?? null })
    }),
  ]
  return { handlers, envelopes }
}
