import { data, type AppLoadContext, type HeadersFunction } from '@remix-run/node'
import { ApiError } from './api.server.ts'
import { refusedWhileViewing } from './http.server.ts'
import { markFormError } from './meta.ts'

/** A text field of a submitted form; '' when missing or when a file was sent instead. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/**
 * True when `error` means the database cannot be reached: the session store's 503 (it reads
 * PostgreSQL directly), the auth gate's or `notFoundOnMissing`'s 503, or the API answering 5xx
 * (`service_unavailable`) or not at all.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500
  if (error instanceof Response) return error.status === 503
  if (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'DataWithResponseInit') {
    return (error as { init: ResponseInit | null }).init?.status === 503
  }
  return false
}

/**
 * Runs a form action's work so that a database outage never loses what the member typed
 * (QUALITY "Reliability"). The work includes the signed-in check, because the session store is
 * in the database too: the caller reads the form before it. On an outage the answer is
 * `reply()` (the submission with a form error saying nothing was saved and to press the button
 * again) with status 503, and the page's loaders draw the page without asking the database again
 * (`loadFormPage`), so it works with JavaScript off; with it on, Remix does not reload after a 503.
 *
 * The reply may be kept by the browser for Back (`private, no-cache`, not `no-store`): after an
 * outage, Back must show the form as the member left it, not an empty one or a resubmit prompt.
 */
export async function keepFormOnOutage<T, R>(context: AppLoadContext, work: () => Promise<T>, reply: () => R) {
  try {
    return await work()
  } catch (error) {
    refusedWhileViewing(error)
    if (!isOutage(error)) throw error
    context.services.log('warn', 'Database unavailable: the form is shown again with what the member typed', {
      requestId: context.requestId,
      error: String(error instanceof ApiError ? `${error.status} ${error.code ?? ''}` : error),
    })
    context.formKeptDuringOutage = true
    markFormError(context)
    return data(reply(), { status: 503, headers: { 'Cache-Control': keptFormCacheControl } })
  }
}

export const keptFormCacheControl = 'private, no-cache'

/** True once `keepFormOnOutage` answered this request with the member's submission. */
export function isFormKeptDuringOutage(context: AppLoadContext) {
  return context.formKeptDuringOutage === true
}

/**
 * A form page's loader: `load()` normally; `fallback()` when the action has just kept the member's
 * submission during an outage, so the page is drawn (with what they typed) instead of the error
 * page, and the database is not waited for a second time.
 */
export async function loadFormPage<T, F>(context: AppLoadContext, load: () => Promise<T>, fallback: () => F | Promise<F>): Promise<T | F> {
  return isFormKeptDuringOutage(context) ? fallback() : load()
}

/**
 * A form page's document headers: its action's Cache-Control when it set one (the outage reply,
 * see `keepFormOnOutage`), else the parent's. Remix only copies Set-Cookie by itself.
 */
export const formPageHeaders: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders)
  const cacheControl = actionHeaders.get('Cache-Control')
  if (cacheControl) headers.set('Cache-Control', cacheControl)
  return headers
}
