import type { AppLoadContext } from '@remix-run/node'
import type { EvaluatedFlags } from '#contract/flags.ts'
import { getApi } from './auth.server.ts'

/**
 * Feature flags on web pages (decisions 079, 080). The caller's values are evaluated by the API
 * (`GET v1/flags`) and asked once per request, however many loaders want one (the root's and a
 * route's run at the same time). A loader returns only the values its page uses, never the whole
 * set: no flag reaches the browser unless the page needs it. When the API cannot answer, every
 * flag answers the caller's default and the page is drawn anyway.
 */
export function requestFlags(request: Request, context: AppLoadContext): Promise<EvaluatedFlags | null> {
  context.flags ??= getApi(request, context)
    .flags.mine()
    .catch((error: unknown) => {
      context.services.log('warn', 'Feature flags could not be read; the page uses their defaults', { error: error instanceof Error ? error.message : String(error) })
      return null
    })
  return context.flags
}

/** Whether `key` is on for the caller; `fallback` when the flag does not exist or cannot be read. */
export async function isFlagOn(request: Request, context: AppLoadContext, key: string, fallback: boolean) {
  return (await requestFlags(request, context))?.[key]?.on ?? fallback
}

/** The caller's variant of `key`; null when it is off, has no variants, or cannot be read. */
export async function flagVariant(request: Request, context: AppLoadContext, key: string) {
  return (await requestFlags(request, context))?.[key]?.variant ?? null
}
