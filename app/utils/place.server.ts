import type { AppLoadContext } from '@remix-run/node'
import { getApi } from './auth.server.ts'
import { ignoreUnlessUnavailable } from './http.server.ts'
import type { Place } from '#contract/places.ts'

/**
 * The city a city search (app/components/city-search.tsx) was submitted with: the suggestion the
 * member picked (`place`, with JavaScript) or the best match for what they typed (without it).
 * Null when nothing matches.
 */
export async function resolveCity(request: Request, context: AppLoadContext, submitted: { id: string; text: string }): Promise<Place | null> {
  const places = getApi(request, context).places
  if (submitted.id) {
    const picked = await places.get(submitted.id).catch(ignoreUnlessUnavailable)
    if (picked) return picked
  }
  if (submitted.text.trim().length < 2) return null
  const [best] = await places.search(submitted.text.trim().slice(0, 100), 1)
  return best ?? null
}
