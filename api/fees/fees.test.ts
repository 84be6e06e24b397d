import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createLogger } from '#api/logger.ts'
import { createBuiltinPayments } from '#api/providers/payments/builtin.ts'
import { createApiHarness, createExperience, createUser, testNotifier, type ApiHarness, expectWaitOf } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { cardSetupSchema } from '#contract/payments.ts'
import { feeConsentText } from './consent.ts'
import { assessFees, chargeDueFees, settleFeeCheckout, waiveUnpaidFees, type FeeDeps } from './service.ts'

/**
 * The no-show fee (issue 31 §3, decision 075) from saving a seat to the receipt, against the real
 * database and the built-in bank: the agreement and its evidence, the host's attendance, the
 * rules that mean no fee, the notice, the charge once, a dispute, and the team's decisions.
 */
let database: TestDatabase
let api: ApiHarness
let deps: FeeDeps

const HOUR = 3_600_000
const DAY = 24 * HOUR

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  deps = { db: database.db, notify: testNotifier(database.db).notify, payments: createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL }), logger: createLogger(api.env) }
})

afterAll(async () => {
  await database?.drop()
})

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  const token = await api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, ...(body === undefined ? {} : { body }) })
  return { user, call }
}
type Member = Awaited<ReturnType<typeof member>>

/** A card saved as the member saves it: the built-in hosted page, then back. */
async function withCard({ call }: Member, number = '4242424242424242') {
  const started = (await call('POST', 'v1/payment-methods/setup')).json.data[0]
  const checkout = new URL(started.redirect_url).pathname.replace('/checkout/', '')
  const typed = await call('POST', `v1/payments/checkout/${checkout}/card`, { number, expiry: '12/40', cvc: '123', postal_code: '97201' })
  if (typed.json.data[0].status === 'requires_authentication') await call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })
  return cardSetupSchema.parse((await call('GET', `v1/payment-methods/setup/${started.id}`)).json.data[0]).payment_method!
}

/** An activity with a $15 fee, starting in two hours, its host a member of its own. */
async function feeActivity(overrides: Parameters<typeof createExperience>[2] = {}) {
  const host = await member()
  const experience = await createExperience(database.db, host.user.id, { no_show_fee_cents: 1500, start_at: new Date(Date.now() + 2 * HOUR), ...overrides })
  return { host, experience }
}

const attend = (who: Member, id: string, consent: Record<string, unknown> = { fee_consent: true }) =>
  who.call('POST', `v1/experiences/${id}/attendees`, { user_id: who.user.id, ...consent })

/** The activity has happened: it began an hour and a half ago. */
async function happened(id: string) {
  await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 90 * 60_000), end_at: new Date(Date.now() - 30 * 60_000) }).where('id', '=', id).execute()
}

const feesOf = (userId: string) => database.db.selectFrom('no_show_fees').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()
/** The member's latest fee notification as the list shows it ({ data: [it] }). */
const lastNotice = async (userId: string) => {
  const token = await api.signToken(userId)
  const listed = (await api.request('GET', 'users/notifications', { token })).json.data as Array<{ type: string; title: string; body: string }>
  const [latest] = listed.filter((entry) => entry.type === 'fee.updated')
  if (!latest) throw new Error('no fee notification')
  return { data: [latest] as [typeof latest] }
}

/** A member with this card marked absent by the host, told of the fee a day later. */
async function noticed(cardNumber = '4242424242424242') {
  const { host, experience } = await feeActivity()
  const ann = await member()
  await withCard(ann, cardNumber)
  await attend(ann, experience.id)
  await happened(experience.id)
  await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [{ user_id: ann.user.id, present: false }] })
  await assessFees(deps, new Date(Date.now() + 25 * HOUR))
  return { ann, fee: (await feesOf(ann.user.id))[0]! }
}

describe('saving a seat at an activity with a no-show fee', () => {
  it('needs the member’s agreement and a card, and records exactly what they were shown, in their language', async () => {
    const { experience } = await feeActivity()
    const ann = await member({ locale: 'fr' })
    const refused = await attend(ann, experience.id, {})
    expect(refused.status).toBe(422)
    expect(refused.json.error.fields).toEqual({ fee_consent: ['fee_consent_required'] })
    const noCard = await attend(ann, experience.id)
    expect(noCard.status).toBe(409)
    expect(noCard.json.error.code).toBe('card_required')
    expect((await ann.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer).toMatchObject({ is_attending: false, fee_card: null })

    const card = await withCard(ann)
    expect((await ann.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer.fee_card).toEqual({ brand: 'visa', last4: '4242' })
    const saved = await attend(ann, experience.id, { fee_consent: true, fee_consent_language: 'fr' })
    expect(saved.status).toBe(200)
    expect(saved.json.data[0].viewer).toMatchObject({ is_attending: true, fee_bound: true })
    const consent = await database.db.selectFrom('fee_consents').selectAll().where('user_id', '=', ann.user.id).executeTakeFirstOrThrow()
    expect(consent).toMatchObject({ experience_id: experience.id, amount_cents: 1500, language: 'fr', policy_version: '2026-11-29', payment_method_id: card.id })
    expect(consent.text_shown).toBe(feeConsentText('fr', { cents: 1500, card: { brand: 'visa', last4: '4242' } }))
    expect(consent.text_shown).toMatch(/^J’accepte des frais de 15\s\$US si j’annule moins de 12 heures avant le début ou si je ne viens pas\. Ils seraient débités sur Visa •••• 4242/)
  })

  it('never binds a seat someone else gave the member (an admin), nor one at an activity without a fee', async () => {
    const { experience } = await feeActivity()
    const admin = await member({ staff_role: 'admin' })
    const guest = await member()
    const added = await admin.call('POST', `v1/experiences/${experience.id}/attendees`, { user_id: guest.user.id })
    expect(added.status).toBe(200)
    expect((await guest.call('GET', `v1/experiences/${experience.id}`)).json.data[0].viewer).toMatchObject({ is_attending: true, fee_bound: false })
    const free = await createExperience(database.db, (await member()).user.id)
    expect((await attend(guest, free.id, {})).status).toBe(200)
  })
})

describe('after the activity: the host’s attendance, the notice, the charge', () => {
  it('charges a member the host marked as not there, once, two days after telling them, and sends a receipt', async () => {
    const { host, experience } = await feeActivity()
    const [ann, bob] = [await member(), await member()]
    for (const who of [ann, bob]) {
      await withCard(who)
      expect((await attend(who, experience.id)).status).toBe(200)
    }
    expect((await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [{ user_id: ann.user.id, present: false }] })).json.error.code).toBe('attendance_not_open')
    await happened(experience.id)
    expect((await ann.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [] })).status).toBe(403)
    const marked = await host.call('POST', `v1/experiences/${experience.id}/attendance`, {
      marks: [
        { user_id: ann.user.id, present: false },
        { user_id: bob.user.id, present: true },
      ],
    })
    expect(marked.status).toBe(200)
    expect(marked.json.data[0]).toMatchObject({ open: true })

    // Nothing for a day; then the notice, to the member marked absent only.
    expect(await assessFees(deps, new Date(Date.now() + 23 * HOUR))).toBe(0)
    const noticeDay = new Date(Date.now() + 25 * HOUR)
    expect(await assessFees(deps, noticeDay)).toBe(1)
    expect(await assessFees(deps, noticeDay)).toBe(0)
    expect(await feesOf(bob.user.id)).toEqual([])
    const [fee] = await feesOf(ann.user.id)
    expect(fee).toMatchObject({ status: 'noticed', reason: 'no_show', amount_cents: 1500 })
    expect(fee!.charge_on.getTime()).toBe(noticeDay.getTime() + 48 * HOUR)
    const notice = await lastNotice(ann.user.id)
    expect(notice.data[0].body).toMatch(/^You will be charged \$15 on .+ — tell us if this is wrong\. It is for “Riverside walk”: the host marked you as not there\.$/)
    expect((await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [] })).json.error.code).toBe('attendance_not_open')

    // Not before its day; then once, however often the sweep runs.
    expect(await chargeDueFees(deps, new Date(Date.now() + 60 * HOUR))).toBe(0)
    const chargeDay = new Date(Date.now() + 74 * HOUR)
    expect(await chargeDueFees(deps, chargeDay)).toBe(1)
    expect(await chargeDueFees(deps, chargeDay)).toBe(0)
    expect((await feesOf(ann.user.id))[0]).toMatchObject({ status: 'charged' })
    expect(await database.db.selectFrom('builtin_charges').select('ref').where('idempotency_key', '=', `noshow:${fee!.id}`).execute()).toHaveLength(1)
    const receipt = await lastNotice(ann.user.id)
    expect(receipt.data[0]).toMatchObject({ title: 'Receipt: $15 no-show fee' })
    expect(receipt.data[0].body).toContain('We charged $15 to Visa •••• 4242 for “Riverside walk”')
    const listed = (await ann.call('GET', 'v1/fees')).json.data
    expect(listed).toMatchObject([{ id: fee!.id, status: 'charged', amount: '15.00', card: { brand: 'visa', last4: '4242' }, can_dispute: false }])
  })

  it('charges once when the process died between the bank’s charge and our record', async () => {
    const { host, experience } = await feeActivity()
    const ann = await member()
    await withCard(ann)
    await attend(ann, experience.id)
    await happened(experience.id)
    await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [{ user_id: ann.user.id, present: false }] })
    await assessFees(deps, new Date(Date.now() + 25 * HOUR))
    const [fee] = await feesOf(ann.user.id)
    // The bank took the money under the fee's key; the run that asked died before writing it down.
    const customer = await database.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', ann.user.id).executeTakeFirstOrThrow()
    const card = await database.db.selectFrom('payment_methods').select('provider_ref').where('user_id', '=', ann.user.id).executeTakeFirstOrThrow()
    const first = await deps.payments.chargeOffSession({ customer: customer.customer_ref, cardRef: card.provider_ref, amountCents: 1500, idempotencyKey: `noshow:${fee!.id}`, description: 'x', metadata: {} })
    expect(await chargeDueFees(deps, new Date(Date.now() + 80 * HOUR))).toBe(1)
    expect((await feesOf(ann.user.id))[0]).toMatchObject({ status: 'charged', provider_ref: first.ref })
    expect(await database.db.selectFrom('builtin_charges').select('ref').where('idempotency_key', '=', `noshow:${fee!.id}`).execute()).toHaveLength(1)
  })

  it('never charges a member marked present, one not marked, or one whose seat was saved before the host moved the activity', async () => {
    const { host, experience } = await feeActivity()
    const [present, unmarked, moved] = [await member(), await member(), await member()]
    for (const who of [present, unmarked, moved]) {
      await withCard(who)
      await attend(who, experience.id)
    }
    // The host moves it: the members agreed to another time.
    await database.db.updateTable('experiences').set({ schedule_changed_at: new Date(Date.now() + 1000) }).where('id', '=', experience.id).execute()
    await happened(experience.id)
    await host.call('POST', `v1/experiences/${experience.id}/attendance`, {
      marks: [
        { user_id: present.user.id, present: true },
        { user_id: moved.user.id, present: false },
      ],
    })
    expect(await assessFees(deps, new Date(Date.now() + 25 * HOUR))).toBe(0)
    for (const who of [present, unmarked, moved]) expect(await feesOf(who.user.id)).toEqual([])
  })

  it('forgives the first late cancellation in 12 months (and says so), charges the next, and none when the seat was filled again', async () => {
    const ann = await member()
    await withCard(ann)
    const late = async (fill: boolean) => {
      const { host, experience } = await feeActivity({ max_attendees: 2 })
      await attend(ann, experience.id)
      const cancelled = await ann.call('DELETE', `v1/experiences/${experience.id}/attendees/${ann.user.id}`)
      expect(cancelled.json.metadata.late_cancellation).toBe(true)
      if (fill) {
        for (let seat = 0; seat < 2; seat++) {
          const other = await member()
          await withCard(other)
          await attend(other, experience.id)
        }
      }
      await happened(experience.id)
      await host.call('POST', `v1/experiences/${experience.id}/attendance`, { marks: [] })
      await assessFees(deps, new Date(Date.now() + 25 * HOUR))
    }
    await late(false)
    expect(await feesOf(ann.user.id)).toMatchObject([{ status: 'waived', waiver: 'first_in_12_months', reason: 'late_cancel' }])
    expect((await lastNotice(ann.user.id)).data[0].body).toBe('You canceled less than 12 hours before the start, but it is your first late cancellation in 12 months, so there is no fee this time.')
    await late(true)
    expect(await feesOf(ann.user.id)).toHaveLength(1)
    await late(false)
    expect(await feesOf(ann.user.id)).toMatchObject([{ status: 'waived' }, { status: 'noticed', reason: 'late_cancel' }])
  })
})

describe('when the bank says no, and when the member says it is wrong', () => {
  it('asks the member to confirm (3184) or says it was declined (0341), never tries again, and drops it after 14 days', async () => {
    const confirm = await noticed('4000002760003184')
    const declined = await noticed('4000000000000341')
    await chargeDueFees(deps, new Date(Date.now() + 80 * HOUR))
    expect((await feesOf(confirm.ann.user.id))[0]).toMatchObject({ status: 'needs_confirmation' })
    expect((await lastNotice(confirm.ann.user.id)).data[0].title).toBe('Your bank did not let us charge a fee')
    expect((await feesOf(declined.ann.user.id))[0]).toMatchObject({ status: 'declined', decline_code: 'card_declined' })
    expect(await chargeDueFees(deps, new Date(Date.now() + 100 * HOUR))).toBe(0)
    expect(await waiveUnpaidFees(deps, new Date(Date.now() + 10 * DAY))).toBe(0)
    expect(await waiveUnpaidFees(deps, new Date(Date.now() + 20 * DAY))).toBeGreaterThanOrEqual(2)
    expect((await feesOf(declined.ann.user.id))[0]).toMatchObject({ status: 'waived', waiver: 'unpaid_14_days' })
  })

  it('holds a disputed fee for the team, who charge it or waive it with a reason, audited', async () => {
    const team = await member({ staff_role: 'admin' })
    const { ann, fee } = await noticed()
    const other = await member()
    expect((await other.call('POST', `v1/fees/${fee.id}/dispute`, {})).status).toBe(404)
    const disputed = await ann.call('POST', `v1/fees/${fee.id}/dispute`, { reason: 'I was there: I came late, after the roll call.' })
    expect(disputed.json.data[0]).toMatchObject({ status: 'disputed', can_dispute: false })
    // Its only card cannot go while the fee is not settled.
    const card = await database.db.selectFrom('payment_methods').select('id').where('user_id', '=', ann.user.id).executeTakeFirstOrThrow()
    expect((await ann.call('DELETE', `v1/payment-methods/${card.id}`)).json.error.code).toBe('card_backs_fee')
    expect((await ann.call('POST', `v1/fees/${fee.id}/dispute`, {})).json.error.code).toBe('fee_closed')
    expect(await chargeDueFees(deps, new Date(Date.now() + 80 * HOUR))).toBe(0)
    expect((await ann.call('GET', 'v1/admin/fees')).status).toBe(403)
    const queue = (await team.call('GET', 'v1/admin/fees')).json.data
    expect(queue[0]).toMatchObject({ id: fee.id, status: 'disputed', dispute_text: 'I was there: I came late, after the roll call.' })
    expect((await team.call('POST', `v1/admin/fees/${fee.id}/waive`, {})).status).toBe(422)
    expect((await team.call('POST', `v1/admin/fees/${fee.id}/waive`, { reason: 'The host confirmed she came late.' })).status).toBe(204)
    expect((await feesOf(ann.user.id))[0]).toMatchObject({ status: 'waived', waiver: 'admin', waiver_note: 'The host confirmed she came late.', waived_by: team.user.id })
    expect((await lastNotice(ann.user.id)).data[0].body).toBe('The Circle 55 team has dropped the $15 fee. Nothing will be charged.')
    const audit = await database.db.selectFrom('audit_log').selectAll().where('target_id', '=', fee.id).execute()
    expect(audit).toMatchObject([{ actor_id: team.user.id, action: 'fee.waive', target_type: 'no_show_fee' }])

    const second = await noticed()
    await second.ann.call('POST', `v1/fees/${second.fee.id}/dispute`, {})
    expect((await team.call('POST', `v1/admin/fees/${second.fee.id}/charge`)).status).toBe(204)
    expect(await chargeDueFees(deps, new Date(Date.now() + HOUR))).toBe(1)
    expect((await feesOf(second.ann.user.id))[0]).toMatchObject({ status: 'charged' })
    expect((await team.call('POST', `v1/admin/fees/${second.fee.id}/waive`, { reason: 'Too late' })).json.error.code).toBe('fee_closed')
  })
})

describe('paying a fee on-session, and refunds', () => {
  /** A fee the sweep could not charge with this card: `needs_confirmation` (3184) or `declined` (0341). */
  async function unpaid(cardNumber: string) {
    const { ann } = await noticed(cardNumber)
    await chargeDueFees(deps, new Date(Date.now() + 80 * HOUR))
    return { ann, fee: (await feesOf(ann.user.id))[0]! }
  }
  /** The member opens "Pay now" and types `number` on the hosted page (confirming with the bank when it asks). */
  async function payOnPage(who: Member, feeId: string, number: string) {
    const started = await who.call('POST', `v1/fees/${feeId}/pay`)
    expect(started.status).toBe(200)
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    const typed = await who.call('POST', `v1/payments/checkout/${checkout}/card`, { number, expiry: '12/40', cvc: '123', postal_code: '97201' })
    if (typed.json.data[0].status === 'requires_authentication') await who.call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })
    return checkout
  }
  const receipts = (userId: string) =>
    database.db.selectFrom('notifications').select('data').where('user_id', '=', userId).where('type', '=', 'fee.updated').where(sql`data->>'step'`, '=', 'charged').execute()

  it('lets the member pay a fee their bank wanted them to confirm, on the hosted page, once, with a receipt naming the card used', async () => {
    const { ann, fee } = await unpaid('4000002760003184')
    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'needs_confirmation', can_pay: true })
    expect((await lastNotice(ann.user.id)).data[0].body).toContain('You can pay it on your fees page.')
    const other = await member()
    expect((await other.call('POST', `v1/fees/${fee.id}/pay`)).status).toBe(404)

    const started = await ann.call('POST', `v1/fees/${fee.id}/pay`)
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    expect((await ann.call('GET', `v1/payments/checkout/${checkout}`)).json.data[0]).toMatchObject({
      mode: 'payment',
      amount_cents: 1500,
      recurring_interval: null,
      description: 'Circle 55 no-show fee: Riverside walk',
      return_url: `${api.env.PUBLIC_URL}/account/fees?paid=${fee.id}`,
    })
    // Not paid yet: the list says so, and nothing is applied.
    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'needs_confirmation' })
    // The same card, confirmed by the member on the page this time (3-D Secure).
    const typed = await ann.call('POST', `v1/payments/checkout/${checkout}/card`, { number: '4000 0027 6000 3184', expiry: '12/40', cvc: '123', postal_code: '97201' })
    expect(typed.json.data[0].status).toBe('requires_authentication')
    await ann.call('POST', `v1/payments/checkout/${checkout}/authentication`, { outcome: 'confirm' })

    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'charged', can_pay: false, card: { brand: 'visa', last4: '3184' } })
    expect((await lastNotice(ann.user.id)).data[0].body).toContain('We charged $15 to Visa •••• 3184 for “Riverside walk”')
    // Told again (the webhook, another look at the list): applied once.
    await settleFeeCheckout(deps, checkout)
    await ann.call('GET', 'v1/fees')
    expect(await receipts(ann.user.id)).toHaveLength(1)
    expect((await ann.call('POST', `v1/fees/${fee.id}/pay`)).json.error.code).toBe('fee_not_payable')
  })

  it('opens at most 10 payment pages an hour for a fee, and says how long until the oldest of them is an hour old', async () => {
    const { ann, fee } = await unpaid('4000002760003184')
    for (let page = 0; page < 10; page++) expect((await ann.call('POST', `v1/fees/${fee.id}/pay`)).status).toBe(200)
    await sql`UPDATE fee_checkouts SET created_at = now() - interval '20 minutes' WHERE fee_id = ${fee.id}`.execute(database.db)
    const refused = await ann.call('POST', `v1/fees/${fee.id}/pay`)
    expectWaitOf(refused, 40)
    // The pages of an hour ago no longer count.
    await sql`UPDATE fee_checkouts SET created_at = now() - interval '61 minutes' WHERE fee_id = ${fee.id}`.execute(database.db)
    expect((await ann.call('POST', `v1/fees/${fee.id}/pay`)).status).toBe(200)
  })

  it('lets a member whose card was declined pay with another, and gives back a payment that came after the fee was dropped', async () => {
    const declined = await unpaid('4000000000000341')
    expect(declined.fee).toMatchObject({ status: 'declined' })
    await payOnPage(declined.ann, declined.fee.id, '5555555555554444')
    expect((await declined.ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'charged', card: { brand: 'mastercard', last4: '4444' } })

    // The page was open while the 14 days ran out: the fee is dropped, the payment given back at once.
    const late = await unpaid('4000000000000341')
    const started = await late.ann.call('POST', `v1/fees/${late.fee.id}/pay`)
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    await waiveUnpaidFees(deps, new Date(Date.now() + 20 * DAY))
    await late.ann.call('POST', `v1/payments/checkout/${checkout}/card`, { number: '4242424242424242', expiry: '12/40', cvc: '123', postal_code: '97201' })
    expect((await late.ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'waived', waiver: 'unpaid_14_days' })
    const paid = await database.db.selectFrom('fee_checkouts').selectAll().where('ref', '=', checkout).executeTakeFirstOrThrow()
    const refunds = await database.db.selectFrom('builtin_refunds').selectAll().where('charge_ref', '=', paid.payment_ref!).execute()
    expect(refunds).toMatchObject([{ amount_cents: 1500, ref: paid.refund_ref }])
    expect((await lastNotice(late.ann.user.id)).data[0]).toMatchObject({ title: 'Refund: $15 no-show fee' })
    await settleFeeCheckout(deps, checkout)
    expect(await database.db.selectFrom('builtin_refunds').selectAll().where('charge_ref', '=', paid.payment_ref!).execute()).toHaveLength(1)
  })

  it('lets the team give back a charged fee once, with a reason, audited, and tells the member', async () => {
    const team = await member({ staff_role: 'admin' })
    const { ann, fee } = await unpaid('4242424242424242')
    const charged = (await feesOf(ann.user.id))[0]!
    expect(charged).toMatchObject({ status: 'charged' })
    expect((await ann.call('POST', `v1/admin/fees/${fee.id}/refund`, { reason: 'Please' })).status).toBe(403)
    expect((await team.call('POST', `v1/admin/fees/${fee.id}/refund`, {})).json.error.fields).toEqual({ reason: ['reason_required'] })
    expect((await team.call('POST', `v1/admin/fees/${fee.id}/refund`, { reason: 'The host marked the wrong member.' })).status).toBe(204)
    expect((await feesOf(ann.user.id))[0]).toMatchObject({ status: 'refunded', refund_note: 'The host marked the wrong member.', refunded_by: team.user.id })
    expect(await database.db.selectFrom('builtin_refunds').selectAll().where('charge_ref', '=', charged.provider_ref!).execute()).toMatchObject([{ amount_cents: 1500 }])
    expect((await lastNotice(ann.user.id)).data[0].body).toBe('We gave back the $15 fee for “Riverside walk”. Your bank may take 5 to 10 days to show it.')
    expect(await database.db.selectFrom('audit_log').select(['actor_id', 'action']).where('target_id', '=', fee.id).execute()).toEqual([{ actor_id: team.user.id, action: 'fee.refund' }])
    expect((await team.call('POST', `v1/admin/fees/${fee.id}/refund`, { reason: 'Again' })).json.error.code).toBe('fee_not_charged')
    expect((await ann.call('GET', 'v1/fees')).json.data[0]).toMatchObject({ status: 'refunded', refunded_at: expect.any(String) })
    expect((await team.call('GET', 'v1/admin/fees')).json.data.find((row: { id: string }) => row.id === fee.id)).toMatchObject({ refund_note: 'The host marked the wrong member.' })
  })
})

describe('with payments off', () => {
  it('asks no agreement and binds no seat', async () => {
    const off = await createApiHarness(database.db, { PAYMENTS: 'off' })
    const { experience } = await feeActivity()
    const user: User = await createUser(database.db)
    const answer = await off.request('POST', `v1/experiences/${experience.id}/attendees`, { token: await off.signToken(user.id), body: { user_id: user.id } })
    expect(answer.status).toBe(200)
    expect(answer.json.data[0].viewer.fee_bound).toBe(false)
  })
})
