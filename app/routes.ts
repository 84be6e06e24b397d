import type { RouteConfig } from '@remix-run/route-config'
import { remixRoutesOptionAdapter } from '@remix-run/routes-option-adapter'
import { flatRoutes } from 'remix-flat-routes'

// Folder routes in remix-flat-routes' style (decision 010): `activities+/$id.tsx` is /activities/:id,
// `_auth+/` groups pages without adding to the URL, `__name.tsx` files are a route's parts, and
// tests and server/client modules beside a route are not routes.
export default remixRoutesOptionAdapter((defineRoutes) =>
  flatRoutes('routes', defineRoutes, {
    ignoredRouteFiles: ['.*', '**/*.css', '**/*.test.{ts,tsx}', '**/__*.*', '**/*.server.*', '**/*.client.*'],
  }),
) satisfies RouteConfig
