import type { ActionFunctionArgs, LoaderFunctionArgs, ServerBuild } from '@remix-run/node'

export interface StubRoute {
  loader?: (args: LoaderFunctionArgs) => unknown
  action?: (args: ActionFunctionArgs) => unknown
  /** A page route (it has a component) rather than a resource route. */
  page?: true
}

/**
 * A Remix server build of a few routes, for testing what the Express host does in front of
 * Remix through the real adapter (`@remix-run/express`): the request URL it builds from the
 * Host header, and the request body it streams from Node's request. A page is "rendered" as
 * JSON of its action data and errors, with the status Remix chose. `errors` collects what
 * Remix would hand to entry.server's handleError (which logs them at error level).
 */
export function stubRemixBuild(routes: Record<string, StubRoute>): { build: ServerBuild; errors: unknown[] } {
  const errors: unknown[] = []
  const manifest: ServerBuild['routes'] = { root: { id: 'root', path: '', module: {} as ServerBuild['routes'][string]['module'] } }
  for (const [path, { loader, action, page }] of Object.entries(routes)) {
    const id = `routes/${path}`
    const module = { loader, action, ...(page ? { default: () => null } : {}) }
    manifest[id] = { id, parentId: 'root', path, module: module as ServerBuild['routes'][string]['module'] }
  }
  const build: ServerBuild = {
    mode: 'production',
    entry: {
      module: {
        default: (_request, status, headers, context) =>
          Response.json(
            { actionData: context.staticHandlerContext.actionData, errors: context.staticHandlerContext.errors },
            { status, headers },
          ),
        handleError: (error) => void errors.push(error),
      },
    },
    routes: manifest,
    assets: { entry: { module: '/entry.js', imports: [] }, routes: {}, url: '/manifest.js', version: 'test' },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: { v3_singleFetch: true } as ServerBuild['future'],
    isSpaMode: false,
  }
  return { build, errors }
}
