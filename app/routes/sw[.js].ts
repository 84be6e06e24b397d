import { serviceWorkerScript } from '#app/utils/service-worker.server.ts'
import { buildVersion } from '#app/utils/build-version.ts'

/**
 * /sw.js, the service worker (decision 045), served from the root so that it covers every page.
 * Browsers check it for a new build on each visit; it is never cached for long.
 */
export function loader() {
  return new Response(serviceWorkerScript(buildVersion), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' },
  })
}
