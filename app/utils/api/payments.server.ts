import { listOf } from '#contract/common.ts'
import {
  builtinCheckoutSchema,
  cardSetupSchema,
  paymentMethodSchema,
  type BuiltinCardBody,
  type BuiltinCheckout,
  type CardSetup,
  type PaymentMethod,
} from '#contract/payments.ts'
import type { ApiTransport } from '../api.server.ts'

const checkoutPath = (id: string) => `v1/payments/checkout/${encodeURIComponent(id)}`

/** Payment cards (spec §7 `v1/payment-methods…`, decision 073): the only code that knows their paths. */
export function paymentsClient(api: ApiTransport) {
  return {
    /** The member's cards, the default first. */
    cards: async (): Promise<PaymentMethod[]> => (await api.json('GET', 'v1/payment-methods', listOf(paymentMethodSchema))).data,
    /** Starts "Add a card": `redirect_url` is the provider's hosted card page; the member comes back to `returnPath?setup={id}`. */
    startSetup: (returnPath?: string): Promise<CardSetup> =>
      api.one('POST', 'v1/payment-methods/setup', cardSetupSchema, { body: returnPath ? { return_path: returnPath } : {} }),
    /** What came of a setup (the card, once saved). */
    setup: (id: string): Promise<CardSetup> => api.one('GET', `v1/payment-methods/setup/${encodeURIComponent(id)}`, cardSetupSchema),
    makeDefault: (id: string): Promise<PaymentMethod> => api.one('POST', 'v1/payment-methods/default', paymentMethodSchema, { query: { id } }),
    remove: (id: string) => api.empty('DELETE', `v1/payment-methods/${encodeURIComponent(id)}`),
    /** The built-in hosted card page (only while no Stripe keys are set). */
    checkout: (id: string): Promise<BuiltinCheckout> => api.one('GET', checkoutPath(id), builtinCheckoutSchema),
    submitCard: (id: string, card: BuiltinCardBody): Promise<BuiltinCheckout> => api.one('POST', `${checkoutPath(id)}/card`, builtinCheckoutSchema, { body: card }),
    authenticate: (id: string, outcome: 'confirm' | 'fail'): Promise<BuiltinCheckout> =>
      api.one('POST', `${checkoutPath(id)}/authentication`, builtinCheckoutSchema, { body: { outcome } }),
  }
}
