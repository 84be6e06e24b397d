import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREMIUM_TERMS_VERSION } from '#contract/subscriptions.ts'
import { createStripePayments } from '#api/providers/payments/stripe.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { stripePaymentsHandlers } from '#tests/msw/stripe-payments.ts'
import { applySubscriptionCheckout } from './service.ts'

/**
 * Premium with Stripe (decision 074) against msw handlers written from Stripe's API reference:
 * Checkout in subscription mode, the member's return or the webhook applying it once, and
 * cancelling at the period's end at Stripe too.
 */
const secretKey = 'sk_test_circle55_premium'
const webhookSecret = 'whsec_circle55_premium'
const stripe = stripePaymentsHandlers({ secretKey, webhookSecret })
const server = setupServer(...stripe.handlers)
const payments = createStripePayments({ secretKey, webhookSecret })

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {}, { payments })
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

const consent = {
  consent_to_renewal: true,
  consent_text_version: PREMIUM_TERMS_VERSION,
  consent_text: 'Premium renews each year until you cancel.',
}

describe('premium with Stripe', () => {
  it('starts Checkout in subscription mode, applies the paid session once, and cancels at the period’s end at Stripe', async () => {
    const user = await createUser(database.db)
    const token = await api.signToken(user.id)
    const call = (method: string, path: string, body?: unknown) =>
      api.request(method, path, { token, ...(body === undefined ? {} : { body }) })
    const started = await call('POST', 'v1/subscriptions/initiate', consent)
    expect(started.status).toBe(200)
    const redirect = started.json.data[0].redirect_url as string
    expect(redirect).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const [session] = [...stripe.sessions.values()].filter((entry) => entry.mode === 'subscription')
    expect(session!.line_item).toEqual({
      currency: 'usd',
      unit_amount: 2000,
      interval: 'year',
      product_name: 'Circle 55 premium membership',
    })
    expect(session!.success_url).toBe(
      `${api.env.PUBLIC_URL}/account/subscription?checkout=${started.json.data[0].subscription.id}`,
    )
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0].status).toBe('incomplete')

    const paid = stripe.completeSubscription(session!.id, 'pm_card_visa')
    // The webhook and the member's return, in either order, apply it once.
    const applied = await applySubscriptionCheckout(
      { db: database.db, payments, logger: { error: () => {} } as never },
      session!.id,
    )
    expect(applied).toMatchObject({
      status: 'active',
      provider: 'stripe',
      provider_ref: paid.subscription.id,
    })
    const me = (await call('GET', 'v1/subscriptions/me')).json.data[0]
    expect(me).toMatchObject({
      status: 'active',
      price_cents: 2000,
      card: { brand: 'visa', last4: '4242' },
    })
    expect((await call('GET', 'v1/payment-methods')).json.data).toHaveLength(1)

    const canceled = await call('POST', 'v1/subscriptions/me/cancel')
    expect(canceled.json.data[0]).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect(stripe.subscriptions.get(paid.subscription.id)!.cancel_at_period_end).toBe(true)
  })

  it('renews on the card the member makes their default, at Stripe too; a past-due plan cancelled ends at Stripe at once', async () => {
    const user = await createUser(database.db)
    const token = await api.signToken(user.id)
    const call = (method: string, path: string, body?: unknown) =>
      api.request(method, path, { token, ...(body === undefined ? {} : { body }) })
    await call('POST', 'v1/subscriptions/initiate', consent)
    const session = [...stripe.sessions.values()].filter((entry) => entry.mode === 'subscription').at(-1)!
    const paid = stripe.completeSubscription(session.id, 'pm_card_visa')
    await applySubscriptionCheckout({ db: database.db, payments, logger: { error: () => {} } as never }, session.id)

    // A second card, saved on Checkout in setup mode, then made the default.
    const setup = (await call('POST', 'v1/payment-methods/setup')).json.data[0]
    stripe.completeSetup([...stripe.sessions.keys()].at(-1)!, 'pm_card_mastercard')
    const mastercard = (await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0].payment_method
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0].card).toMatchObject({ last4: '4242' })
    expect((await call('POST', `v1/payment-methods/default?id=${mastercard.id}`)).status).toBe(200)
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0].card).toMatchObject({ brand: 'mastercard', last4: '4444' })
    const atStripe = stripe.subscriptions.get(paid.subscription.id)!
    expect(stripe.paymentMethods.get(atStripe.default_payment_method)!.card.last4).toBe('4444')

    // The renewal was refused: cancelling now ends it at Stripe at once (no more asking the bank).
    await database.db.updateTable('subscriptions').set({ status: 'past_due' }).where('provider_ref', '=', paid.subscription.id).execute()
    atStripe.status = 'past_due'
    expect((await call('POST', 'v1/subscriptions/me/cancel')).json.data[0]).toMatchObject({ status: 'canceled' })
    expect(atStripe.status).toBe('canceled')
    expect(stripe.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([`/v1/subscriptions/${paid.subscription.id}`])
  })
})
