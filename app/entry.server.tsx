import { PassThrough } from 'node:stream'
import type { AppLoadContext, EntryContext, HandleDocumentRequestFunction } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { NonceContext } from './utils/nonce.ts'
import { registerErrorPageTranslator } from './utils/error-page.ts'
import { createI18nInstance } from './utils/i18next.server.ts'
import { fallbackLanguage, isLanguage } from './utils/i18n.ts'

export const streamTimeout = 5_000

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
  const nonce = loadContext.cspNonce
  const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady'

  return new Promise((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true
          const body = new PassThrough()
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
          if (shellRendered) loadContext.services.log('error', 'Render error', { error: String(error), requestId: loadContext.requestId })
        },
      },
    )
    setTimeout(abort, streamTimeout + 1_000)
  })
}
export default handleRequest

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  // Loader and action errors land here; the host logs and reports them with the request id.
  console.error(error)
}
