import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assessFees, chargeDueFees, type FeeDeps } from '#api/fees/service.ts'
import { createLogger } from '#api/logger.ts'
import { createStripePayments } from '#api/providers/payments/stripe.ts'
import { createApiHarness, createExperience, createUser, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
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

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides)
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

describe('a no-show fee on Stripe', () => {
  it('is paid by the member on Checkout in payment mode when their bank wanted confirmation, applied once from the webhook, and refunded at Stripe by the team', async () => {
    const HOUR = 3_600_000
    const deps: FeeDeps = { db: database.db, notify: testNotifier(database.db).notify, payments: createStripePayments({ secretKey, webhookSecret }), logger: createLogger(api.env) }
    const [ann, host, team] = [await member(), await member(), await member({ staff_role: 'admin' })]
    const setup = (await ann.call('POST', 'v1/payment-methods/setup')).json.data[0]
    stripe.completeSetup([...stripe.sessions.keys()].at(-1)!, 'pm_card_authenticationRequired')
    await ann.call('GET', `v1/payment-methods/setup/${setup.id}`)
    const experience = await createExperience(database.db, host.user.id, { no_show_fee_cents: 1500, start_at: new Date(Date.now() + 2 * HOUR) })
    expect((await ann.call('POST', `v1/experiences/${experience.id}/attendees`, { user_id: ann.user.id, fee_consent: true })).status).toBe(200)
    await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 2 * HOUR), end_at: new Date(Date.now() - HOUR) }).where('id', '=', experience.id).execute()
    await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [{ user_id: ann.user.id, present: false }] })
    await assessFees(deps, new Date(Date.now() + 25 * HOUR))
    // Off-session, Stripe refuses the card that always wants 3-D Secure.
    await chargeDueFees(deps, new Date(Date.now() + 80 * HOUR))
    const [fee] = (await ann.call('GET', 'v1/fees')).json.data
    expect(fee).toMatchObject({ status: 'needs_confirmation', can_pay: true })

    const started = await ann.call('POST', `v1/fees/${fee.id}/pay`)
    expect(started.json.data[0].redirect_url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    const sessionId = [...stripe.sessions.keys()].at(-1)!
    expect(stripe.sessions.get(sessionId)).toMatchObject({
      mode: 'payment',
      success_url: `${api.env.PUBLIC_URL}/account/fees?paid=${fee.id}`,
      line_item: { unit_amount: 1500, currency: 'usd', interval: null, product_name: 'Circle 55 no-show fee: Riverside walk' },
    })
    const paid = stripe.completePayment(sessionId, 'pm_card_visa')
    expect(paid.paymentIntent).toMatchObject({ description: 'Circle 55 no-show fee: Riverside walk', metadata: { fee_id: fee.id } })
    const delivery = stripe.event('checkout.session.completed', paid.session)
    expect((await deliver(delivery)).status).toBe(200)
    expect((await deliver(delivery)).status).toBe(200)
    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'charged', card: { brand: 'visa', last4: '4242' } })
    const receipts = await database.db.selectFrom('notifications').select('data').where('user_id', '=', ann.user.id).where('type', '=', 'fee.updated').execute()
    expect(receipts.filter((row) => (row.data as { step: string }).step === 'charged')).toHaveLength(1)

    expect((await team.call('POST', `v1/admin/fees/${fee.id}/refund`, { reason: 'Her bank charged twice.' })).status).toBe(204)
    expect([...stripe.refunds.values()]).toMatchObject([{ payment_intent: paid.paymentIntent.id, amount: 1500, status: 'succeeded', metadata: { fee_id: fee.id } }])
    expect(stripe.requests.filter((request) => request.path === '/v1/refunds').map((request) => request.idempotencyKey)).toEqual([`refund:${fee.id}`])
    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'refunded' })
  })
})
