import type { LoaderFunctionArgs } from '@remix-run/node'
import { isLanguage } from '#app/utils/i18n.ts'
import { resources, serverOnlyNamespaces } from '#app/utils/i18next.server.ts'

/**
 * Every namespace of one language in one answer (decision 059): the browser loads them all
 * before it hydrates the first page, so no page it reaches by a click ever waits for or lacks a
 * translation. The same for everyone, so kept by browsers and caches; the address carries the
 * translations' version (`?v=`), so a changed translation is a new address.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  const language = params.lng
  if (!isLanguage(language) || !resources[language]) throw new Response(null, { status: 404 })
  const versioned = new URL(request.url).searchParams.get('v') === __LOCALES_VERSION__
  // The help articles come with their pages (decision 088): not downloaded before every first page.
  const namespaces = Object.fromEntries(Object.entries(resources[language]).filter(([namespace]) => !serverOnlyNamespaces.includes(namespace)))
  return Response.json(namespaces, {
    headers: { 'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300' },
  })
}
