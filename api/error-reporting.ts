import { scrubBreadcrumb, scrubEvent, scrubValue } from '#contract/error-scrub.ts'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'

export type ReportError = (error: unknown, context: Record<string, unknown>) => void

/**
 * Errors go to Sentry when SENTRY_DSN is set; otherwise they are structured log lines (the
 * request logger already records them with the request id). What reaches Sentry carries the
 * request id (a tag, so the team finds the log lines of the same request) and never what a
 * member wrote, their email or their phone number (decision 083): the context is scrubbed
 * here, and every event and breadcrumb by `beforeSend` and `beforeBreadcrumb`.
 */
export async function initErrorReporting(env: Pick<Env, 'SENTRY_DSN' | 'NODE_ENV'>, logger: Logger): Promise<ReportError> {
  if (!env.SENTRY_DSN) {
    return (error, context) => logger.error({ err: error, ...context }, 'Error reported')
  }
  const Sentry = await import('@sentry/remix')
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.NODE_ENV,
    tracesSampleRate: 0,
    // No IP addresses, cookies or users from the SDK's own integrations.
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  })
  return (error, context) => {
    const extra = scrubValue(context) as Record<string, unknown>
    const requestId = typeof context.requestId === 'string' ? context.requestId : undefined
    Sentry.captureException(error, { extra, ...(requestId ? { tags: { request_id: requestId } } : {}) })
    logger.error({ err: error, ...context }, 'Error reported to Sentry')
  }
}

/** Waits until what was reported has been sent (tests; a process about to stop). */
export async function flushErrorReports(timeoutMs = 2_000) {
  const Sentry = await import('@sentry/remix')
  return Sentry.flush(timeoutMs)
}
