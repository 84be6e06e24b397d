import type { Context } from 'hono'
import type { ApiEnv } from '../http/context.ts'
import { createVerificationProvider } from '../providers.ts'
import type { VerificationProvider } from '../providers/verification/provider.ts'
import type { VerificationDeps } from './service.ts'

/** Services built by hand (tests) may leave the provider out: the built-in one, over their media storage. */
const fallbacks = new WeakMap<object, VerificationProvider>()
function providerOf(services: ApiEnv['Variables']['services']) {
  if (services.verification) return services.verification
  let provider = fallbacks.get(services)
  if (!provider) {
    provider = createVerificationProvider({ env: services.env, db: services.db, storage: services.media })
    fallbacks.set(services, provider)
  }
  return provider
}

/** What the verification service needs, from a request's services (also used by account deletion). */
export function verificationDeps(c: Context<ApiEnv>): VerificationDeps {
  const { services } = c.var
  return {
    db: services.db,
    verification: providerOf(services),
    notify: services.notify,
    logger: services.logger,
    publicUrl: services.env.PUBLIC_URL,
    requestId: c.var.requestId,
  }
}
