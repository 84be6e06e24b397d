import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardSetupSchema, paymentMethodSchema } from '#contract/payments.ts'
import type { NewUser } from '#api/db/schema.ts'
import { createBuiltinPayments } from '#api/providers/payments/builtin.ts'
import { createApiHarness, createUser, type ApiHarness, expectWaitOf } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * Payment cards with the built-in provider (issue 31 §1–§2, decision 073), as an API client sees
 * them: a card is added only through the hosted card page, which takes Stripe's test cards and
 * answers as Stripe's test bank does; the list, the default and removal are the member's own.
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')
const card = (number: string, more: Record<string, string> = {}) => ({ number, expiry: `08 / ${nextYear}`, cvc: '123', postal_code: '97201', ...more })

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  const token = await api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, ...(body === undefined ? {} : { body }) })
  return { user, call }
}

type Call = Awaited<ReturnType<typeof member>>['call']

/** Starts "Add a card": the setup, and the built-in checkout's id from its hosted page's address. */
async function startSetup(call: Call) {
  const started = await call('POST', 'v1/payment-methods/setup')
  expect(started.status).toBe(200)
  const setup = cardSetupSchema.parse(started.json.data[0])
  const checkout = new URL(setup.redirect_url).pathname.replace('/checkout/', '')
  return { setup, checkout }
}

/** Adds a card as a member does: setup, the hosted page, back to the setup. */
async function addCard(call: Call, number = '4242424242424242') {
  const { setup, checkout } = await startSetup(call)
  const typed = await call('POST', `v1/payments/checkout/${checkout}/card`, card(number))
  expect(typed.status).toBe(200)
  const read = await call('GET', `v1/payment-methods/setup/${setup.id}`)
  return cardSetupSchema.parse(read.json.data[0]).payment_method!
}

describe('adding a card through the built-in hosted page', () => {
  it('sends the member to the hosted page and back, and the card is listed (brand, last four, expiry) as their default', async () => {
    const { call } = await member()
    expect((await call('GET', 'v1/payment-methods')).json).toEqual({ data: [] })
    const { setup, checkout } = await startSetup(call)
    expect(setup).toMatchObject({ status: 'open', payment_method: null })
    expect(setup.redirect_url).toBe(`${api.env.PUBLIC_URL}/checkout/${checkout}`)

    const page = await call('GET', `v1/payments/checkout/${checkout}`)
    expect(page.json.data[0]).toMatchObject({
      status: 'open',
      pending_card: null,
      return_url: `${api.env.PUBLIC_URL}/account/payments?setup=${setup.id}`,
      cancel_url: `${api.env.PUBLIC_URL}/account/payments?setup=${setup.id}&canceled=1`,
    })
    const typed = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4242 4242 4242 4242'))
    expect(typed.json.data[0].status).toBe('complete')

    const back = await call('GET', `v1/payment-methods/setup/${setup.id}`)
    expect(back.json.data[0]).toMatchObject({ status: 'complete', payment_method: { brand: 'visa', last4: '4242', exp_month: 8, is_default: true, is_expired: false } })
    const list = await call('GET', 'v1/payment-methods')
    expect(list.json.data.map((entry: unknown) => paymentMethodSchema.parse(entry))).toEqual([back.json.data[0].payment_method])
    expect(list.headers.get('cache-control')).toContain('no-store')
    // Reading the setup again records nothing twice.
    expect((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0].payment_method.id).toBe(back.json.data[0].payment_method.id)
    expect((await call('GET', 'v1/payment-methods')).json.data).toHaveLength(1)
  })

  it('keeps nothing of the card but its brand, last four digits and expiry', async () => {
    const { user, call } = await member()
    await addCard(call, '5555555555554444')
    const vault = await database.db.selectFrom('builtin_vault_cards').selectAll().where('customer', '=', `cus_builtin_${user.id}`).execute()
    expect(vault).toHaveLength(1)
    expect(JSON.stringify(vault)).not.toContain('5555555555554444')
    expect(JSON.stringify(vault)).not.toMatch(/"123"/)
    expect(vault[0]).toMatchObject({ brand: 'mastercard', last4: '4444' })
  })

  it('says what is wrong with each field, next to it, and takes only test cards', async () => {
    const { call } = await member()
    const { checkout } = await startSetup(call)
    const wrong = await call('POST', `v1/payments/checkout/${checkout}/card`, { number: '4242 4242 4242 4241', expiry: '13/30', cvc: '12', postal_code: 'ABCDE' })
    expect(wrong.status).toBe(422)
    expect(wrong.json.error.fields).toEqual({
      number: ['card_number_invalid'],
      expiry: ['card_expiry_invalid'],
      cvc: ['card_cvc_invalid'],
      postal_code: ['postal_code_invalid'],
    })
    const real = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4111 1111 1111 1111'))
    expect(real.json.error.fields).toEqual({ number: ['card_not_test'] })
    const past = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4242424242424242', { expiry: '01/20' }))
    expect(past.json.error.fields).toEqual({ expiry: ['card_expired'] })
    const amexCvc = await call('POST', `v1/payments/checkout/${checkout}/card`, card('378282246310005'))
    expect(amexCvc.json.error.fields).toEqual({ cvc: ['card_cvc_invalid'] })
    const empty = await call('POST', `v1/payments/checkout/${checkout}/card`, {})
    expect(empty.json.error.fields).toEqual({
      number: ['card_number_required'],
      expiry: ['card_expiry_required'],
      cvc: ['card_cvc_required'],
      postal_code: ['postal_code_required'],
    })
  })

  it('declines 0002 and 9995 as Stripe’s test bank does, and the member may try another card on the same page', async () => {
    const { call } = await member()
    const { setup, checkout } = await startSetup(call)
    const declined = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4000000000000002'))
    expect(declined.status).toBe(422)
    expect(declined.json.error.fields).toEqual({ number: ['card_declined'] })
    const broke = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4000000000009995'))
    expect(broke.json.error.fields).toEqual({ number: ['insufficient_funds'] })
    expect((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0]).toMatchObject({ status: 'open', payment_method: null })
    const amex = await call('POST', `v1/payments/checkout/${checkout}/card`, card('3782 822463 10005', { cvc: '1234' }))
    expect(amex.json.data[0].status).toBe('complete')
    expect((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0].payment_method).toMatchObject({ brand: 'amex', last4: '0005' })
    // The page is finished: nothing more is taken on it.
    const again = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4242424242424242'))
    expect(again.status).toBe(409)
    expect(again.json.error.code).toBe('checkout_closed')
  })

  it('asks the member to confirm 3155 and 3184 with their bank: a failed confirmation saves nothing, a confirmed one saves the card', async () => {
    const { call } = await member()
    const { setup, checkout } = await startSetup(call)
    const asked = await call('POST', `v1/payments/checkout/${checkout}/card`, card('4000002500003155'))
    expect(asked.json.data[0]).toMatchObject({ status: 'requires_authentication', pending_card: { brand: 'visa', last4: '3155' } })
    expect((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0].status).toBe('open')
    const failed = await call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'fail' })
    expect(failed.json.data[0]).toMatchObject({ status: 'open', pending_card: null })
    expect((await call('GET', 'v1/payment-methods')).json.data).toEqual([])
    expect((await call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })).status).toBe(409)

    await call('POST', `v1/payments/checkout/${checkout}/card`, card('4000002500003155'))
    const confirmed = await call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })
    expect(confirmed.json.data[0].status).toBe('complete')
    expect((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0].payment_method).toMatchObject({ last4: '3155', is_default: true })
  })

  it('tells the member who gave up nothing was saved, and returns to the path the client asked for', async () => {
    const { call } = await member()
    const started = await call('POST', 'v1/payment-methods/setup', { return_path: '/activities/abc?from=rsvp' })
    const setup = cardSetupSchema.parse(started.json.data[0])
    const checkout = new URL(setup.redirect_url).pathname.replace('/checkout/', '')
    expect((await call('GET', `v1/payments/checkout/${checkout}`)).json.data[0].cancel_url).toBe(`${api.env.PUBLIC_URL}/activities/abc?from=rsvp&setup=${setup.id}&canceled=1`)
    for (const return_path of ['https://evil.example/', '//evil.example', 'account']) {
      const refused = await call('POST', 'v1/payment-methods/setup', { return_path })
      expect(refused.status).toBe(422)
      expect(refused.json.error.fields).toEqual({ return_path: ['return_path_invalid'] })
    }
  })

  it('keeps each member’s setups, hosted pages and cards to themselves', async () => {
    const owner = await member()
    const other = await member()
    const { setup, checkout } = await startSetup(owner.call)
    expect((await other.call('GET', `v1/payment-methods/setup/${setup.id}`)).status).toBe(404)
    expect((await other.call('GET', `v1/payments/checkout/${checkout}`)).status).toBe(404)
    expect((await other.call('POST', `v1/payments/checkout/${checkout}/card`, card('4242424242424242'))).status).toBe(404)
    const saved = await addCard(owner.call)
    expect((await other.call('POST', `v1/payment-methods/default?id=${saved.id}`)).status).toBe(404)
    expect((await other.call('DELETE', `v1/payment-methods/${saved.id}`)).status).toBe(404)
    expect((await other.call('GET', 'v1/payment-methods')).json.data).toEqual([])
    expect((await api.request('GET', 'v1/payment-methods')).status).toBe(401)
  })

  it('starts at most 20 "Add a card" pages an hour for a member (card testing), counting only the last hour’s, and says how long to wait', async () => {
    const { user, call } = await member()
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)
    const rows = (count: number, at: Date) => Array.from({ length: count }, () => ({ user_id: user.id, provider: 'builtin', return_path: '/account/payments', created_at: at }))
    await database.db.insertInto('card_setups').values([...rows(5, minutesAgo(90)), ...rows(19, minutesAgo(10))]).execute()
    await startSetup(call)
    const refused = await call('POST', 'v1/payment-methods/setup')
    // Free again when the oldest of the last 20 (ten minutes ago) is an hour old.
    expectWaitOf(refused, 50)
    // Another member is not held back by this one's attempts.
    await startSetup((await member()).call)
  })
})

describe('the default card and removing cards', () => {
  it('makes another card the default, and promotes the newest other card when the default is removed', async () => {
    const { call } = await member()
    const visa = await addCard(call, '4242424242424242')
    const mastercard = await addCard(call, '5555555555554444')
    const discover = await addCard(call, '6011111111111117')
    expect(mastercard.is_default).toBe(false)
    const made = await call('POST', `v1/payment-methods/default?id=${mastercard.id}`)
    expect(made.json.data[0]).toMatchObject({ id: mastercard.id, is_default: true })
    expect((await call('GET', 'v1/payment-methods/default')).json.data.map((entry: { id: string }) => entry.id)).toEqual([mastercard.id])
    const listed = (await call('GET', 'v1/payment-methods')).json.data.map((entry: { id: string }) => entry.id)
    expect(listed).toEqual([mastercard.id, discover.id, visa.id])

    expect((await call('DELETE', `v1/payment-methods/${mastercard.id}`)).status).toBe(204)
    const after = (await call('GET', 'v1/payment-methods')).json.data
    expect(after.map((entry: { id: string; is_default: boolean }) => [entry.id, entry.is_default])).toEqual([
      [discover.id, true],
      [visa.id, false],
    ])
    expect((await call('DELETE', `v1/payment-methods/${mastercard.id}`)).status).toBe(404)
    expect((await call('POST', 'v1/payment-methods/default?id=not-an-id')).status).toBe(422)
  })

  it('refuses to remove the only card while it pays for premium, saying why, and removes it once another card exists', async () => {
    const { user, call } = await member()
    const only = await addCard(call)
    await database.db.insertInto('subscriptions').values({ user_id: user.id, plan: 'premium', status: 'active', provider_ref: 'sub_builtin_1' }).execute()
    const refused = await call('DELETE', `v1/payment-methods/${only.id}`)
    expect(refused.status).toBe(409)
    expect(refused.json.error).toMatchObject({ code: 'card_in_use' })
    expect((await call('GET', 'v1/payment-methods')).json.data).toHaveLength(1)
    const spare = await addCard(call, '5555555555554444')
    expect((await call('DELETE', `v1/payment-methods/${only.id}`)).status).toBe(204)
    expect((await call('GET', 'v1/payment-methods')).json.data).toEqual([{ ...spare, is_default: true }])
  })

  it('forgets the member’s cards at the provider when they delete their account', async () => {
    const { user, call } = await member()
    const saved = await addCard(call)
    const token = (await database.db.selectFrom('payment_methods').select('provider_ref').where('id', '=', saved.id).executeTakeFirstOrThrow()).provider_ref
    expect((await call('DELETE', `v1/users/${user.id}`)).status).toBe(204)
    expect(await database.db.selectFrom('payment_methods').select('id').where('user_id', '=', user.id).execute()).toEqual([])
    const vault = await database.db.selectFrom('builtin_vault_cards').select('detached_at').where('token', '=', token).executeTakeFirstOrThrow()
    expect(vault.detached_at).not.toBeNull()
  })

  it('marks a card whose month has passed as expired', async () => {
    const { user, call } = await member()
    await database.db.insertInto('payment_methods').values({ user_id: user.id, provider: 'builtin', provider_ref: `card_old_${user.id}`, brand: 'discover', last4: '1117', exp_month: 1, exp_year: 2024 }).execute()
    expect((await call('GET', 'v1/payment-methods')).json.data[0]).toMatchObject({ last4: '1117', is_expired: true })
  })
})

describe('the built-in bank charging a saved card off-session', () => {
  it('follows Stripe’s test cards: 4242 succeeds, 0341 is declined, 3184 always wants the member, 3155 not once confirmed; one charge per idempotency key', async () => {
    const bank = createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL })
    const { user, call } = await member()
    /** A card saved by the member through the hosted page (confirmed with the bank when it asks), as the provider knows it. */
    async function saved(number: string) {
      const { setup, checkout } = await startSetup(call)
      const typed = await call('POST', `v1/payments/checkout/${checkout}/card`, card(number))
      if (typed.json.data[0].status === 'requires_authentication') await call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })
      const read = cardSetupSchema.parse((await call('GET', `v1/payment-methods/setup/${setup.id}`)).json.data[0])
      const row = await database.db.selectFrom('payment_methods').select('provider_ref').where('id', '=', read.payment_method!.id).executeTakeFirstOrThrow()
      return row.provider_ref
    }
    const charge = (cardRef: string, key: string) =>
      bank.chargeOffSession({ customer: `cus_builtin_${user.id}`, cardRef, amountCents: 1500, idempotencyKey: key, description: 'No-show fee', metadata: {} })

    const visa = await saved('4242424242424242')
    const first = await charge(visa, `fee:${user.id}:1`)
    expect(first.status).toBe('succeeded')
    expect(await charge(visa, `fee:${user.id}:1`)).toEqual(first)
    expect(await database.db.selectFrom('builtin_charges').select('ref').where('idempotency_key', '=', `fee:${user.id}:1`).execute()).toHaveLength(1)
    expect(await charge(await saved('4000000000000341'), `fee:${user.id}:2`)).toMatchObject({ status: 'declined', code: 'card_declined' })
    expect(await charge(await saved('4000002760003184'), `fee:${user.id}:3`)).toMatchObject({ status: 'requires_authentication' })
    expect(await charge(await saved('4000002500003155'), `fee:${user.id}:4`)).toMatchObject({ status: 'succeeded' })
    await bank.detachCard(visa)
    expect(await charge(visa, `fee:${user.id}:5`)).toMatchObject({ status: 'declined', code: 'card_declined' })
  })
})
