import type { Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner, scanningPage } from './axe.ts'
import { expect, test, untilHydrated } from './helpers.ts'
import { freshMember, signedInFreshMember } from './factories.ts'

/**
 * The profile editor (issue 13 §1, issue 29 §4). `/account/edit` lists what the profile says,
 * with the photo's form and "Change" beside each other part; each part is a short page of its
 * own, `/account/edit/{section}`, with one Save button, so that saving never drops what was typed
 * somewhere else. Saving comes back to the part's row, which says it is saved (and, with
 * JavaScript, has the focus). Without JavaScript each page is one plain form, so the documents
 * prove it (app/routes/account+/edit.test.ts: every section saved and shown again, every mistake
 * beside its field and in the summary with what was typed kept, the photo through the real face
 * check; a phone photo through the browser is in profile-photo.spec.ts). Here: the same pages by
 * client-side navigation with JavaScript, and axe in English, with an error.
 */

const row = (page: Page, id: string) => page.locator(`#${id}-section`)
const summary = (page: Page) => page.locator('.error-summary')
const headings: Record<string, string> = {
  name: 'Your name',
  about: 'About you',
  interests: 'Your interests',
  prompts: 'Get to know me',
  city: 'Your home city',
  phone: 'Your phone number',
  privacy: 'Privacy',
  language: 'Language',
}

/** "Change" beside a part of the profile: its own page. */
async function change(page: Page, id: string) {
  await row(page, id).getByRole('link', { name: `Change ${headings[id]}` }).click()
  await expect(page).toHaveURL(new RegExp(`/account/edit/${id}$`))
  await expect(page.getByRole('heading', { level: 1, name: headings[id] })).toBeVisible()
}

async function save(page: Page, button: string) {
  await page.locator('main').getByRole('button', { name: button }).click()
  await page.waitForLoadState('load')
}

/** The message is in the summary (linked to the field) and beside the field. */
async function expectMistake(page: Page, fieldId: string, message: string, title = 'Edit my profile') {
  await expect(summary(page).getByRole('link', { name: message })).toHaveAttribute('href', `#${fieldId}`)
  await expect(page.locator(`#${fieldId}-error`)).toContainText(message)
  await expect(page).toHaveTitle(new RegExp(`^Error: ${title}`))
}

/** Back on the list, at the part just saved: its row says so, and shows what is saved now. */
async function saved(page: Page, id: string, message: string, shows?: string) {
  await expect(page).toHaveURL(new RegExp(`/account/edit#${id}-section$`))
  await expect(row(page, id).locator('.saved-note')).toHaveText(message)
  if (shows) await expect(row(page, id)).toContainText(shows)
  await expect(summary(page)).toHaveCount(0)
  // Only that part says so.
  await expect(page.locator('main .saved-note')).toHaveCount(1)
}

test('with JavaScript: the same pages by client-side navigation; the part just saved has the focus and says so; a live count, city suggestions, the summary focused', async ({ page }) => {
  await signedInFreshMember(page)
  await page.goto('/account/edit')
  await untilHydrated(page, '#prompts-section a')

  await change(page, 'prompts')
  await untilHydrated(page, '#prompts-0-answer')
  await page.locator('#prompts-0-prompt').selectOption('dream_trip')
  await expect(page.getByLabel('Your answer to “My dream trip is…”')).toBeVisible()
  await page.locator('#prompts-0-answer').fill('Lisbon')
  await expect(page.locator('#prompts-0-answer-count')).toHaveText('6 of 300 characters used')
  await save(page, 'Save my answers to the questions')
  await saved(page, 'prompts', 'Your answers to the questions are saved.', 'Lisbon')
  // Where the member's eyes are: the row has the focus, and is on the screen.
  await expect(row(page, 'prompts')).toBeFocused()
  await expect(row(page, 'prompts')).toBeInViewport()
  // The one live region says it too (and the top of the page keeps it).
  await expect(flash(page)).toHaveText('Your answers to the questions are saved.')

  await change(page, 'city')
  await untilHydrated(page, '#city')
  await page.locator('#city').fill('Portl')
  await page.getByRole('option', { name: 'Portland, OR' }).click()
  await save(page, 'Save my city')
  await saved(page, 'city', 'Your home city is saved.', 'Portland, OR')
  await expect(row(page, 'city')).toBeFocused()

  await change(page, 'phone')
  await untilHydrated(page, '#phone')
  await page.locator('#phone').fill('12')
  await save(page, 'Save my phone number')
  await expect(summary(page)).toBeFocused()
  await expectMistake(page, 'phone', 'Enter a valid US phone number, like (503) 555-0142.', 'Your phone number')
  await expect(page.locator('#phone')).toHaveValue('12')
  await page.getByRole('link', { name: 'Back to my profile' }).click()
  await expect(row(page, 'prompts')).toContainText('Lisbon')
  await expect(row(page, 'phone')).toContainText('Not given yet')
})

test('axe: the list and a part’s page in English, as saved and with an error', async ({ browser }) => {
  // French and Dutch, the same markup with other words: their wording is checked over the same
  // pages in the catalogue (app/routes/page-catalogue.test.ts).
  const page = await scanningPage(browser, (await freshMember()).email)
  const s = new Scanner(page, 'en', 'profile edit, JS off')
  try {
    await s.visit('/account/edit')
    await s.visit('/account/edit/name')
    await page.locator('#firstName').fill('')
    await page.locator('main').getByRole('button', { name: 'Save my name' }).click()
    await expect(summary(page)).toBeVisible()
    await s.scan('/account/edit/name with errors')
    await s.visit('/account/edit/about')
    await s.visit('/account/edit/privacy')
  } finally {
    await page.context().close()
  }
  s.report()
})
