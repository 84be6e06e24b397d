/**
 * Browser errors reach error reporting (Sentry) only when the server has a DSN (SENTRY_DSN),
 * which the root loader passes down. The SDK is a separate chunk loaded on demand, once: with no
 * DSN nothing is downloaded and nothing is sent (decision 014).
 */
type Sentry = typeof import('@sentry/remix')

let sentry: Promise<Sentry | null> | null = null

export function startBrowserErrorReporting(dsn: string | null | undefined) {
  if (!dsn || sentry) return sentry
  sentry = import('@sentry/remix').then(
    (loaded) => {
      // Errors only: no tracing, no replays, no personal data (Sentry's defaults send none).
      loaded.init({ dsn, tracesSampleRate: 0, environment: import.meta.env.MODE })
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
