import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREMIUM_TERMS_VERSION } from '#contract/subscriptions.ts'
import { createBuiltinPayments } from '#api/providers/payments/builtin.ts'
import { createStripePayments } from '#api/providers/payments/stripe.ts'
import { createApiHarness, createUser, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import {
  stripePaymentsHandlers,
  type StripeDelivery,
  type TestCard,
} from '#tests/msw/stripe-payments.ts'
import { hasPremium } from './queries.ts'
import { renewSubscriptions } from './renewal.ts'
import { reconcileSubscriptions, type SyncDeps } from './sync.ts'

/**
 * Premium on Stripe after its first payment (decision 076), against msw handlers written from
 * Stripe's API reference: renewals paid and refused, a cancellation, a card a network updated,
 * each told by signed webhooks delivered twice, out of order or late, or never (the nightly
 * reconciliation), and our plan always ending as Stripe holds it.
 */
const secretKey = 'sk_test_circle55_billing'
const webhookSecret = 'whsec_circle55_billing'
const stripe = stripePaymentsHandlers({ secretKey, webhookSecret })
const server = setupServer(...stripe.handlers)
const payments = createStripePayments({ secretKey, webhookSecret })

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {}, { payments })
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

const deliver = async (...deliveries: StripeDelivery[]) => {
  for (const delivery of deliveries) {
    const response = await api.request('POST', 'v1/webhooks/stripe', {
      body: delivery.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
    })
    expect(response.status).toBe(200)
  }
}

/** A member on premium paid with `card` on Stripe Checkout, started by the webhook. */
async function premium(card: TestCard = 'pm_card_visa') {
  const user = await createUser(database.db, { locale: 'en' })
  const token = await api.signToken(user.id)
  const call = (method: string, path: string) => api.request(method, path, { token })
  const started = await api.request('POST', 'v1/subscriptions/initiate', {
    token,
    body: {
      consent_to_renewal: true,
      consent_text_version: PREMIUM_TERMS_VERSION,
      consent_text: 'Premium renews each year until you cancel.',
    },
  })
  expect(started.status).toBe(200)
  const sessionId = [...stripe.sessions.keys()].at(-1)!
  const paid = stripe.completeSubscription(sessionId, card)
  await deliver(stripe.event('checkout.session.completed', paid.session))
  return { user, call, ...paid, plan: () => planOf(paid.subscription.id) }
}

const planOf = (ref: string) =>
  database.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('provider', '=', 'stripe')
    .where('provider_ref', '=', ref)
    .executeTakeFirstOrThrow()

/** Stripe's current period of a subscription (on its item, API 2025-03-31 and later). */
const stripePeriod = (ref: string) => {
  const item = stripe.subscriptions.get(ref)!.items.data[0]!
  return {
    start: new Date(item.current_period_start * 1000),
    end: new Date(item.current_period_end * 1000),
  }
}

const toldOfFailure = async (userId: string) =>
  database.db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', 'subscription.payment_failed')
    .execute()

describe('renewals on Stripe', () => {
  it('a paid renewal (invoice.paid) moves the period on a year; delivered twice, it is applied once', async () => {
    const { plan, subscription } = await premium()
    const before = await plan()
    const renewal = stripe.renewSubscription(subscription.id)
    const invoicePaid = renewal.events[1]!
    await deliver(invoicePaid, invoicePaid)
    const after = await plan()
    expect(after).toMatchObject({
      status: 'active',
      current_period_start: before.current_period_end,
    })
    expect(after.current_period_end).toEqual(stripePeriod(subscription.id).end)
    expect(after.current_period_end!.getUTCFullYear()).toBe(
      before.current_period_end!.getUTCFullYear() + 1,
    )
    // Only the invoice's first delivery read the subscription.
    const reads = stripe.requests.filter(
      (request) =>
        request.method === 'GET' && request.path === `/v1/subscriptions/${subscription.id}`,
    )
    expect(reads).toHaveLength(1)
  })

  it('a refused renewal (invoice.payment_failed) makes the plan past due and tells the member once; premium holds for the grace days', async () => {
    // Attaching succeeds, charges fail: the plan starts (this double's Checkout charges nothing) and its renewal is refused.
    const { user, call, plan, subscription } = await premium('pm_card_chargeCustomerFail')
    const paidUntil = (await plan()).current_period_end!
    const renewal = stripe.renewSubscription(subscription.id)
    expect(renewal.subscription.status).toBe('past_due')
    // The invoice's event first, then the subscription's: either one makes it past due.
    await deliver(renewal.events[1]!, renewal.events[0]!)
    // An invoice of an API version before 2025-03-31 names its subscription at its top.
    await deliver(
      stripe.event('invoice.payment_failed', {
        id: renewal.invoice.id,
        object: 'invoice',
        subscription: subscription.id,
      } as {
        id: string
        object: string
      }),
    )
    const row = await plan()
    // Stripe's period has moved on unpaid; ours stays the year paid for, whose end the grace days count from.
    expect(row).toMatchObject({ status: 'past_due', current_period_end: paidUntil })
    expect(await toldOfFailure(user.id)).toHaveLength(1)
    const listed = (await call('GET', 'users/notifications')).json.data.find(
      (entry: { type: string }) => entry.type === 'subscription.payment_failed',
    )
    expect(listed).toMatchObject({
      title: 'Your premium payment did not go through',
      link: '/account/subscription',
    })
    expect(listed.body).toMatch(
      /^We could not take \$20 from your card to renew your premium membership\. Premium stays on until [A-Z][a-z]+ \d{1,2}, \d{4}\. Check your card, or cancel, on your subscription page\.$/,
    )
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toMatchObject({
      status: 'past_due',
    })
    const day = 86_400_000
    expect(await hasPremium(database.db, user.id, new Date(paidUntil.getTime() + 13 * day))).toBe(
      true,
    )
    expect(await hasPremium(database.db, user.id, new Date(paidUntil.getTime() + 15 * day))).toBe(
      false,
    )
    // The day's built-in renewal run leaves Stripe's plans to Stripe, which may still be retrying.
    await renewSubscriptions(
      { db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify },
      new Date(paidUntil.getTime() + 30 * day),
    )
    expect((await plan()).status).toBe('past_due')
  })

  it('a subscription deleted at Stripe ends the plan', async () => {
    const { user, plan, subscription } = await premium()
    const deleted = stripe.deleteSubscription(subscription.id)
    await deliver(...deleted.events)
    const row = await plan()
    expect(row.status).toBe('canceled')
    expect(row.canceled_at).toEqual(new Date(deleted.subscription.canceled_at! * 1000))
    expect(await hasPremium(database.db, user.id)).toBe(false)
    // An older event still saying it is active is not believed: Stripe is read again.
    const stale = { ...deleted.subscription, status: 'active' as const }
    await deliver(stripe.event('customer.subscription.updated', stale))
    expect((await plan()).status).toBe('canceled')
  })

  it('ends in the same state whether the events come in order or reversed, each twice', async () => {
    const runs = []
    for (const reversed of [false, true]) {
      const { plan, subscription } = await premium()
      const renewal = stripe.renewSubscription(subscription.id)
      // The member then cancels at Stripe (its customer portal): to end at the new period's end.
      const stored = stripe.subscriptions.get(subscription.id)!
      stored.cancel_at_period_end = true
      stored.canceled_at = Math.floor(Date.now() / 1000)
      const events = [...renewal.events, stripe.event('customer.subscription.updated', stored)]
      const order = reversed ? [...events].reverse() : events
      await deliver(...order, ...order)
      const row = await plan()
      expect(row.current_period_end).toEqual(stripePeriod(subscription.id).end)
      runs.push({
        status: row.status,
        cancel_at_period_end: row.cancel_at_period_end,
        canceled: row.canceled_at !== null,
        renewed:
          row.current_period_end!.getTime() - row.current_period_start!.getTime() >
          360 * 86_400_000,
      })
    }
    expect(runs[1]).toEqual(runs[0])
    expect(runs[0]).toEqual({
      status: 'active',
      cancel_at_period_end: true,
      canceled: true,
      renewed: true,
    })
  })

  it('an old customer.subscription.updated arriving after a newer one does not roll the plan back', async () => {
    const { plan, subscription } = await premium()
    const old = stripe.event(
      'customer.subscription.updated',
      structuredClone(stripe.subscriptions.get(subscription.id)!),
    )
    const renewal = stripe.renewSubscription(subscription.id)
    await deliver(...renewal.events)
    const renewed = await plan()
    await deliver(old)
    expect(await plan()).toMatchObject({
      status: 'active',
      current_period_start: renewed.current_period_start,
      current_period_end: renewed.current_period_end,
    })
  })

  it('ignores events about a subscription that is not one of our plans', async () => {
    const other = await premium()
    const stranger = { ...other.subscription, id: 'sub_not_ours' }
    await deliver(stripe.event('customer.subscription.deleted', stranger))
    expect(
      stripe.requests.some((request) => request.path === '/v1/subscriptions/sub_not_ours'),
    ).toBe(false)
    expect((await other.plan()).status).toBe('active')
  })
})

const silent = { info: () => {}, error: () => {}, warn: () => {}, debug: () => {} } as never

describe('the nightly reconciliation', () => {
  it('brings a plan whose webhooks never came up to date, logs what changed, and leaves the others alone', async () => {
    const renewed = await premium()
    const refused = await premium('pm_card_chargeCustomerFail')
    const untouched = await premium()
    // Stripe renews one and refuses the other; none of its events reaches us.
    stripe.renewSubscription(renewed.subscription.id)
    stripe.renewSubscription(refused.subscription.id)
    // A day goes by without a read (the renewal's period has not ended here: only the stale read picks them).
    const yesterday = new Date(Date.now() - 2 * 86_400_000)
    await database.db
      .updateTable('subscriptions')
      .set({ synced_at: yesterday })
      .where('provider_ref', 'in', [renewed.subscription.id, refused.subscription.id])
      .execute()
    const logged: { fields: Record<string, unknown>; message: string }[] = []
    const logger = {
      ...(silent as object),
      info: (fields: Record<string, unknown>, message: string) =>
        void logged.push({ fields, message }),
    } as unknown as SyncDeps['logger']
    const deps: SyncDeps = {
      db: database.db,
      payments,
      logger,
      notify: testNotifier(database.db).notify,
    }
    const before = stripe.requests.length
    const result = await reconcileSubscriptions(deps)
    expect(result).toMatchObject({ changed: 2, failed: 0 })
    const readNow = stripe.requests.slice(before).map((request) => request.path)
    expect(readNow).not.toContain(`/v1/subscriptions/${untouched.subscription.id}`)

    expect(await renewed.plan()).toMatchObject({
      status: 'active',
      current_period_end: stripePeriod(renewed.subscription.id).end,
    })
    expect((await refused.plan()).status).toBe('past_due')
    expect(await toldOfFailure(refused.user.id)).toHaveLength(1)
    const changes = logged.filter(
      (entry) => entry.message === 'A premium plan was behind Stripe: brought up to date',
    )
    expect(changes.map((entry) => Object.keys(entry.fields.changes as object).sort())).toEqual(
      expect.arrayContaining([['current_period_end', 'current_period_start'], ['status']]),
    )
    // Read again a day later: nothing has changed, and no one is told twice.
    await database.db
      .updateTable('subscriptions')
      .set({ synced_at: yesterday })
      .where('provider_ref', 'in', [renewed.subscription.id, refused.subscription.id])
      .execute()
    expect(await reconcileSubscriptions(deps)).toMatchObject({ checked: 2, changed: 0 })
    expect(await toldOfFailure(refused.user.id)).toHaveLength(1)
  })

  it('does nothing with the built-in provider', async () => {
    const builtin = createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL })
    const deps: SyncDeps = {
      db: database.db,
      payments: builtin,
      logger: silent,
      notify: testNotifier(database.db).notify,
    }
    expect(await reconcileSubscriptions(deps)).toEqual({ checked: 0, changed: 0, failed: 0 })
  })
})

describe('cards a network updated', () => {
  it('take their new expiry, read from Stripe, whatever the order of the events', async () => {
    const { call, paymentMethod } = await premium('pm_card_mastercard')
    const old = stripe.event('payment_method.updated', structuredClone(paymentMethod))
    const updated = stripe.updateCardByNetwork(paymentMethod.id, { exp_month: 3, exp_year: 2031 })
    await deliver(...updated.events, old)
    expect((await call('GET', 'v1/payment-methods')).json.data).toMatchObject([
      { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 },
    ])
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0].card).toMatchObject({
      exp_month: 3,
      exp_year: 2031,
    })
  })
})
