import { randomBytes } from 'node:crypto'
import { flash, member } from './activity-helpers.ts'
import { db, freshMember } from './factories.ts'
import { expect, test } from './helpers.ts'

/**
 * Premium (issue 31 §4, decision 074) without JavaScript, moving only by links and buttons from
 * the first page: a member in a partner's state takes its offer ("$0 per year, formerly $20 per
 * year") from Pricing in the footer and cancels it in two steps; another joins the paid plan from
 * their account, refused until the renewal box is ticked, pays on the built-in hosted page with
 * Stripe's 4242 test card, and cancels (it runs to the end of the year). Each test has a fresh
 * member and a state of its own, so no other test sees the partner.
 */


test('the partner’s offer: seen on Pricing, accepted in one press, canceled in two', async ({ browser }) => {
  const partner = `Green Mountain Health ${randomBytes(2).toString('hex')}`
  await db().insertInto('partnerships').values({ name: partner, regions: ['VT'], price_cents: 0, regular_price_cents: 2000 }).execute()
  const person = await freshMember({ first_name: 'Ruth', last_name: 'Lindqvist', city: 'Burlington', region: 'VT' })
  const page = await member(browser, person.email)
  await page.goto('/')
  await page.locator('footer').getByRole('link', { name: 'Pricing' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible()
  await expect(page.getByText(`An offer from ${partner}`)).toBeVisible()
  await expect(page.getByText('$0 per year, formerly $20 per year').first()).toBeVisible()
  await page.getByRole('button', { name: 'Accept the offer' }).first().click()
  await expect(flash(page)).toHaveText('Welcome to premium.')

  await page.locator('header nav, nav.bottom-nav').getByRole('link', { name: /^Account/ }).filter({ visible: true }).first().click()
  await page.getByRole('link', { name: 'Your subscription' }).click()
  await expect(page.getByText(`paid for by ${partner}`)).toBeVisible()
  await page.getByRole('link', { name: 'Cancel premium' }).or(page.getByRole('button', { name: 'Cancel premium' })).first().click()
  await expect(page.getByText(`Cancel premium from ${partner}? It will end now.`)).toBeVisible()
  await page.getByRole('button', { name: 'Yes, cancel premium' }).click()
  await expect(flash(page)).toHaveText('Premium is canceled.')
  await expect(page.getByText('You are on the free plan.')).toBeVisible()
  await page.context().close()
})

test('the paid plan: the renewal box first, paid on the hosted page, canceled to the end of the year', async ({ browser }) => {
  const person = await freshMember({ first_name: 'Harold', last_name: 'Okonkwo', city: 'Santa Fe', region: 'NM' })
  const page = await member(browser, person.email)
  await page.goto('/account')
  await page.getByRole('link', { name: 'Your subscription' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your subscription' })).toBeVisible()
  await expect(page.getByText('You are on the free plan.')).toBeVisible()
  await page.getByRole('button', { name: 'Join premium' }).click()
  await expect(page.getByText('Tick the box to say you agree that premium renews every year.').first()).toBeVisible()
  await page.getByLabel('I agree that premium renews every year at $20 until I cancel.').check()
  await page.getByRole('button', { name: 'Join premium' }).click()

  await expect(page).toHaveURL(/\/checkout\/cs_builtin_/)
  await expect(page.getByText('Premium membership: $20 per year, renews each year until you cancel')).toBeVisible()
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry date').fill('08/40')
  await page.getByLabel('Security code').fill('123')
  await page.getByLabel('ZIP code').fill('87501')
  await page.getByRole('button', { name: 'Pay $20' }).click()
  await expect(flash(page)).toHaveText('Welcome to premium.')
  await expect(page.getByText('Visa •••• 4242').first()).toBeVisible()

  await page.getByRole('link', { name: 'Cancel premium' }).or(page.getByRole('button', { name: 'Cancel premium' })).first().click()
  await expect(page.getByText(/^Cancel premium\? It will end on .+ and you will not be charged again\.$/)).toBeVisible()
  await page.getByRole('button', { name: 'Yes, cancel premium' }).click()
  await expect(flash(page)).toHaveText('Premium is canceled.')
  await expect(page.getByText(/^You canceled premium\. You keep it until .+ and you will not be charged again\.$/)).toBeVisible()
  await page.context().close()
})
