/**
 * Browser errors reach error reporting (Sentry) only when the server has a DSN (SENTRY_DSN),
 * which the root loader passes down. The SDK is a separate chunk loaded on demand, once: with no
 * DSN nothing is downloaded and nothing is sent (decision 014).
 */
import { scrubBreadcrumb, scrubEvent } from '#contract/error-scrub.ts'

type Sentry = typeof import('@sentry/remix')

let sentry: Promise<Sentry | null> | null = null

export function startBrowserErrorReporting(dsn: string | null | undefined) {
  if (!dsn || sentry) return sentry
  sentry = import('@sentry/remix').then(
    (loaded) => {
      // Errors only: no tracing, no replays, no personal data; never what a member typed, their
      // email or their phone, in the event or its breadcrumbs (decision 083).
      loaded.init({
        dsn,
        tracesSampleRate: 0,
        environment: import.meta.env.MODE,
        sendDefaultPii: false,
        beforeSend: (event) => scrubEvent(event),
        beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
      })
      return loaded
    },
    () => null,
  )
  return sentry
}

/**
 * Reports an error an error boundary caught in the browser. React keeps those from
 * `window.onerror`, so Sentry's global handlers would not see them.
 */
export function reportBrowserError(error: unknown, dsn: string | null | undefined) {
  void startBrowserErrorReporting(dsn)?.then((loaded) => loaded?.captureException(error, { mechanism: { type: 'error-boundary', handled: false } }))
}

/**
 * Reports a failure the page handled itself (a block that did not save, spec §4): sent only when
 * reporting was started (the server has a DSN), with what the caller names, scrubbed like every event.
 */
export function reportHandledError(error: unknown, context: Record<string, string>) {
  void sentry?.then((loaded) => loaded?.captureException(error, { level: 'warning', tags: context }))
}
