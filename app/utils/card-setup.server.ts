import type { AppLoadContext } from '@remix-run/node'
import { cardShortName } from '#app/components/payment-card.tsx'
import { ApiError } from './api.server.ts'
import { getApi } from './auth.server.ts'
import { getT } from './i18next.server.ts'
import type { Toast } from './toast.server.ts'

/**
 * Back from the provider's hosted card page (`?setup={id}`, with `canceled=1` when the member gave
 * up; decision 073): what came of it, as the toast to say once. Reading the setup records its card.
 */
export async function cardSetupToast(request: Request, context: AppLoadContext, url: URL): Promise<Toast> {
  const setup = await getApi(request, context)
    .payments.setup(url.searchParams.get('setup') ?? '')
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    })
  if (setup?.status === 'complete' && setup.payment_method) {
    const card = cardShortName(await getT(request, context, 'payments'), setup.payment_method)
    return { kind: 'success', key: 'payments:done.saved', values: { card } }
  }
  if (url.searchParams.has('canceled') || !setup) return { kind: 'info', key: 'payments:done.canceled' }
  return { kind: 'info', key: setup.status === 'expired' ? 'payments:done.expired' : 'payments:done.open' }
}
