import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { stripePaymentsHandlers } from '#tests/msw/stripe-payments.ts'
import { PREMIUM_TERMS_VERSION } from '#contract/subscriptions.ts'

/**
 * Cards on Stripe (issue 31 §1–§2, decision 073) through the API, against msw handlers written
 * from Stripe's API reference: "Add a card" makes a Checkout Session in setup mode and sends the
 * member there; the card is recorded once whether the member's return or the signed webhook comes
 * first, and however often the webhook is delivered; a card detached at Stripe leaves the list.
 */
const secretKey = 'sk_test_circle55_payments'
const webhookSecret = 'whsec_circle55_payments'
const stripe = stripePaymentsHandlers({ secretKey, webhookSecret })
const server = setupServer(...stripe.handlers)

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret })
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

async function member() {
  const user = await createUser(database.db)
  const token = await api.signToken(user.id)
  return { user, call: (method: string, path: string, body?: unknown) => api.request(method, path, { token, ...(body === undefined ? {} : { body }) }) }
}

const deliver = (delivery: { payload: string; signature: string }) =>
  api.request('POST', 'v1/webhooks/stripe', { body: delivery.payload, headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature } })

describe('cards on Stripe', () => {
  it('sends the member to Checkout in setup mode, and records the card once: the webhook first, delivered twice, then the member’s return', async () => {
    const { user, call } = await member()
    const started = (await call('POST', 'v1/payment-methods/setup')).json.data[0]
    expect(started.redirect_url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    const sessionId = [...stripe.sessions.keys()].at(-1)!
    const session = stripe.sessions.get(sessionId)!
    expect(session).toMatchObject({ mode: 'setup', success_url: `${api.env.PUBLIC_URL}/account/payments?setup=${started.id}` })
    // The built-in hosted page is not there with Stripe.
    expect((await call('GET', `v1/payments/checkout/${sessionId}`)).status).toBe(404)

    const done = stripe.completeSetup(sessionId, 'pm_card_mastercard')
    const delivery = stripe.event('checkout.session.completed', done.session)
    expect((await deliver(delivery)).status).toBe(200)
    expect((await deliver(delivery)).status).toBe(200)
    const back = (await call('GET', `v1/payment-methods/setup/${started.id}`)).json.data[0]
    expect(back).toMatchObject({ status: 'complete', payment_method: { brand: 'mastercard', last4: '4444', is_default: true } })
    expect((await call('GET', 'v1/payment-methods')).json.data).toHaveLength(1)
    expect(await database.db.selectFrom('payment_events').select('id').where('id', '=', JSON.parse(delivery.payload).id).execute()).toHaveLength(1)
    // The customer's default at Stripe is the card, so Stripe's own retries use it too.
    const customer = await database.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect(stripe.customers.get(customer.customer_ref)?.invoice_settings.default_payment_method).toBe(done.paymentMethod.id)

    // Detached at Stripe (its dashboard): gone from the list.
    expect((await deliver(stripe.event('payment_method.detached', done.paymentMethod))).status).toBe(200)
    expect((await call('GET', 'v1/payment-methods')).json.data).toEqual([])
  })

  it('ends in the same state when the detach’s event arrives before the setup’s: the card is read again from Stripe', async () => {
    const { call } = await member()
    const started = (await call('POST', 'v1/payment-methods/setup')).json.data[0]
    const done = stripe.completeSetup([...stripe.sessions.keys()].at(-1)!, 'pm_card_amex')
    // Detached at Stripe right away (its dashboard); its event is delivered first.
    const detached = await fetch(`https://api.stripe.com/v1/payment_methods/${done.paymentMethod.id}/detach`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    })
    expect(detached.status).toBe(200)
    expect((await deliver(stripe.event('payment_method.detached', { ...done.paymentMethod, customer: null } as typeof done.paymentMethod))).status).toBe(200)
    expect((await deliver(stripe.event('checkout.session.completed', done.session))).status).toBe(200)
    expect((await call('GET', `v1/payment-methods/setup/${started.id}`)).json.data[0].status).toBe('complete')
    expect((await call('GET', 'v1/payment-methods')).json.data).toEqual([])
  })

  it('starts premium paid on Checkout from the webhook alone, once however often it is delivered', async () => {
    const { call } = await member()
    const started = await call('POST', 'v1/subscriptions/initiate', { consent_to_renewal: true, consent_text_version: PREMIUM_TERMS_VERSION, consent_text: 'Premium renews each year until you cancel.' })
    expect(started.status).toBe(200)
    const done = stripe.completeSubscription([...stripe.sessions.keys()].at(-1)!, 'pm_card_visa')
    const delivery = stripe.event('checkout.session.completed', done.session)
    expect((await deliver(delivery)).status).toBe(200)
    expect((await deliver(delivery)).status).toBe(200)
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toMatchObject({ status: 'active' })
    expect(await database.db.selectFrom('subscriptions').select('id').where('provider_ref', '=', done.subscription.id).execute()).toHaveLength(1)
  })

  it('refuses a delivery without a valid signature, and one signed too long ago', async () => {
    const { call } = await member()
    await call('POST', 'v1/payment-methods/setup')
    const done = stripe.completeSetup([...stripe.sessions.keys()].at(-1)!, 'pm_card_visa')
    const good = stripe.event('checkout.session.completed', done.session)
    expect((await deliver({ payload: good.payload, signature: 't=1,v1=00' })).status).toBe(400)
    const old = stripe.event('checkout.session.completed', done.session, { at: new Date(Date.now() - 10 * 60_000) })
    expect((await deliver(old)).status).toBe(400)
  })
})
