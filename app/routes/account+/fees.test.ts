import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { assessFees } from '#api/fees/service.ts'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as attendance from '../activities+/$id_.attendance.tsx'
import * as activity from '../activities+/$id.tsx'
import * as teamPayments from '../admin+/payments.tsx'
import * as checkout from '../checkout.$id.tsx'
import * as fees from './fees.tsx'

/**
 * The no-show fee's pages without JavaScript (issue 31 §3, decision 075): the host says who came,
 * the member reads the notice on "My fees" and says it is wrong, and the team waives it with a
 * reason on `/admin/payments`.
 */
const pages = routePages([
  { id: 'routes/activities+/$id_.attendance', path: 'activities/:id/attendance', module: attendance as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
  { id: 'routes/account+/fees', path: 'account/fees', module: fees as never },
  { id: 'routes/admin+/payments', path: 'admin/payments', module: teamPayments as never },
  { id: 'routes/checkout.$id', path: 'checkout/:id', module: checkout as never },
])
const { text, post, get } = pages

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, overrides)
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

/** An activity with a $12 fee that began two hours ago; Ann agreed to the fee with her Visa. */
async function pastActivityWithAnn() {
  const host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  const ann = await member({ first_name: 'Ann', last_name: 'Baker' })
  const db = pages.database.db
  const experience = await createExperience(db, host.user.id, { title: 'Riverside walk', no_show_fee_cents: 1200, start_at: new Date(Date.now() - 2 * 3_600_000), attendees_count: 1 })
  const card = await db.insertInto('payment_methods').values({ user_id: ann.user.id, provider: 'builtin', provider_ref: `card_${ann.user.id}`, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2040, is_default: true }).returning('id').executeTakeFirstOrThrow()
  const consent = await db
    .insertInto('fee_consents')
    .values({ user_id: ann.user.id, experience_id: experience.id, amount_cents: 1200, policy_version: 'v', text_shown: 'I agree', language: 'en', payment_method_id: card.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: ann.user.id, fee_consent_id: consent.id }).execute()
  return { host, ann, experience }
}

/** Ann's $12 fee, marked by the host, noticed a day later, and declined by her bank: hers to pay now. */
async function declinedFee() {
  const { host, ann, experience } = await pastActivityWithAnn()
  await post(`/activities/${experience.id}/attendance`, host.cookie, { [`present:${ann.user.id}`]: 'no' })
  await pages.database.db.updateTable('experiences').set({ attendance_confirmed_at: new Date(Date.now() - 25 * 3_600_000) }).where('id', '=', experience.id).execute()
  await assessFees({ db: pages.database.db, notify: async () => [] })
  const fee = await pages.database.db.updateTable('no_show_fees').set({ status: 'declined', decline_code: 'card_declined' }).where('user_id', '=', ann.user.id).returning('id').executeTakeFirstOrThrow()
  return { ann, fee }
}

describe('the no-show fee’s pages without JavaScript', () => {
  it('the host says who came; a day later the member reads the notice on “My fees” and says it is wrong; the team waives it with a reason', async () => {
    const { host, ann, experience } = await pastActivityWithAnn()
    // The host's tools link to the list once the activity has begun.
    expect(await text(`/activities/${experience.id}`, host.cookie)).toContain(`href="/activities/${experience.id}/attendance"`)
    const sheet = await text(`/activities/${experience.id}/attendance`, host.cookie)
    expect(sheet).toContain('<legend>Ann B.<span class="hint"> — agreed to the $12 fee</span></legend>')
    expect(sheet).toContain('A member you do not mark is never charged.')
    expect(await validationOf(sheet)).toEqual([])
    expect((await get(`/activities/${experience.id}/attendance`, ann.cookie)).response.status).toBe(403)
    const saved = await post(`/activities/${experience.id}/attendance`, host.cookie, { [`present:${ann.user.id}`]: 'no' })
    expect(saved.response.headers.get('location')).toBe(`/activities/${experience.id}`)
    expect(await text(`/activities/${experience.id}/attendance`, host.cookie)).toMatch(/id="present-[^"]+-no" name="present:[^"]+" checked="" value="no"/)

    await pages.database.db.updateTable('experiences').set({ attendance_confirmed_at: new Date(Date.now() - 25 * 3_600_000) }).where('id', '=', experience.id).execute()
    await assessFees({ db: pages.database.db, notify: async () => [] })
    const mine = await text('/account/fees', ann.cookie)
    expect(mine).toContain('$12: the host marked you as not there.')
    expect(mine).toMatch(/To be charged on [A-Z][a-z]+ \d{1,2}, \d{4}, unless you tell us it is wrong\./)
    expect(await validationOf(mine)).toEqual([])
    const fee = await pages.database.db.selectFrom('no_show_fees').select('id').where('user_id', '=', ann.user.id).executeTakeFirstOrThrow()
    const disputed = await post('/account/fees', ann.cookie, { id: fee.id, reason: 'I was there, I came a little late.' })
    expect(disputed.response.headers.get('location')).toBe('/account/fees')
    expect(await text('/account/fees', ann.cookie)).toContain('You told us it is wrong. Someone on the Circle 55 team is looking at it; nothing is charged meanwhile.')

    expect((await get('/admin/payments', ann.cookie)).response.status).toBe(403)
    const team = await member({ staff_role: 'admin' })
    const queue = await text('/admin/payments', team.cookie)
    expect(queue).toContain('<blockquote>I was there, I came a little late.</blockquote>')
    expect(await validationOf(queue)).toEqual([])
    const noReason = await post('/admin/payments', team.cookie, { id: fee.id, intent: 'waive', reason: '' })
    expect(noReason.response.status).toBe(400)
    expect(noReason.html).toContain('Write why the fee is waived: it is recorded.')
    const waived = await post('/admin/payments', team.cookie, { id: fee.id, intent: 'waive', reason: 'The host confirmed she came.' })
    expect(waived.response.headers.get('location')).toBe('/admin/payments')
    expect(await text('/account/fees', ann.cookie)).toContain('No fee: the Circle 55 team dropped it.')
  })

  it('a fee the bank declined: the member pays it on the hosted page and is thanked; the team refunds it with a reason', async () => {
    const { ann, fee } = await declinedFee()
    const mine = await text('/account/fees', ann.cookie)
    expect(mine).toContain('Your bank declined this payment: you can pay it now, with this card or another.')
    expect(mine).toContain('Pay $12 now')
    expect(await validationOf(mine)).toEqual([])

    const pay = await post('/account/fees', ann.cookie, { id: fee.id, intent: 'pay' })
    const page = new URL(pay.response.headers.get('location')!)
    expect(page.pathname).toMatch(/^\/checkout\/cs_builtin_/)
    const hosted = await text(page.pathname, ann.cookie)
    expect(hosted).toContain('Pay $12')
    const paid = await post(page.pathname, ann.cookie, { intent: 'card', number: '5555 5555 5555 4444', expiry: '12/40', cvc: '123', postalCode: '97201' })
    const back = new URL(paid.response.headers.get('location')!)
    expect(`${back.pathname}${back.search}`).toBe(`/account/fees?paid=${fee.id}`)
    const thanked = await text(`${back.pathname}${back.search}`, ann.cookie)
    expect(thanked).toContain('Thank you: the fee is paid. A receipt was emailed to you.')
    expect(thanked).toMatch(/Charged on [A-Z][a-z]+ \d{1,2}, \d{4} to Mastercard •••• 4444\./)
    expect(thanked).not.toContain('Pay $12 now')
    // Paying again (an old tab): nothing left to pay, said next to the fee.
    const again = await post('/account/fees', ann.cookie, { id: fee.id, intent: 'pay' })
    expect(again.html).toContain('This fee has nothing left to pay.')

    const team = await member({ staff_role: 'admin' })
    const noReason = await post('/admin/payments', team.cookie, { id: fee.id, intent: 'refund', reason: '' })
    expect(noReason.html).toContain('Write why the fee is refunded: it is recorded.')
    const refunded = await post('/admin/payments', team.cookie, { id: fee.id, intent: 'refund', reason: 'The host marked the wrong member.' })
    expect(refunded.response.headers.get('location')).toBe('/admin/payments')
    expect(await text('/admin/payments', team.cookie)).toContain('Refunded because: The host marked the wrong member.')
    expect(await text('/account/fees', ann.cookie)).toMatch(/Refunded on [A-Z][a-z]+ \d{1,2}, \d{4}\. Your bank may take 5 to 10 days to show it\./)
  })

  it('says how long to wait, next to the fee, after its payment page was opened ten times in the hour; in French too', async () => {
    const { ann, fee } = await declinedFee()
    for (let opened = 0; opened < 10; opened++) expect((await post('/account/fees', ann.cookie, { id: fee.id, intent: 'pay' })).response.status).toBe(302)
    await sql`UPDATE fee_checkouts SET created_at = now() - interval '20 minutes' WHERE fee_id = ${fee.id}`.execute(pages.database.db)
    const refused = await post('/account/fees', ann.cookie, { id: fee.id, intent: 'pay' })
    expect(refused.response.status).toBe(429)
    expect(refused.html).toMatch(/<p class="field-error" role="alert">You have opened the payment page for this fee many times in the last hour\. Please try again in (39|40) minutes\.<\/p>/)
    expect(refused.html).toContain('Pay $12 now')
    expect(await validationOf(refused.html)).toEqual([])
    await sql`UPDATE fee_checkouts SET created_at = now() - interval '59.5 minutes' WHERE fee_id = ${fee.id}`.execute(pages.database.db)
    await pages.database.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', ann.user.id).execute()
    const french = await post('/account/fees', ann.cookie, { id: fee.id, intent: 'pay' })
    expect(french.html).toContain('Veuillez réessayer dans 1 minute.')
  })

  it('says plainly when the member has no fee, in Dutch too', async () => {
    const { cookie } = await member({ locale: 'nl' })
    expect(await text('/account/fees', cookie, { 'accept-language': 'nl' })).toContain('U hebt geen kosten.')
  })
})
