import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { stripePaymentsHandlers, type TestCard } from '#tests/msw/stripe-payments.ts'
import { InvalidSignatureError } from '../verification/provider.ts'
import { signStripePayload } from '../verification/stripe.ts'
import { PaymentsVendorError } from './provider.ts'
import { createStripePayments } from './stripe.ts'

/**
 * The Stripe payments adapter (decision 073) against msw handlers written from Stripe's API
 * reference: a customer made once, Checkout in setup mode saving a test card, the default card,
 * detaching, off-session charges with Stripe's documented outcomes, signed webhooks.
 */
const secretKey = 'sk_test_circle55_payments'
const webhookSecret = 'whsec_circle55_payments'
const stripe = stripePaymentsHandlers({ secretKey, webhookSecret })
const server = setupServer(...stripe.handlers)
const payments = createStripePayments({ secretKey, webhookSecret })

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

let members = 0
function newMember() {
  members += 1
  return { id: `0b9f5a3e-0000-4000-8000-${String(members).padStart(12, '0')}`, email: `member${members}@example.com`, name: `Member ${members}` }
}

const setupInput = (customer: string, userId: string) => ({
  customer,
  userId,
  successUrl: 'https://circle55.test/account/payments?setup={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://circle55.test/account/payments?canceled=1',
  locale: 'fr',
})

/** A member with a customer and `card` saved through Checkout. */
async function memberWithCard(card: TestCard = 'pm_card_visa') {
  const member = newMember()
  const customer = await payments.ensureCustomer(member, null)
  const { ref } = await payments.startCardSetup(setupInput(customer, member.id))
  stripe.completeSetup(ref, card)
  const outcome = await payments.readCardSetup(ref)
  if (outcome.status !== 'complete') throw new Error('the setup did not complete')
  return { member, customer, card: outcome.card }
}

const charge = (customer: string, cardRef: string, idempotencyKey = `fee:${crypto.randomUUID()}`) =>
  payments.chargeOffSession({
    customer,
    cardRef,
    amountCents: 1500,
    idempotencyKey,
    description: 'Circle 55 no-show fee',
    metadata: { user_id: 'member-1', experience_id: 'experience-1' },
  })

describe('ensureCustomer', () => {
  it('answers an existing customer as is, without calling Stripe', async () => {
    const before = stripe.requests.length
    expect(await payments.ensureCustomer(newMember(), 'cus_existing')).toBe('cus_existing')
    expect(stripe.requests.length).toBe(before)
  })

  it('creates one customer with the member’s email, name and id, however often it is retried', async () => {
    const member = newMember()
    const first = await payments.ensureCustomer(member, null)
    const retried = await payments.ensureCustomer(member, null)
    expect(first).toMatch(/^cus_/)
    expect(retried).toBe(first)
    expect([...stripe.customers.values()].filter((customer) => customer.metadata.user_id === member.id)).toHaveLength(1)
    const sent = stripe.requests.filter((request) => request.path === '/v1/customers').at(-1)!
    expect(sent.idempotencyKey).toBe(`customer:${member.id}`)
    expect(Object.fromEntries(sent.params)).toEqual({ email: member.email, name: member.name, 'metadata[user_id]': member.id })
  })
})

describe('card setup through Checkout', () => {
  it('starts a setup-mode session for the customer and answers its page', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const input = setupInput(customer, member.id)
    const { ref, url } = await payments.startCardSetup(input)
    expect(ref).toMatch(/^cs_test_/)
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    const sent = stripe.requests.findLast((request) => request.path === '/v1/checkout/sessions')!
    expect(Object.fromEntries(sent.params)).toEqual({
      mode: 'setup',
      currency: 'usd',
      customer,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      locale: 'fr',
      client_reference_id: member.id,
      'setup_intent_data[metadata][user_id]': member.id,
      'payment_method_types[0]': 'card',
    })
    expect(stripe.setupIntents.get(stripe.sessions.get(ref)!.setup_intent!)!.metadata).toEqual({ user_id: member.id })
  })

  it('reads a session open until the member saves a card, then complete with the card’s brand, last four and expiry', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startCardSetup(setupInput(customer, member.id))
    expect(await payments.readCardSetup(ref)).toEqual({ status: 'open' })
    const { paymentMethod } = stripe.completeSetup(ref, 'pm_card_mastercard')
    expect(await payments.readCardSetup(ref)).toEqual({
      status: 'complete',
      card: { ref: paymentMethod.id, brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034, detached: false },
    })
    expect(paymentMethod.customer).toBe(customer)
  })

  it('answers a brand without a logo as unknown', async () => {
    expect((await memberWithCard('pm_card_jcb')).card).toMatchObject({ brand: 'unknown', last4: '0505' })
    expect((await memberWithCard('pm_card_amex')).card).toMatchObject({ brand: 'amex', last4: '0005' })
  })

  it('reads an expired session as expired', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startCardSetup(setupInput(customer, member.id))
    stripe.expire(ref)
    expect(await payments.readCardSetup(ref)).toEqual({ status: 'expired' })
  })

  it('passes a locale Checkout may not know as auto, and fails for a session Stripe does not have', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    await payments.startCardSetup({ ...setupInput(customer, member.id), locale: 'xx' })
    expect(stripe.requests.findLast((request) => request.path === '/v1/checkout/sessions')!.params.get('locale')).toBe('auto')
    await expect(payments.readCardSetup('cs_test_unknown')).rejects.toThrow(PaymentsVendorError)
  })
})

describe('setDefaultCard and detachCard', () => {
  it('sets the customer’s default payment method', async () => {
    const { customer, card } = await memberWithCard()
    await payments.setDefaultCard(customer, card.ref)
    expect(stripe.requests.at(-1)!.path).toBe(`/v1/customers/${customer}`)
    expect(Object.fromEntries(stripe.requests.at(-1)!.params)).toEqual({ 'invoice_settings[default_payment_method]': card.ref })
    expect(stripe.customers.get(customer)!.invoice_settings.default_payment_method).toBe(card.ref)
  })

  it('fails when Stripe refuses the card as a default (not the customer’s)', async () => {
    const { card } = await memberWithCard()
    const other = await payments.ensureCustomer(newMember(), null)
    await expect(payments.setDefaultCard(other, card.ref)).rejects.toThrow(PaymentsVendorError)
  })

  it('detaches a card; detaching it again, or a card Stripe never had, is not an error', async () => {
    const { customer, card } = await memberWithCard()
    await payments.detachCard(card.ref)
    expect(stripe.paymentMethods.get(card.ref)!.customer).toBeNull()
    await payments.detachCard(card.ref)
    await payments.detachCard('pm_never_existed')
    expect(stripe.requests.filter((request) => request.path === `/v1/payment_methods/${card.ref}/detach`)).toHaveLength(2)
    // Detached, it can no longer be charged.
    await expect(charge(customer, card.ref)).rejects.toThrow(PaymentsVendorError)
  })
})

describe('chargeOffSession', () => {
  it('charges a saved card off-session and answers the succeeded PaymentIntent', async () => {
    const { customer, card } = await memberWithCard('pm_card_visa')
    const outcome = await charge(customer, card.ref, 'fee:visa')
    expect(outcome).toEqual({ status: 'succeeded', ref: expect.stringMatching(/^pi_/) as string })
    const sent = stripe.requests.at(-1)!
    expect(sent.idempotencyKey).toBe('fee:visa')
    expect(Object.fromEntries(sent.params)).toEqual({
      amount: '1500',
      currency: 'usd',
      customer,
      payment_method: card.ref,
      off_session: 'true',
      confirm: 'true',
      description: 'Circle 55 no-show fee',
      'metadata[user_id]': 'member-1',
      'metadata[experience_id]': 'experience-1',
    })
    expect(stripe.paymentIntents.get(outcome.ref!)).toMatchObject({ status: 'succeeded', amount: 1500 })
  })

  it('charges a card authenticated at setup off-session without asking again', async () => {
    const { customer, card } = await memberWithCard('pm_card_authenticationRequiredSetupForOffSession')
    expect((await charge(customer, card.ref)).status).toBe('succeeded')
  })

  it('answers declined with the decline code and the failed PaymentIntent', async () => {
    const declined = await memberWithCard('pm_card_chargeDeclined')
    const outcome = await charge(declined.customer, declined.card.ref)
    expect(outcome).toEqual({ status: 'declined', ref: expect.stringMatching(/^pi_/) as string, code: 'generic_decline' })
    expect(stripe.paymentIntents.get(outcome.ref!)!.status).toBe('requires_payment_method')
    const poor = await memberWithCard('pm_card_chargeDeclinedInsufficientFunds')
    expect(await charge(poor.customer, poor.card.ref)).toMatchObject({ status: 'declined', code: 'insufficient_funds' })
  })

  it('answers requires_authentication when the bank wants the member to confirm', async () => {
    const { customer, card } = await memberWithCard('pm_card_authenticationRequired')
    const outcome = await charge(customer, card.ref)
    expect(outcome).toEqual({ status: 'requires_authentication', ref: expect.stringMatching(/^pi_/) as string })
    expect(stripe.paymentIntents.has(outcome.ref!)).toBe(true)
  })

  it('answers requires_authentication for a PaymentIntent Stripe answers requires_action', async () => {
    server.use(http.post('https://api.stripe.com/v1/payment_intents', () => HttpResponse.json({ id: 'pi_action', object: 'payment_intent', status: 'requires_action' })))
    expect(await charge('cus_any', 'pm_any')).toEqual({ status: 'requires_authentication', ref: 'pi_action' })
  })

  it('never charges twice for one idempotency key: the retry answers the first PaymentIntent', async () => {
    const { customer, card } = await memberWithCard('pm_card_visa')
    const key = `fee:${crypto.randomUUID()}`
    const first = await charge(customer, card.ref, key)
    const again = await charge(customer, card.ref, key)
    expect(again).toEqual(first)
    expect([...stripe.paymentIntents.values()].filter((intent) => intent.payment_method === card.ref)).toHaveLength(1)
    // A declined charge retried is the same refusal, not a second attempt.
    const declined = await memberWithCard('pm_card_chargeDeclined')
    const refused = await charge(declined.customer, declined.card.ref, 'fee:declined-once')
    expect(await charge(declined.customer, declined.card.ref, 'fee:declined-once')).toEqual(refused)
    expect([...stripe.paymentIntents.values()].filter((intent) => intent.payment_method === declined.card.ref)).toHaveLength(1)
  })
})

describe('failures', () => {
  it('throws PaymentsVendorError with Stripe’s message for a wrong key, and creates nothing', async () => {
    const wrong = createStripePayments({ secretKey: 'sk_test_wrong', webhookSecret })
    const count = stripe.customers.size
    const refused = wrong.ensureCustomer(newMember(), null)
    await expect(refused).rejects.toThrow(PaymentsVendorError)
    await expect(refused).rejects.toThrow('Stripe answered 401: Invalid API Key provided.')
    expect(stripe.customers.size).toBe(count)
  })

  it('throws PaymentsVendorError when Stripe cannot be reached', async () => {
    server.use(http.post('https://api.stripe.com/v1/payment_intents', () => HttpResponse.error()))
    await expect(charge('cus_any', 'pm_any')).rejects.toThrow(PaymentsVendorError)
  })

  it('throws PaymentsVendorError when Stripe takes longer than the timeout', async () => {
    server.use(
      http.get('https://api.stripe.com/v1/checkout/sessions/:id', async () => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        return HttpResponse.json({ id: 'cs_test_slow', status: 'open' })
      }),
    )
    const impatient = createStripePayments({ secretKey, webhookSecret, timeoutMs: 20 })
    await expect(impatient.readCardSetup('cs_test_slow')).rejects.toThrow(PaymentsVendorError)
  })
})

describe('parseWebhook', () => {
  it('answers a signed event', async () => {
    const { card } = await memberWithCard()
    const { payload, signature } = stripe.event('payment_method.detached', stripe.paymentMethods.get(card.ref)!)
    const event = payments.parseWebhook!(payload, signature)
    expect(event).toMatchObject({ type: 'payment_method.detached', data: { object: { id: card.ref, object: 'payment_method' } } })
    expect(event.id).toMatch(/^evt_/)
  })

  it('refuses a missing or wrong signature, an altered body, an old delivery and a body that is not an event', () => {
    const object = { id: 'pi_123', object: 'payment_intent', status: 'succeeded' }
    const good = stripe.event('payment_intent.succeeded', object)
    expect(() => payments.parseWebhook!(good.payload, undefined)).toThrow(InvalidSignatureError)
    const forged = stripe.event('payment_intent.succeeded', object, { secret: 'whsec_someone_else' })
    expect(() => payments.parseWebhook!(forged.payload, forged.signature)).toThrow(InvalidSignatureError)
    expect(() => payments.parseWebhook!(good.payload.replace('"succeeded"}', '"canceled"}'), good.signature)).toThrow(InvalidSignatureError)
    const old = stripe.event('payment_intent.succeeded', object, { at: new Date(Date.now() - 301_000) })
    expect(() => payments.parseWebhook!(old.payload, old.signature)).toThrow(InvalidSignatureError)
    const notJson = 'not json'
    expect(() => payments.parseWebhook!(notJson, signStripePayload(notJson, webhookSecret))).toThrow(new InvalidSignatureError('The payload is not JSON'))
    const notEvent = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: {} })
    expect(() => payments.parseWebhook!(notEvent, signStripePayload(notEvent, webhookSecret))).toThrow(new InvalidSignatureError('Not an event'))
  })
})

describe('premium in subscription mode (decision 074)', () => {
  const subscriptionInput = (customer: string, userId: string) => ({
    customer,
    userId,
    amountCents: 2000,
    interval: 'year' as const,
    description: 'Circle 55 premium membership',
    successUrl: 'https://circle55.test/account/subscription?checkout={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://circle55.test/account/subscription?canceled=1',
    locale: 'nl',
    metadata: { subscription_id: 'sub-row-1' },
  })

  it('starts Checkout in subscription mode with a yearly inline price of $20, the customer and the metadata', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref, url } = await payments.startSubscriptionCheckout(subscriptionInput(customer, member.id))
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const session = stripe.sessions.get(ref)!
    expect(session).toMatchObject({ mode: 'subscription', customer, locale: 'nl', client_reference_id: member.id, metadata: { user_id: member.id, subscription_id: 'sub-row-1' } })
    expect(session.line_item).toEqual({ currency: 'usd', unit_amount: 2000, interval: 'year', product_name: 'Circle 55 premium membership' })
    expect(await payments.readSubscriptionCheckout(ref)).toEqual({ status: 'open' })
  })

  it('reads a paid session with its subscription expanded: the card, the subscription and a period of one year', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startSubscriptionCheckout(subscriptionInput(customer, member.id))
    const paid = stripe.completeSubscription(ref, 'pm_card_mastercard')
    const outcome = await payments.readSubscriptionCheckout(ref)
    if (outcome.status !== 'complete') throw new Error('not complete')
    expect(outcome.subscriptionRef).toBe(paid.subscription.id)
    expect(outcome.card).toEqual({ ref: paid.paymentMethod.id, brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034, detached: false })
    const days = (outcome.periodEnd.getTime() - outcome.periodStart.getTime()) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(365)
    expect(days).toBeLessThanOrEqual(366)
    expect(stripe.requests.find((request) => request.path === `/v1/checkout/sessions/${ref}`)!.params.getAll('expand[]')).toEqual(['subscription'])
    expect(paid.subscription.metadata).toEqual({ user_id: member.id, subscription_id: 'sub-row-1' })
  })

  it('answers expired for an expired session', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startSubscriptionCheckout(subscriptionInput(customer, member.id))
    stripe.expire(ref)
    expect(await payments.readSubscriptionCheckout(ref)).toEqual({ status: 'expired' })
  })

  it('cancels at the end of the period paid for', async () => {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startSubscriptionCheckout(subscriptionInput(customer, member.id))
    const { subscription } = stripe.completeSubscription(ref, 'pm_card_visa')
    await payments.cancelSubscriptionAtPeriodEnd(subscription.id)
    expect(stripe.subscriptions.get(subscription.id)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    await expect(payments.cancelSubscriptionAtPeriodEnd('sub_missing')).rejects.toBeInstanceOf(PaymentsVendorError)
  })
})

describe('Stripe Billing after the first payment (decision 076)', () => {
  /** A member's yearly subscription, paid on Checkout with `card`. */
  async function subscribed(card: TestCard = 'pm_card_visa') {
    const member = newMember()
    const customer = await payments.ensureCustomer(member, null)
    const { ref } = await payments.startSubscriptionCheckout({
      customer,
      userId: member.id,
      amountCents: 2000,
      interval: 'year',
      description: 'Circle 55 premium membership',
      successUrl: 'https://circle55.test/account/subscription',
      cancelUrl: 'https://circle55.test/account/subscription?canceled=1',
      locale: 'en',
      metadata: {},
    })
    return stripe.completeSubscription(ref, card)
  }

  it('reads a subscription with its card expanded: status, period, cancellation and card', async () => {
    const { subscription, paymentMethod } = await subscribed('pm_card_amex')
    const item = subscription.items.data[0]!
    expect(await payments.readSubscription(subscription.id)).toEqual({
      ref: subscription.id,
      status: 'active',
      providerStatus: 'active',
      periodStart: new Date(item.current_period_start * 1000),
      periodEnd: new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      card: { ref: paymentMethod.id, brand: 'amex', last4: '0005', exp_month: 12, exp_year: 2034, detached: false },
    })
    const read = stripe.requests.filter((request) => request.path === `/v1/subscriptions/${subscription.id}`)
    expect(read.map((request) => [request.method, request.params.getAll('expand[]')])).toEqual([['GET', ['default_payment_method']]])
  })

  it('maps Stripe’s statuses to ours, and reads the period from the subscription before API version 2025-03-31', async () => {
    const { subscription } = await subscribed()
    const expected = { trialing: 'active', past_due: 'past_due', unpaid: 'past_due', paused: 'past_due', canceled: 'canceled', incomplete_expired: 'canceled', incomplete: 'incomplete' } as const
    for (const [theirs, ours] of Object.entries(expected)) {
      subscription.status = theirs as keyof typeof expected
      expect(await payments.readSubscription(subscription.id), theirs).toMatchObject({ status: ours, providerStatus: theirs })
    }
    // An older API version: the period on the subscription, none on its items.
    const stored = stripe.subscriptions.get(subscription.id)!
    const { current_period_start, current_period_end } = stored.items.data[0]!
    const older = { ...stored, status: 'active', current_period_start, current_period_end, items: { object: 'list', data: [{ id: 'si_old', object: 'subscription_item' }] } }
    server.use(http.get(`https://api.stripe.com/v1/subscriptions/${subscription.id}`, () => HttpResponse.json(older)))
    expect(await payments.readSubscription(subscription.id)).toMatchObject({ status: 'active', periodEnd: new Date(current_period_end * 1000), card: null })
  })

  it('answers null for a subscription or a card Stripe does not have, and throws for a status it does not know', async () => {
    expect(await payments.readSubscription('sub_missing')).toBeNull()
    expect(await payments.readCard('pm_missing')).toBeNull()
    const { subscription } = await subscribed()
    subscription.status = 'someday' as 'active'
    await expect(payments.readSubscription(subscription.id)).rejects.toBeInstanceOf(PaymentsVendorError)
  })

  it('reads a card as a network updated it', async () => {
    const { paymentMethod } = await subscribed('pm_card_mastercard')
    stripe.updateCardByNetwork(paymentMethod.id, { exp_month: 4, exp_year: 2031, last4: '5100' })
    expect(await payments.readCard(paymentMethod.id)).toEqual({ ref: paymentMethod.id, brand: 'mastercard', last4: '5100', exp_month: 4, exp_year: 2031, detached: false })
  })
})
