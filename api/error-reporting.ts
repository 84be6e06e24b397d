import type { Env } from './env.ts'
import type { Logger } from './logger.ts'

export type ReportError = (error: unknown, context: Record<string, unknown>) => void

/**
 * Errors go to Sentry when SENTRY_DSN is set; otherwise they are structured log lines (the
 * request logger already records them with the request id).
 */
export async function initErrorReporting(env: Env, logger: Logger): Promise<ReportError> {
  if (!env.SENTRY_DSN) {
    return (error, context) => logger.error({ err: error, ...context }, 'Error reported')
  }
  const Sentry = await import('@sentry/remix')
  Sentry.init({ dsn: env.SENTRY_DSN, environment: env.NODE_ENV, tracesSampleRate: 0 })
  return (error, context) => {
    Sentry.captureException(error, { extra: context })
    logger.error({ err: error, ...context }, 'Error reported to Sentry')
  }
}
