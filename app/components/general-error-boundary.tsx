import { isRouteErrorResponse, Link, useRouteError, type ErrorResponse } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useBuildChanged } from '#app/utils/build-version.ts'
import { errorPageKind, type ErrorPageKind } from '#app/utils/error-page.ts'
import { reportBrowserError } from '#app/utils/error-reporting.client.ts'
import { useRootData } from '#app/utils/root-data.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { UpdateRequired } from './update-required.tsx'

type StatusHandler = (info: { error: ErrorResponse }) => ReactNode

const defaultStatusHandlers: Record<number, StatusHandler> = {
  // A change refused while the team views Circle 55 as the member says so (decision 078).
  403: ({ error }) => <ErrorPage kind="forbidden" body={(error.data as { code?: unknown } | null)?.code === 'impersonation_refused' ? 'impersonation.refused' : undefined} />,
  404: () => <ErrorPage kind="notFound" />,
}

/**
 * The error page of a route (the Epic Stack's general error boundary): a status the route threw
 * (403, 404, 503 …) gets its page from the status handlers, anything else the §8 "Something went
 * wrong" page. Every route with a loader exports it as `ErrorBoundary`, so an error keeps the
 * site's header and navigation; the page's <title> comes from `pageTitle` (meta), in <head>.
 * Errors the server met were reported there; one that happened in the browser is reported here.
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler = ({ error }) => <ErrorPage kind={errorPageKind(error.status)} />,
  unexpectedErrorHandler = () => <ErrorPage kind="generic" />,
}: {
  statusHandlers?: Record<number, StatusHandler>
  defaultStatusHandler?: StatusHandler
  unexpectedErrorHandler?: (error: unknown) => ReactNode
}) {
  const error = useRouteError()
  useReportBrowserError(error)
  const buildChanged = useBuildChanged()
  // The server now runs a newer build: the error is the old page meeting it (decision 045).
  if (buildChanged && !(isRouteErrorResponse(error) && (error.status === 403 || error.status === 404))) return <UpdateRequired />
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers?.[error.status] ?? defaultStatusHandlers[error.status] ?? defaultStatusHandler
    return <>{handler({ error })}</>
  }
  return <>{unexpectedErrorHandler(error)}</>
}

/** The §8 error page texts (`errorPage.*`): a heading, what happened, a way home. */
export function ErrorPage({ kind, body }: { kind: ErrorPageKind; body?: string }) {
  const { t } = useTranslation()
  return (
    <div className="prose">
      <h1>{t(`errorPage.${kind}.title`)}</h1>
      <p>{t(body ?? `errorPage.${kind}.body`)}</p>
      <p>
        <Link to="/">{t('errorPage.home')}</Link>
      </p>
    </div>
  )
}

/**
 * Reports an error that happened in the browser. Not a status a route threw on purpose, not an
 * error drawn with the page the server sent (the server reported it), nor one a server loader
 * raised during navigation (Remix hides its message as "Unexpected Server Error"; reported there).
 */
function useReportBrowserError(error: unknown) {
  const dsn = useRootData()?.sentryDsn
  const hydrated = useHydrated()
  const fromServerPage = useRef(!hydrated)
  useEffect(() => {
    if (isRouteErrorResponse(error) || fromServerPage.current) return
    if (error instanceof Error && error.message === 'Unexpected Server Error') return
    reportBrowserError(error, dsn)
  }, [error, dsn])
}
