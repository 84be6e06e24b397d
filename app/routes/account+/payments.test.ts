import { describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import { testContext } from '#tests/web-harness.ts'
import * as checkout from '../checkout.$id.tsx'
import * as account from './_index.tsx'
import * as payments from './payments.tsx'

/**
 * `/account/payments` and the built-in hosted card page `/checkout/{id}` (issue 31 §2, decision
 * 073) as a browser without JavaScript uses them: "Add a card" leads to the hosted page, a
 * refused card is said next to its field (its number never sent back), a saved one brings the
 * member back to their cards with it listed; the default and removal are plain forms.
 */
const pages = routePages([
  { id: 'routes/account+/payments', path: 'account/payments', module: payments as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/checkout.$id', path: 'checkout/:id', module: checkout as never },
])
const { text, post, get } = pages

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, overrides)
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

/** "Add a card" pressed: the hosted page's path. */
async function addCard(cookie: string) {
  const started = await post('/account/payments', cookie, { intent: 'add' })
  expect(started.response.status).toBe(302)
  const location = new URL(started.response.headers.get('location')!)
  expect(location.origin).toBe(TEST_PUBLIC_URL)
  expect(location.pathname).toMatch(/^\/checkout\/cs_builtin_[0-9a-f]+$/)
  return location.pathname
}

const typed = (number: string) => ({ intent: 'card', number, expiry: '08/40', cvc: '123', postalCode: '97201' })

/** Back on our page from the hosted one: the toast's page. */
async function backFrom(location: string, cookie: string) {
  const back = await get(new URL(location).pathname + new URL(location).search, cookie)
  expect(back.response.status).toBe(302)
  expect(back.response.headers.get('location')).toBe('/account/payments')
  return back.response.headers.get('set-cookie') ?? ''
}

describe('/account/payments without JavaScript', () => {
  it('adds a card through the hosted page: a declined card is said next to the number, then a good one is listed as the default', async () => {
    const { cookie } = await member()
    expect(await text('/account', cookie)).toContain('href="/account/payments"')
    const empty = await text('/account/payments', cookie)
    expect(empty).toContain('You have no saved card.')
    expect(await validationOf(empty)).toEqual([])

    const hosted = await addCard(cookie)
    const page = await text(hosted, cookie)
    expect(page).toContain('It takes only test cards, such as 4242 4242 4242 4242. Never type a real card number here.')
    expect(page).toContain('autoComplete="cc-number"')

    const declined = await post(hosted, cookie, typed('4000 0000 0000 0002'))
    expect(declined.response.status).toBe(400)
    expect(declined.html).toMatch(/<span id="number-error" class="field-error">.{0,80}Your bank declined this card\. Try another card, or call your bank<\/span><input id="number"[^>]*aria-invalid="true"/)
    // Neither the number nor the security code comes back to the browser; the rest of what was typed does.
    expect(/<input id="number"[^>]*>/.exec(declined.html)![0]).not.toContain('value=')
    expect(/<input id="cvc"[^>]*>/.exec(declined.html)![0]).not.toContain('value=')
    expect(declined.html).not.toContain('"123"')
    expect(declined.html).toContain('value="08/40"')
    expect(await validationOf(declined.html)).toEqual([])

    const saved = await post(hosted, cookie, typed('4242 4242 4242 4242'))
    expect(saved.response.status).toBe(302)
    const toast = await backFrom(saved.response.headers.get('location')!, cookie)
    expect(toast).toContain('toast=')
    const listed = await text('/account/payments', cookie)
    expect(listed).toContain('Visa •••• 4242, expires 08/40')
    expect(listed).toContain('Default card')
  })

  it('asks the member to confirm with their bank, and says so plainly when they do not', async () => {
    const { cookie } = await member({ locale: 'fr' })
    const hosted = await addCard(cookie)
    const asked = await post(hosted, cookie, typed('4000002500003155'))
    expect(asked.response.headers.get('location')).toBe(hosted)
    const question = await text(hosted, cookie)
    expect(question).toContain('Votre banque vous demande de confirmer')
    expect(question).toContain('Visa •••• 3155')
    const refused = await post(hosted, cookie, { intent: 'fail' })
    expect(refused.response.headers.get('location')).toBe(`${hosted}?authentication=failed`)
    expect(await text(`${hosted}?authentication=failed`, cookie)).toContain('Votre banque n’a pas pu confirmer que c’était vous : la carte n’a pas été enregistrée.')
    await post(hosted, cookie, typed('4000002500003155'))
    const confirmed = await post(hosted, cookie, { intent: 'confirm' })
    await backFrom(confirmed.response.headers.get('location')!, cookie)
    expect(await text('/account/payments', cookie)).toContain('Visa •••• 3155, expire le 08/40')
  })

  it('makes another card the default, asks before removing one, and refuses to remove the only card paying for premium', async () => {
    const { user, cookie } = await member()
    for (const number of ['4242424242424242', '5555555555554444']) {
      const hosted = await addCard(cookie)
      await backFrom((await post(hosted, cookie, typed(number))).response.headers.get('location')!, cookie)
    }
    const cards = await pages.database.db.selectFrom('payment_methods').select(['id', 'last4']).where('user_id', '=', user.id).execute()
    const mastercard = cards.find((card) => card.last4 === '4444')!
    const visa = cards.find((card) => card.last4 === '4242')!
    const made = await post('/account/payments', cookie, { intent: 'default', id: mastercard.id })
    expect(made.response.headers.get('location')).toBe('/account/payments')
    expect(await text('/account/payments', cookie)).toMatch(/Mastercard •••• 4444, expires 08\/40<\/span><strong class="tag">Default card/)

    const asking = await text(`/account/payments?remove=${visa.id}`, cookie)
    expect(asking).toContain('Remove Visa •••• 4242, expires 08/40? You can add it again later.')
    expect(await validationOf(asking)).toEqual([])
    expect((await post('/account/payments', cookie, { intent: 'remove', id: visa.id })).response.headers.get('location')).toBe('/account/payments')
    expect(await text('/account/payments', cookie)).not.toContain('Visa •••• 4242')

    await pages.database.db.insertInto('subscriptions').values({ user_id: user.id, plan: 'premium', status: 'active', provider_ref: 'sub_test' }).execute()
    const refused = await post('/account/payments', cookie, { intent: 'remove', id: mastercard.id })
    expect(refused.response.status).toBe(409)
    expect(refused.html).toContain('This card pays for your premium membership. Add another card first, or cancel the membership.')
    expect(refused.html).toContain('Mastercard •••• 4444')
  })

  it('says how long to wait after "Add a card" was pressed 20 times in the hour', async () => {
    const { user, cookie } = await member()
    const at = new Date(Date.now() - 45 * 60_000)
    await pages.database.db
      .insertInto('card_setups')
      .values(Array.from({ length: 20 }, () => ({ user_id: user.id, provider: 'builtin', return_path: '/account/payments', created_at: at })))
      .execute()
    const refused = await post('/account/payments', cookie, { intent: 'add' })
    expect(refused.response.status).toBe(429)
    expect(refused.html).toMatch(/<div class="error-summary" role="alert"><p>You have started adding a card many times in the last hour\. Please try again in (14|15) minutes\.<\/p><\/div>/)
    expect(await validationOf(refused.html)).toEqual([])
  })

  it('is not there at all when payments are off', async () => {
    const { cookie } = await member()
    const off = { ...pages.web.services, config: { ...pages.web.services.config, payments: false } }
    const request = (path: string) => new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie } })
    expect((await pages.handle(request('/account/payments'), testContext(off))).status).toBe(404)
    expect(await (await pages.handle(request('/account'), testContext(off))).text()).not.toContain('href="/account/payments"')
  })
})
