import type { LoaderFunctionArgs } from '@remix-run/node'
import { placeFromAddress } from '#app/utils/explore.server.ts'

/**
 * The city the visitor's internet connection is in (`{ data: [place] }` or `{ data: [] }`):
 * the city search's fallback when the browser's location is refused or unavailable (spec §2).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const place = await placeFromAddress(request, context)
  return Response.json({ data: place ? [place] : [] }, { headers: { 'Cache-Control': 'private, no-store' } })
}
