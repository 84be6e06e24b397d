import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'

// File-system routes under app/routes (Remix's flat-routes convention); tests beside them are not routes.
export default flatRoutes({ ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/__*.*'] }) satisfies RouteConfig
