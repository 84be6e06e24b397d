import { createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node'
import * as entry from '#app/entry.server.tsx'
import * as root from '#app/root.tsx'

type RouteModule = ServerBuild['routes'][string]['module']

/**
 * Whole documents as a browser without JavaScript gets them: Remix's own request handler over
 * the real root and the given page routes (a build of just these modules, no bundler). A form
 * POST runs the action, then every loader, then renders the HTML, exactly as in production.
 */
export function createDocumentHandler(pages: DocumentPage[]) {
  const handler = createRequestHandler(documentBuild(pages), 'production')
  return (request: Request, context: AppLoadContext) => handler(request, context)
}

/** A page route of a document build: under the root unless `parentId` names another of them. */
export interface DocumentPage {
  id: string
  path: string | undefined
  module: RouteModule
  parentId?: string
  index?: boolean
}

/**
 * The server build `createDocumentHandler` serves: the real root and entry, and `pages` under the
 * root (or their parent); for Remix's request handler or its Express adapter.
 */
export function documentBuild(pages: DocumentPage[]): ServerBuild {
  const routes: ServerBuild['routes'] = {
    root: { id: 'root', path: '', module: root },
  }
  const manifestRoutes: ServerBuild['assets']['routes'] = {
    root: entryRoute('root', undefined, '', root),
  }
  for (const page of pages) {
    const parentId = page.parentId ?? 'root'
    routes[page.id] = { id: page.id, parentId, path: page.path, index: page.index, module: page.module }
    manifestRoutes[page.id] = { ...entryRoute(page.id, parentId, page.path, page.module), index: page.index }
  }
  const build: ServerBuild = {
    mode: 'production',
    entry: { module: entry },
    routes,
    assets: { entry: { imports: [], module: '/assets/entry.client.js' }, routes: manifestRoutes, url: '/assets/manifest.js', version: 'test' },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_routeConfig: true, unstable_optimizeDeps: false } as ServerBuild['future'],
    isSpaMode: false,
  }
  return build
}

function entryRoute(id: string, parentId: string | undefined, path: string | undefined, module: RouteModule) {
  return {
    id,
    parentId,
    path,
    module: `/assets/${id}.js`,
    hasAction: typeof module.action === 'function',
    hasLoader: typeof module.loader === 'function',
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: typeof module.ErrorBoundary === 'function',
  }
}

/**
 * A document's HTML as a member reads it: without React's text separators (`<!-- -->`) and the
 * word-break hints in addresses (`<wbr/>`), with apostrophes and ampersands as typed.
 */
export function readableHtml(html: string) {
  return html.replace(/<!-- -->|<wbr\/>/g, '').replaceAll('&#x27;', "'").replaceAll('&amp;', '&')
}
