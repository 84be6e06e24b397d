import type { Context } from 'hono'
import type { ApiEnv } from '../http/context.ts'
import { createPaymentsProvider } from '../providers.ts'
import type { PaymentsProvider } from '../providers/payments/provider.ts'
import type { PaymentsDeps } from './service.ts'

/** Services built by hand (tests) may leave the provider out: the one their environment names (built in unless Stripe's keys are set). */
const fallbacks = new WeakMap<object, PaymentsProvider>()
function providerOf(services: ApiEnv['Variables']['services']) {
  if (services.payments) return services.payments
  let provider = fallbacks.get(services)
  if (!provider) {
    provider = createPaymentsProvider({ env: services.env, db: services.db })
    fallbacks.set(services, provider)
  }
  return provider
}

/** What the payments service needs, from a request's services. */
export function paymentsDeps(c: Context<ApiEnv>): PaymentsDeps {
  const { services } = c.var
  return { db: services.db, payments: providerOf(services), logger: services.logger, publicUrl: services.env.PUBLIC_URL }
}
