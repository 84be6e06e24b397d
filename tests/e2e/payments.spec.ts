import type { Page } from '@playwright/test'
import { flash, member } from './activity-helpers.ts'
import { Scanner } from './axe.ts'
import { freshMember } from './factories.ts'
import { expect, test, untilHydrated } from './helpers.ts'

/**
 * Payment cards (issue 31 §2, decision 073): a member adds cards on the built-in hosted card page
 * with Stripe's test cards, makes one the default and removes one, moving only by links and
 * buttons from the first page. Without JavaScript on a desktop (a refused card, a saved one, a
 * second, the default moved, a removal asked first, a cancelled page), and with it on a phone
 * (the bank asks the member to confirm; the default changes and a card goes). axe in English on
 * the cards page and the hosted page with JavaScript on, at 390 px (French and Dutch in the page
 * catalogue). Each test has a fresh member of its own.
 */

const phone = { width: 390, height: 844 }
const expiry = '08/40'
const cardName = (brand: string, last4: string) => `${brand} •••• ${last4}, expires ${expiry}`

/** The cards the page lists, each by its name, "(default)" after the default card; in any order. */
function listedCards(page: Page) {
  return page.getByTestId('payment-card').evaluateAll((items) =>
    items
      .map((item) => {
        const name = item.querySelector('.card-item__name span')?.textContent ?? ''
        return item.querySelector('.tag')?.textContent === 'Default card' ? `${name} (default)` : name
      })
      .sort(),
  )
}

async function expectCards(page: Page, cards: string[]) {
  await expect.poll(() => listedCards(page)).toEqual([...cards].sort())
}

/** On the hosted card page: types a test card and saves it. */
async function typeCard(page: Page, number: string) {
  await expect(page).toHaveURL(/\/checkout\/cs_builtin_[\w-]+(\?|$)/)
  await expect(page.getByRole('heading', { level: 1, name: 'Add a card' })).toBeVisible()
  await untilHydrated(page, '#number')
  await page.getByLabel('Card number').fill(number)
  await page.getByLabel('Expiry date').fill(expiry)
  await page.getByLabel('Security code').fill('123')
  await page.getByLabel('ZIP code').fill('97201')
  await page.getByRole('button', { name: 'Save card' }).click()
}

/** Back on the cards page, hydrated when the page runs JavaScript. */
async function onCardsPage(page: Page) {
  await expect(page).toHaveURL(/\/account\/payments$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Payment cards' })).toBeVisible()
  await untilHydrated(page, 'main form button')
}

test('without JavaScript: a declined card, a saved one, a second made the default, the first removed, a cancelled page', async ({ browser }) => {
  const page = await member(browser, (await freshMember({ first_name: 'Dorothy', last_name: 'Kowalski' })).email)
  const visa = cardName('Visa', '4242')
  const mastercard = cardName('Mastercard', '4444')
  await page.goto('/account')
  await page.getByRole('link', { name: 'Payment cards' }).click()
  await onCardsPage(page)
  await expect(page.getByText('You have no saved card.')).toBeVisible()

  // The bank declines: said next to the number, which (with the security code) is not sent back.
  await page.getByRole('button', { name: 'Add a card' }).click()
  await typeCard(page, '4000 0000 0000 0002')
  await expect(page.locator('#number-error')).toContainText('Your bank declined this card. Try another card, or call your bank')
  await expect(page.getByLabel('Card number')).toHaveValue('')
  await expect(page.getByLabel('Security code')).toHaveValue('')
  await expect(page.getByLabel('Expiry date')).toHaveValue(expiry)
  await expect(page.getByLabel('ZIP code')).toHaveValue('97201')

  // A good card: back on the list, where the first card is the default.
  await typeCard(page, '4242 4242 4242 4242')
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('Your card is saved: Visa •••• 4242.')
  await expectCards(page, [`${visa} (default)`])

  // A second card, then made the default: the tag moves.
  await page.getByRole('button', { name: 'Add a card' }).click()
  await typeCard(page, '5555 5555 5555 4444')
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('Your card is saved: Mastercard •••• 4444.')
  await expectCards(page, [`${visa} (default)`, mastercard])
  await page.getByRole('button', { name: `Make this my default card: ${mastercard}` }).click()
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('Mastercard •••• 4444 is now your default card.')
  await expectCards(page, [visa, `${mastercard} (default)`])
  await expect(page.getByRole('button', { name: /^Make this my default card/ })).toHaveCount(1)

  // Removing asks first.
  await page.getByRole('link', { name: `Remove this card: ${visa}` }).click()
  await expect(page.getByText(`Remove ${visa}? You can add it again later.`)).toBeVisible()
  await expect(page.getByRole('link', { name: 'No, keep it' })).toBeVisible()
  await page.getByRole('button', { name: 'Yes, remove this card' }).click()
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('The card is removed.')
  await expectCards(page, [`${mastercard} (default)`])

  // The hosted page left without a card.
  await page.getByRole('button', { name: 'Add a card' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Add a card' })).toBeVisible()
  await page.getByRole('link', { name: 'Cancel and go back to Circle 55' }).click()
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('No card was added.')
  await expectCards(page, [`${mastercard} (default)`])
  await page.context().close()
})

test('with JavaScript on a phone: from Home to a card the bank asks to confirm, another made the default, the first removed; axe in English', async ({ browser }) => {
  const page = await member(browser, (await freshMember({ first_name: 'Harold', last_name: 'Nguyen' })).email, { js: true, viewport: phone })
  const scan = new Scanner(page, 'en', 'payments, JS on, 390 px')
  const confirmed = cardName('Visa', '3155')
  const visa = cardName('Visa', '4242')
  await page.goto('/')
  await untilHydrated(page, 'main')
  await page.locator('header nav, nav.bottom-nav').getByRole('link', { name: /^Account/ }).filter({ visible: true }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible()
  await page.getByRole('link', { name: 'Payment cards' }).click()
  await onCardsPage(page)
  await expect(page.getByText('You have no saved card.')).toBeVisible()

  // The bank asks; "No, this is not me" saves nothing and the page says so; then "Yes, it’s me".
  await page.getByRole('button', { name: 'Add a card' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Add a card' })).toBeVisible()
  await scan.scan('/checkout/:id')
  await typeCard(page, '4000 0025 0000 3155')
  await expect(page.getByRole('heading', { level: 1, name: 'Your bank asks you to confirm' })).toBeVisible()
  await expect(page.getByText('Your bank wants to make sure it is you who is adding Visa •••• 3155.', { exact: false })).toBeVisible()
  await scan.scan('/checkout/:id (the bank asks)')
  await page.getByRole('button', { name: 'No, this is not me' }).click()
  await expect(page.getByText('Your bank could not confirm it was you, so the card was not saved.', { exact: false })).toBeVisible()
  await typeCard(page, '4000 0025 0000 3155')
  await expect(page.getByRole('heading', { level: 1, name: 'Your bank asks you to confirm' })).toBeVisible()
  await page.getByRole('button', { name: 'Yes, it’s me' }).click()
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('Your card is saved: Visa •••• 3155.')
  await expectCards(page, [`${confirmed} (default)`])

  // A second card made the default at once.
  await page.getByRole('button', { name: 'Add a card' }).click()
  await typeCard(page, '4242 4242 4242 4242')
  await onCardsPage(page)
  await expect(flash(page)).toHaveText('Your card is saved: Visa •••• 4242.')
  await page.getByRole('button', { name: `Make this my default card: ${visa}` }).click()
  await expectCards(page, [confirmed, `${visa} (default)`])
  await expect(flash(page)).toHaveText('Visa •••• 4242 is now your default card.')

  // Removing asks first.
  await page.getByRole('link', { name: `Remove this card: ${confirmed}` }).click()
  await expect(page.getByText(`Remove ${confirmed}? You can add it again later.`)).toBeVisible()
  await scan.scan('/account/payments?remove=:id')
  await page.getByRole('button', { name: 'Yes, remove this card' }).click()
  await expect(flash(page)).toHaveText('The card is removed.')
  await expectCards(page, [`${visa} (default)`])
  await expect(page).toHaveURL(/\/account\/payments$/)
  scan.report()
  await page.context().close()
})
