import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PREMIUM_TERMS_VERSION,
  initiatedSubscriptionSchema,
  subscriptionSchema,
} from '#contract/subscriptions.ts'
import type { NewUser } from '#api/db/schema.ts'
import { createBuiltinPayments } from '#api/providers/payments/builtin.ts'
import { createApiHarness, createUser, testNotifier, type ApiHarness, expectWaitOf } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { hasPremium } from './queries.ts'
import { remindRenewals, renewSubscriptions } from './renewal.ts'

/**
 * Premium and the partner offer with the built-in provider (issue 31 §4, decision 074), as an
 * API client sees them, against the real database.
 */
let database: TestDatabase
let api: ApiHarness
let offApi: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  offApi = await createApiHarness(database.db, { PAYMENTS: 'off' })
})

afterAll(async () => {
  await database?.drop()
})

const DAY = 86_400_000
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')
const card = (number: string) => ({
  number,
  expiry: `08 / ${nextYear}`,
  cvc: '123',
  postal_code: '97201',
})
const consent = {
  consent_to_renewal: true,
  consent_text_version: PREMIUM_TERMS_VERSION,
  consent_text: 'Premium costs $20 per year and renews each year until you cancel.',
}

async function member(overrides: Partial<NewUser> = {}, harness = api) {
  const user = await createUser(database.db, overrides)
  const token = await harness.signToken(user.id)
  const call = (method: string, path: string, body?: unknown) =>
    harness.request(method, path, { token, ...(body === undefined ? {} : { body }) })
  return { user, call }
}
type Call = Awaited<ReturnType<typeof member>>['call']

async function partnership(values: { name?: string; regions?: string[]; active?: boolean } = {}) {
  return database.db
    .insertInto('partnerships')
    .values({
      name: values.name ?? 'Oregon Health Plan',
      regions: values.regions ?? ['OR'],
      active: values.active ?? true,
      price_cents: 0,
      regular_price_cents: 2000,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Starts the paid plan and answers the built-in checkout's id. */
async function startPaid(call: Call) {
  const started = await call('POST', 'v1/subscriptions/initiate', consent)
  expect(started.status).toBe(200)
  const initiated = initiatedSubscriptionSchema.parse(started.json.data[0])
  expect(initiated.subscription.status).toBe('incomplete')
  return {
    initiated,
    checkout: new URL(initiated.redirect_url!).pathname.replace('/checkout/', ''),
  }
}

async function joinPaid(call: Call, number = '4242424242424242') {
  const { initiated, checkout } = await startPaid(call)
  const typed = await call('POST', `v1/payments/checkout/${checkout}/card`, card(number))
  expect(typed.status).toBe(200)
  if (typed.json.data[0].status === 'requires_authentication') {
    expect(
      (
        await call('POST', `v1/payments/checkout/${checkout}/authentication`, {
          outcome: 'confirm',
        })
      ).status,
    ).toBe(200)
  }
  const me = await call('GET', 'v1/subscriptions/me')
  return {
    id: initiated.subscription.id,
    checkout,
    subscription: subscriptionSchema.parse(me.json.data[0]),
  }
}

const chargesOf = async (cardRef?: string) => {
  let query = database.db.selectFrom('builtin_charges').selectAll()
  if (cardRef) query = query.where('card_token', '=', cardRef)
  return query.execute()
}

describe('partnerships by region', () => {
  it('lists the active offers for the member’s state, the partnership first, and none elsewhere or when inactive', async () => {
    const offer = await partnership({ name: 'Cascade Senior Care', regions: ['OR', 'WA'] })
    await partnership({ name: 'Retired offer', regions: ['OR'], active: false })
    const oregon = await member({ region: 'OR' })
    const listed = await oregon.call('GET', 'v1/subscriptions/partnerships')
    expect(listed.status).toBe(200)
    expect(listed.json.data[0]).toEqual({
      id: offer.id,
      name: 'Cascade Senior Care',
      price_cents: 0,
      regular_price_cents: 2000,
    })
    expect(listed.json.data.map((entry: { name: string }) => entry.name)).not.toContain(
      'Retired offer',
    )
    const idaho = await member({ region: 'ID' })
    expect((await idaho.call('GET', 'v1/subscriptions/partnerships')).json).toEqual({ data: [] })
    const nowhere = await member({ region: null })
    expect((await nowhere.call('GET', 'v1/subscriptions/partnerships')).json).toEqual({ data: [] })
  })
})

describe('the partner’s $0 plan', () => {
  it('is active at once, with no card, no charge and no renewal date; a second start is refused', async () => {
    const offer = await partnership({ name: 'Nevada Wellness', regions: ['NV'] })
    const { user, call } = await member({ region: 'NV' })
    const before = (await chargesOf()).length
    const joined = await call('POST', 'v1/subscriptions/initiate', { partnership_id: offer.id })
    expect(joined.status).toBe(200)
    expect(joined.json.data[0]).toMatchObject({
      redirect_url: null,
      subscription: {
        status: 'active',
        price_cents: 0,
        current_period_end: null,
        card: null,
        partnership: { id: offer.id, name: 'Nevada Wellness' },
      },
    })
    expect((await chargesOf()).length).toBe(before)
    expect(
      await database.db
        .selectFrom('subscription_consents')
        .select('id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([])
    expect(await hasPremium(database.db, user.id)).toBe(true)
    expect(
      (await call('POST', 'v1/subscriptions/initiate', { partnership_id: offer.id })).json.error
        .code,
    ).toBe('already_subscribed')
  })

  it('is refused to a member outside its regions, and when inactive', async () => {
    const offer = await partnership({ name: 'Utah only', regions: ['UT'] })
    const inactive = await partnership({ name: 'Paused', regions: ['AZ'], active: false })
    const { call } = await member({ region: 'AZ' })
    for (const id of [offer.id, inactive.id]) {
      const refused = await call('POST', 'v1/subscriptions/initiate', { partnership_id: id })
      expect(refused.status).toBe(422)
      expect(refused.json.error.fields).toEqual({ partnership_id: ['partnership_not_eligible'] })
    }
  })

  it('ends at once when cancelled', async () => {
    const offer = await partnership({ name: 'Idaho Friends', regions: ['ID'] })
    const { user, call } = await member({ region: 'ID' })
    await call('POST', 'v1/subscriptions/initiate', { partnership_id: offer.id })
    const canceled = await call('POST', 'v1/subscriptions/me/cancel')
    expect(canceled.json.data[0]).toMatchObject({ status: 'canceled', cancel_at_period_end: false })
    expect(await hasPremium(database.db, user.id)).toBe(false)
    expect((await call('POST', 'v1/subscriptions/me/cancel')).json.error.code).toBe(
      'not_subscribed',
    )
  })
})

describe('the paid plan', () => {
  it('is refused without the member’s consent to automatic renewal, or with outdated terms', async () => {
    const { call } = await member()
    const refused = await call('POST', 'v1/subscriptions/initiate', {})
    expect(refused.status).toBe(422)
    expect(refused.json.error.fields).toEqual({
      consent_to_renewal: ['consent_required'],
      consent_text_version: ['consent_version_outdated'],
      consent_text: ['consent_text_required'],
    })
    const unticked = await call('POST', 'v1/subscriptions/initiate', {
      ...consent,
      consent_to_renewal: false,
    })
    expect(unticked.json.error.fields).toEqual({ consent_to_renewal: ['consent_required'] })
    expect((await call('GET', 'v1/subscriptions/me')).json).toEqual({ data: [] })
  })

  it('is not sold with PAYMENTS=off', async () => {
    const { call } = await member({}, offApi)
    const refused = await call('POST', 'v1/subscriptions/initiate', consent)
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('payments_off')
  })

  it('starts at most 20 paid plans an hour for a member, and says how long until the oldest of them is an hour old', async () => {
    const { user, call } = await member()
    for (let start = 0; start < 20; start++) await startPaid(call)
    await sql`UPDATE subscriptions SET created_at = now() - interval '45 minutes' WHERE user_id = ${user.id}`.execute(database.db)
    const refused = await call('POST', 'v1/subscriptions/initiate', consent)
    expectWaitOf(refused, 15)
    // Once they are an hour old, the member may start again.
    await sql`UPDATE subscriptions SET created_at = now() - interval '61 minutes' WHERE user_id = ${user.id}`.execute(database.db)
    await startPaid(call)
  })

  it('goes through the built-in hosted page in payment mode: $20 charged once, the card saved, active for a year, the consent recorded with the card', async () => {
    const { user, call } = await member()
    const { initiated, checkout } = await startPaid(call)
    expect(initiated.redirect_url).toBe(`${api.env.PUBLIC_URL}/checkout/${checkout}`)
    const page = await call('GET', `v1/payments/checkout/${checkout}`)
    expect(page.json.data[0]).toMatchObject({
      mode: 'payment',
      amount_cents: 2000,
      recurring_interval: 'year',
      status: 'open',
      return_url: `${api.env.PUBLIC_URL}/account/subscription?checkout=${initiated.subscription.id}`,
    })
    expect(
      (await call('POST', `v1/payments/checkout/${checkout}/card`, card('4242424242424242'))).json
        .data[0].status,
    ).toBe('complete')

    const me = subscriptionSchema.parse((await call('GET', 'v1/subscriptions/me')).json.data[0])
    expect(me).toMatchObject({
      status: 'active',
      price_cents: 2000,
      cancel_at_period_end: false,
      card: { brand: 'visa', last4: '4242' },
      partnership: null,
    })
    const days = (Date.parse(me.current_period_end!) - Date.now()) / DAY
    expect(days).toBeGreaterThan(364)
    expect(days).toBeLessThan(367)
    const cards = (await call('GET', 'v1/payment-methods')).json.data
    expect(cards).toMatchObject([{ last4: '4242', is_default: true }])
    const row = await database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow()
    const token = (
      await database.db
        .selectFrom('payment_methods')
        .select('provider_ref')
        .where('id', '=', row.payment_method_id!)
        .executeTakeFirstOrThrow()
    ).provider_ref
    expect(await chargesOf(token)).toMatchObject([{ amount_cents: 2000, status: 'succeeded' }])
    const consents = await database.db
      .selectFrom('subscription_consents')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute()
    expect(consents).toMatchObject([
      {
        subscription_id: me.id,
        text_version: PREMIUM_TERMS_VERSION,
        text: consent.consent_text,
        price_cents: 2000,
        renewal_interval: 'year',
        payment_method_id: row.payment_method_id,
      },
    ])
    // The consent is append-only.
    await expect(
      database.db
        .updateTable('subscription_consents')
        .set({ text: 'changed' })
        .where('user_id', '=', user.id)
        .execute(),
    ).rejects.toThrow(/append-only/)
    // Reading it again applies nothing twice.
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toEqual(me)
    expect(await hasPremium(database.db, user.id)).toBe(true)
  })

  it('stays incomplete when the card is declined', async () => {
    const { user, call } = await member()
    const { checkout } = await startPaid(call)
    const declined = await call(
      'POST',
      `v1/payments/checkout/${checkout}/card`,
      card('4000000000000341'),
    )
    expect(declined.status).toBe(422)
    expect(declined.json.error.fields).toEqual({ number: ['card_declined'] })
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toMatchObject({
      status: 'incomplete',
      card: null,
    })
    expect(await hasPremium(database.db, user.id)).toBe(false)
  })

  it('cancelled, runs to the end of the year paid for and is not renewed', async () => {
    const { user, call } = await member()
    const { subscription } = await joinPaid(call)
    const canceled = await call('POST', 'v1/subscriptions/me/cancel')
    expect(canceled.json.data[0]).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      current_period_end: subscription.current_period_end,
    })
    expect(await hasPremium(database.db, user.id)).toBe(true)
    // Its year ends: the day's run ends it and charges nothing.
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: new Date(Date.now() - 1000) })
      .where('id', '=', subscription.id)
      .execute()
    const payments = createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL })
    const before = (await chargesOf()).length
    await renewSubscriptions({ db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify })
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toMatchObject({
      status: 'canceled',
    })
    expect((await chargesOf()).length).toBe(before)
    expect(await hasPremium(database.db, user.id)).toBe(false)
  })
})

const silent = { info: () => {}, error: () => {}, warn: () => {}, debug: () => {} } as never

describe('deleting the account', () => {
  it('stops a paid plan and takes the plan and its consent with the account', async () => {
    const { user, call } = await member()
    await joinPaid(call)
    expect((await call('DELETE', `v1/users/${user.id}`)).status).toBe(204)
    expect(
      await database.db
        .selectFrom('subscriptions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([])
    expect(
      await database.db
        .selectFrom('subscription_consents')
        .select('id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([])
  })
})

describe('built-in renewals', () => {
  it('charge a due plan once per period, even when the job runs twice, and move it on a year', async () => {
    const { call } = await member()
    const { subscription } = await joinPaid(call)
    const due = new Date(Date.now() - 60_000)
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: due })
      .where('id', '=', subscription.id)
      .execute()
    const payments = createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL })
    await renewSubscriptions({ db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify })
    await renewSubscriptions({ db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify })
    const charges = await database.db
      .selectFrom('builtin_charges')
      .selectAll()
      .where('idempotency_key', 'like', `subscription:${subscription.id}:%`)
      .execute()
    expect(charges).toMatchObject([
      {
        idempotency_key: `subscription:${subscription.id}:${due.toISOString()}`,
        amount_cents: 2000,
        status: 'succeeded',
      },
    ])
    const row = await database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', subscription.id)
      .executeTakeFirstOrThrow()
    expect(row.status).toBe('active')
    expect(row.current_period_start).toEqual(due)
    expect(row.current_period_end!.getUTCFullYear()).toBe(due.getUTCFullYear() + 1)
  })

  it('mark a refused renewal past due, without trying again by itself; premium holds for the grace days', async () => {
    const { user, call } = await member()
    // 3184 pays on the page (the member confirms) but every charge without them asks again.
    const { subscription } = await joinPaid(call, '4000002760003184')
    expect(subscription.status).toBe('active')
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: new Date(Date.now() - 60_000) })
      .where('id', '=', subscription.id)
      .execute()
    const payments = createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL })
    expect(await renewSubscriptions({ db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify })).toMatchObject({
      failed: 1,
    })
    expect((await call('GET', 'v1/subscriptions/me')).json.data[0]).toMatchObject({
      status: 'past_due',
    })
    expect(await renewSubscriptions({ db: database.db, payments, logger: silent, notify: testNotifier(database.db).notify })).toMatchObject({
      failed: 0,
      renewed: 0,
    })
    expect(
      await database.db
        .selectFrom('builtin_charges')
        .select('ref')
        .where('idempotency_key', 'like', `subscription:${subscription.id}:%`)
        .execute(),
    ).toHaveLength(1)
    expect(await hasPremium(database.db, user.id)).toBe(true)
    expect(await hasPremium(database.db, user.id, new Date(Date.now() + 15 * DAY))).toBe(false)
    // Told once, with the price and the day premium ends unless it is paid.
    const told = (await call('GET', 'users/notifications')).json.data.filter(
      (entry: { type: string }) => entry.type === 'subscription.payment_failed',
    )
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({
      title: 'Your premium payment did not go through',
      link: '/account/subscription',
    })
    expect(told[0].body).toMatch(/^We could not take \$20 from your card .* Premium stays on until [A-Z][a-z]+ \d{1,2}, \d{4}\./)
  })
})

describe('the renewal reminder (California: 15 to 45 days before a yearly renewal)', () => {
  it('is sent once per period, 30 days before, with the price, the date and how to cancel; never to a cancelled or free plan', async () => {
    const { user, call } = await member({ locale: 'en' })
    const { subscription } = await joinPaid(call)
    const renewsAt = new Date(Date.now() + 40 * DAY)
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: renewsAt })
      .where('id', '=', subscription.id)
      .execute()
    const { notify } = testNotifier(database.db)
    const sentTo = async () =>
      database.db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('type', '=', 'subscription.renewal_reminder')
        .execute()
    // 40 days ahead: too early.
    await remindRenewals({ db: database.db, notify })
    expect(await sentTo()).toEqual([])
    // 30 days ahead: sent, once, however often the job runs.
    const now = new Date(renewsAt.getTime() - 30 * DAY)
    await remindRenewals({ db: database.db, notify }, now)
    await remindRenewals({ db: database.db, notify }, new Date(now.getTime() + DAY))
    const sent = await sentTo()
    expect(sent).toHaveLength(1)
    const listed = (await call('GET', 'users/notifications')).json.data.find(
      (entry: { type: string }) => entry.type === 'subscription.renewal_reminder',
    )
    expect(listed.title).toBe('Premium renews soon')
    expect(listed.body).toMatch(
      /^Your premium membership renews on [A-Z][a-z]+ \d{1,2}, \d{4} for \$20, charged to your card\. To stop it, cancel online on your subscription page before then\.$/,
    )
    expect(listed.link).toBe('/account/subscription')
    // Within 15 days of the date it is too late to be a fair notice: a plan not told by then is not told at all.
    const late = await member()
    const lateJoined = await joinPaid(late.call)
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: new Date(Date.now() + 10 * DAY) })
      .where('id', '=', lateJoined.subscription.id)
      .execute()
    expect(await remindRenewals({ db: database.db, notify })).toEqual({ sent: 0 })
    // A cancelled plan is not reminded.
    const canceled = await member()
    const canceledJoined = await joinPaid(canceled.call)
    await canceled.call('POST', 'v1/subscriptions/me/cancel')
    await database.db
      .updateTable('subscriptions')
      .set({ current_period_end: new Date(Date.now() + 25 * DAY) })
      .where('id', '=', canceledJoined.subscription.id)
      .execute()
    expect(await remindRenewals({ db: database.db, notify })).toEqual({ sent: 0 })
  })
})

describe('admin: partnerships', () => {
  it('are listed, created and edited by admins only, each change in the audit log', async () => {
    const admin = await member({ staff_role: 'admin' })
    const plain = await member()
    expect((await plain.call('GET', 'v1/admin/partnerships')).status).toBe(403)
    expect(
      (
        await plain.call('POST', 'v1/admin/partnerships', {
          name: 'X',
          regions: ['OR'],
          active: true,
        })
      ).json.error.code,
    ).toBe('admin_only')

    const invalid = await admin.call('POST', 'v1/admin/partnerships', {
      name: ' ',
      regions: ['Oregon'],
      active: true,
    })
    expect(invalid.status).toBe(422)
    expect(invalid.json.error.fields).toMatchObject({
      name: ['name_required'],
      'regions.0': ['regions_invalid'],
    })

    const created = await admin.call('POST', 'v1/admin/partnerships', {
      name: 'Blue Mountain Health',
      regions: ['mt', 'WY', 'mt'],
      active: true,
    })
    expect(created.status).toBe(200)
    const id = created.json.data[0].id
    expect(created.json.data[0]).toMatchObject({
      name: 'Blue Mountain Health',
      regions: ['MT', 'WY'],
      active: true,
      price_cents: 0,
      regular_price_cents: 2000,
    })
    const edited = await admin.call('PUT', `v1/admin/partnerships/${id}`, {
      name: 'Blue Mountain Health Plan',
      regions: ['MT'],
      active: false,
    })
    expect(edited.json.data[0]).toMatchObject({
      name: 'Blue Mountain Health Plan',
      regions: ['MT'],
      active: false,
    })
    expect((await admin.call('GET', `v1/admin/partnerships/${id}`)).json.data[0].name).toBe(
      'Blue Mountain Health Plan',
    )
    expect(
      (await admin.call('GET', 'v1/admin/partnerships')).json.data.map(
        (entry: { id: string }) => entry.id,
      ),
    ).toContain(id)
    expect(
      (
        await admin.call('PUT', `v1/admin/partnerships/00000000-0000-4000-8000-000000000000`, {
          name: 'X',
          regions: ['OR'],
          active: true,
        })
      ).status,
    ).toBe(404)

    const audit = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', id)
      .orderBy('id')
      .execute()
    expect(audit).toMatchObject([
      {
        actor_id: admin.user.id,
        action: 'partnership.create',
        target_type: 'partnership',
        data: { name: 'Blue Mountain Health', regions: ['MT', 'WY'], active: true },
      },
      {
        actor_id: admin.user.id,
        action: 'partnership.update',
        data: {
          name: 'Blue Mountain Health Plan',
          active: false,
          before: { name: 'Blue Mountain Health', active: true },
        },
      },
    ])
  })
})
