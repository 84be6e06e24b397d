import { Transform, type TransformCallback } from 'node:stream'
import type { ActionFunctionArgs, AppLoadContext, EntryContext, HandleDataRequestFunction, HandleDocumentRequestFunction, LoaderFunctionArgs } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { buildVersion, buildVersionHeader } from './utils/build-version.ts'
import { NonceContext } from './utils/nonce.ts'
import { registerErrorPageTranslator } from './utils/error-page.ts'
import { createI18nInstance } from './utils/i18next.server.ts'
import { fallbackLanguage, isLanguage } from './utils/i18n.ts'
import { recordPageView } from './utils/analytics.server.ts'

export const streamTimeout = 5_000

/**
 * Every page shows who is signed in (the site header), so no document and no page data may be
 * kept by a browser or a shared cache: Back after signing out must not show member data
 * (QUALITY "Security", decision 014). A route that chose its own Cache-Control keeps it (a form
 * kept during an outage is `private, no-cache`, so Back shows what the member typed).
 */
export const pageCacheControl = 'private, no-store'

function keepPrivate(headers: Headers) {
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', pageCacheControl)
}

/** Which build answered: a browser running an older one offers a reload (decision 045). */
function stampBuild(headers: Headers) {
  headers.set(buildVersionHeader, buildVersion)
}

/**
 * React writes a page in 2 KB pieces; each piece would cross the web stream, the Express response
 * and the socket on its own. What is written in one turn of the event loop leaves as one chunk
 * (decision 053); a page that streams (Suspense) still goes out as each part is ready.
 */
export class CoalescingStream extends Transform {
  #pieces: Buffer[] = []
  #scheduled = false

  override _transform(piece: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.#pieces.push(piece)
    if (!this.#scheduled) {
      this.#scheduled = true
      setImmediate(() => this.#release())
    }
    done()
  }

  override _flush(done: TransformCallback) {
    this.#release()
    done()
  }

  #release() {
    this.#scheduled = false
    if (this.#pieces.length === 0) return
    const pieces = this.#pieces
    this.#pieces = []
    this.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces))
  }
}

const handleRequest: HandleDocumentRequestFunction = async (
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) => {
  const rootData = remixContext.staticHandlerContext.loaderData.root as { language?: string } | undefined
  const language = isLanguage(rootData?.language) ? rootData.language : (loadContext.language ?? fallbackLanguage)
  const i18n = await createI18nInstance(language)
  // One instance per language, so registering it again is harmless (error-page.ts).
  registerErrorPageTranslator(language, (key) => i18n.t(key, { lng: language }))
  keepPrivate(responseHeaders)
  stampBuild(responseHeaders)
  // The one place page views are recorded (decision 081): documents only, never data requests.
  recordPageView(request, responseStatusCode, remixContext.staticHandlerContext.loaderData.root as Parameters<typeof recordPageView>[2], loadContext)
  const nonce = loadContext.cspNonce
  const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady'

  return new Promise((resolve, reject) => {
    let shellRendered = false
    // A page that throws while drawing, inside the root's Suspense boundary (decision 059):
    // React would send the boundary's fallback and leave the page to the browser. It fails the
    // render instead, so Remix reports it and draws the error page, as outside a boundary.
    let failedWhileDrawing: { error: unknown } | null = null
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyEvent]() {
          if (failedWhileDrawing !== null) {
            abort()
            reject(failedWhileDrawing.error)
            return
          }
          shellRendered = true
          const body = new CoalescingStream()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Before the shell, the error rejects the render and Remix hands it to handleError
          // (then draws the error page); after it, only this sees it.
          if (shellRendered) reportServerError(error, request, loadContext)
          else failedWhileDrawing ??= { error }
        },
      },
    )
    setTimeout(abort, streamTimeout + 1_000)
  })
}
export default handleRequest

/** Page data (single fetch `.data` requests) depends on the member as much as the page. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  keepPrivate(response.headers)
  stampBuild(response.headers)
  return response
}

/**
 * Loader, action and render errors, which Remix answers with the error page and so never reach
 * the Express host's handler: reported (Sentry when configured) and logged with the request id,
 * so the error page's "our team has been notified" is true. A status answered on purpose is not
 * an error; only Remix's own (a 405 for a page without an action) gets here, and a 4xx is the
 * client's.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  reportServerError(error, request, context)
}

function reportServerError(error: unknown, request: Request, context: AppLoadContext) {
  // reportError writes the log line too (api/error-reporting.ts), with the error's stack.
  context.services.reportError(error, { requestId: context.requestId, method: request.method, path: new URL(request.url).pathname })
}
