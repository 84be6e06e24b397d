import path from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner } from './axe.ts'
import { expect, languages, newVisitor, test, untilHydrated } from './helpers.ts'
import { signedInFreshMember } from './factories.ts'

/**
 * The profile editor (issue 13 §1, issue 29 §4). `/account/edit` lists what the profile says,
 * with the photo's form and "Change" beside each other part; each part is a short page of its
 * own, `/account/edit/{section}`, with one Save button, so that saving never drops what was typed
 * somewhere else. Saving comes back to the part's row, which says it is saved (and, with
 * JavaScript, has the focus). Without JavaScript: every section saved, every mistake a member can
 * make shown beside the field and in the summary with what they typed kept, the values still
 * there after a reload. With JavaScript: the same pages by client-side navigation. Then axe in
 * English, French and Dutch, with an error showing.
 */

const photo = (name: string) => path.join(import.meta.dirname, '../fixtures/photos', name)
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

/** The page's own forms: the list has the photo's only (and "Remove my photo" once there is one). */
async function expectOneSaveButton(page: Page, button: string) {
  await expect(page.locator('main button[type="submit"]')).toHaveCount(1)
  await expect(page.locator('main').getByRole('button', { name: button })).toBeVisible()
}

async function member(browser: Browser, options: { blockScripts?: boolean } = {}) {
  // Axe runs in the page: for its scans the scripts are blocked instead of JavaScript turned off.
  const context = await newVisitor(browser, options.blockScripts ? {} : { javaScriptEnabled: false })
  if (options.blockScripts) await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signedInFreshMember(page)
  return { context, page }
}

test('without JavaScript: a list of the profile, each part on its own page, every mistake explained, nothing typed is lost', async ({ browser }) => {
  test.setTimeout(150_000)
  const { context, page } = await member(browser)
  await page.goto('/account/edit')
  await expect(page.getByRole('heading', { level: 1, name: 'Edit my profile' })).toBeVisible()
  await expectOneSaveButton(page, 'Save my photo')
  await expect(row(page, 'email').getByRole('link', { name: 'Change Email address' })).toHaveAttribute('href', '/account/email')
  for (const id of Object.keys(headings)) await expect(row(page, id).getByRole('link', { name: `Change ${headings[id]}` })).toHaveAttribute('href', `/account/edit/${id}`)

  // Photo, on the list itself: none chosen, a photo without a face, then one of one face (the real check).
  const photoSection = page.locator('#photo-section')
  await save(page, 'Save my photo')
  await expectMistake(page, 'photo', 'Choose a photo of yourself first.')
  await page.locator('#photo').setInputFiles(photo('no-face.jpg'))
  await save(page, 'Save my photo')
  await expectMistake(page, 'photo', 'We could not find a face in this photo. Please choose a clear photo of your face, facing the camera.')
  await page.locator('#photo').setInputFiles(photo('one-face.jpg'))
  await save(page, 'Save my photo')
  await expect(page).toHaveURL(/\/account\/edit#photo-section$/)
  await expect(photoSection.locator('.saved-note')).toHaveText('Your photo is saved.')
  await expect(photoSection.getByRole('img', { name: 'Your profile photo now' })).toBeVisible()
  await photoSection.getByRole('button', { name: 'Remove my photo' }).click()
  await expect(photoSection.locator('.saved-note')).toHaveText('Your photo is removed.')
  await expect(photoSection.getByRole('img')).toHaveCount(0)

  // Name: empty, then too long, then saved. Each page has its one Save.
  await change(page, 'name')
  await expectOneSaveButton(page, 'Save my name')
  await page.locator('#firstName').fill('')
  await page.locator('#lastName').fill('Okafor')
  await save(page, 'Save my name')
  await expectMistake(page, 'firstName', 'Enter your first name.', 'Your name')
  await expect(page.locator('#lastName')).toHaveValue('Okafor')
  await page.locator('#firstName').fill('M'.repeat(61))
  await save(page, 'Save my name')
  await expectMistake(page, 'firstName', 'This is too long.', 'Your name')
  await expect(page.locator('#firstName')).toHaveValue('M'.repeat(61))
  await page.locator('#firstName').fill('Dorothy')
  await save(page, 'Save my name')
  await saved(page, 'name', 'Your name is saved.', 'Dorothy Okafor')

  // "Go back without saving" leaves it as saved.
  await change(page, 'name')
  await page.locator('#firstName').fill('Dot')
  await page.getByRole('link', { name: 'Go back without saving' }).click()
  await expect(row(page, 'name')).toContainText('Dorothy Okafor')
  await expect(page.locator('main .saved-note')).toHaveCount(0)

  // About you.
  await change(page, 'about')
  await expectOneSaveButton(page, 'Save my answers')
  await page.getByLabel('Woman').check()
  await page.getByLabel('Relationship (optional)').selectOption('widowed')
  await page.getByLabel('Work (optional)').selectOption('retired')
  await page.getByLabel('Grandchildren').check()
  await page.getByLabel('Pets').check()
  await page.getByLabel('To find things to do').check()
  await save(page, 'Save my answers')
  await saved(page, 'about', 'Your answers are saved.', 'Family: Pets, Grandchildren')

  // Interests: eleven is one too many; the eleven stay ticked until one is unticked.
  const eleven = ['walking', 'hiking', 'gardening', 'yoga', 'golf', 'painting', 'museums', 'baking', 'bridge', 'chess', 'travel']
  await change(page, 'interests')
  for (const key of eleven) await page.locator(`#interest-${key}`).check()
  await save(page, 'Save my interests')
  await expectMistake(page, 'interests', 'Choose 10 interests or fewer. Untick some to save.', 'Your interests')
  for (const key of eleven) await expect(page.locator(`#interest-${key}`)).toBeChecked()
  await page.locator('#interest-golf').uncheck()
  await save(page, 'Save my interests')
  await saved(page, 'interests', 'Your interests are saved.', 'Walking')

  // Prompts: an answer over 300 characters, then a question asked twice.
  const long = `${'A long Sunday. '.repeat(20)}And more.`
  await change(page, 'prompts')
  await page.locator('#prompts-0-prompt').selectOption('perfect_sunday')
  await page.locator('#prompts-0-answer').fill(long)
  await page.locator('#prompts-1-prompt').selectOption('ask_me_about')
  await page.locator('#prompts-1-answer').fill('My roses.')
  await save(page, 'Save my answers to the questions')
  await expectMistake(page, 'prompts-0-answer', 'Your answer must be 300 characters or fewer.', 'Get to know me')
  await expect(page.locator('#prompts-0-answer')).toHaveValue(long)
  await expect(page.locator('#prompts-1-answer')).toHaveValue('My roses.')
  await page.locator('#prompts-0-answer').fill('Church, then a long lunch.')
  await page.locator('#prompts-2-prompt').selectOption('ask_me_about')
  await page.locator('#prompts-2-answer').fill('My grandchildren.')
  await save(page, 'Save my answers to the questions')
  await expectMistake(page, 'prompts-2-prompt', 'Choose a different question for each answer.', 'Get to know me')
  await expect(page.locator('#prompts-2-answer')).toHaveValue('My grandchildren.')
  await page.locator('#prompts-2-prompt').selectOption('dream_trip')
  await page.locator('#prompts-2-answer').fill('Lisbon by train.')
  await save(page, 'Save my answers to the questions')
  await saved(page, 'prompts', 'Your answers to the questions are saved.', 'Lisbon by train.')

  // Home city: words the gazetteer does not know, then a city typed as a member would.
  await change(page, 'city')
  await page.locator('#city').fill('Qqzzxv Wwyy')
  await save(page, 'Save my city')
  await expectMistake(page, 'city', 'Unable to find your location. Please try again.', 'Your home city')
  await expect(page.locator('#city')).toHaveValue('Qqzzxv Wwyy')
  await page.locator('#city').fill('boise')
  await save(page, 'Save my city')
  await saved(page, 'city', 'Your home city is saved.', 'Boise, ID')

  // Phone.
  await change(page, 'phone')
  await page.locator('#phone').fill('555 01')
  await save(page, 'Save my phone number')
  await expectMistake(page, 'phone', 'Enter a valid US phone number, like (503) 555-0142.', 'Your phone number')
  await expect(page.locator('#phone')).toHaveValue('555 01')
  await page.locator('#phone').fill('503 555 0142')
  await save(page, 'Save my phone number')
  await saved(page, 'phone', 'Your phone number is saved.', '(503) 555-0142')

  // Privacy: age hidden and seen by everyone near by until the member says otherwise.
  await expect(row(page, 'privacy')).toContainText('Your age: Do not show my age')
  await change(page, 'privacy')
  await expect(page.getByLabel('Do not show my age')).toBeChecked()
  await expect(page.getByLabel('Everyone nearby')).toBeChecked()
  await page.getByLabel('Show my age by decade, like “in their 60s”').check()
  await page.getByLabel('Only people I have been to activities with').check()
  await save(page, 'Save my privacy choices')
  await saved(page, 'privacy', 'Your privacy choices are saved.', 'Who sees you in “Members near you”: Only people I have been to activities with')

  // After a reload, everything is as saved, on the list and on each page.
  await page.goto('/account/edit')
  await expect(page.locator('main .saved-note')).toHaveCount(0)
  await expect(row(page, 'name')).toContainText('Dorothy Okafor')
  await expect(row(page, 'about')).toContainText('Gender: Woman')
  await expect(row(page, 'about')).toContainText('Relationship: Widowed')
  await expect(row(page, 'about')).toContainText('Work: Retired')
  await expect(row(page, 'interests')).not.toContainText('Golf')
  await expect(row(page, 'prompts')).toContainText('Church, then a long lunch.')
  await expect(row(page, 'privacy')).toContainText('Show my age by decade')
  await page.goto('/account/edit/about')
  await expect(page.getByLabel('Woman')).toBeChecked()
  await expect(page.getByLabel('Relationship (optional)')).toHaveValue('widowed')
  await expect(page.getByLabel('Grandchildren')).toBeChecked()
  await expect(page.getByLabel('Children', { exact: true })).not.toBeChecked()
  await page.goto('/account/edit/interests')
  for (const key of eleven.filter((key) => key !== 'golf')) await expect(page.locator(`#interest-${key}`)).toBeChecked()
  await expect(page.locator('#interest-golf')).not.toBeChecked()
  await page.goto('/account/edit/prompts')
  await expect(page.locator('#prompts-0-prompt')).toHaveValue('perfect_sunday')
  await expect(page.locator('#prompts-1-prompt')).toHaveValue('ask_me_about')
  await expect(page.locator('#prompts-2-answer')).toHaveValue('Lisbon by train.')
  await page.goto('/account/edit/city')
  await expect(page.locator('#city')).toHaveValue('Boise, ID')
  await page.goto('/account/edit/phone')
  await expect(page.locator('#phone')).toHaveValue('(503) 555-0142')

  // Language: the list comes back in the language saved, and back again.
  await page.goto('/account/edit')
  await change(page, 'language')
  await page.getByLabel('Français').check()
  await save(page, 'Save my language')
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  await expect(page.getByRole('heading', { level: 1, name: 'Modifier mon profil' })).toBeVisible()
  await expect(row(page, 'language').locator('.saved-note')).toHaveText('Votre langue est enregistrée.')
  await row(page, 'language').getByRole('link', { name: 'Modifier Langue' }).click()
  await page.getByLabel('English').check()
  await save(page, 'Enregistrer ma langue')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await context.close()
})

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

test('axe: the list and a part’s page in English, French and Dutch, as saved and with an error', async ({ browser }) => {
  test.setTimeout(180_000)
  const { context, page } = await member(browser, { blockScripts: true })
  const found: Scanner['found'] = []
  const nameButtons = { en: 'Save my name', fr: 'Enregistrer mon nom', nl: 'Mijn naam opslaan' } as const
  const languageButtons = { en: 'Save my language', fr: 'Enregistrer ma langue', nl: 'Mijn taal opslaan' } as const
  const languageNames = { en: 'English', fr: 'Français', nl: 'Nederlands' } as const
  let current: (typeof languages)[number] = 'en'
  try {
    for (const lng of languages) {
      if (lng !== current) {
        await page.goto('/account/edit/language')
        await page.getByLabel(languageNames[lng]).check()
        await page.locator('main').getByRole('button', { name: languageButtons[current] }).click()
        await expect(page.locator('html')).toHaveAttribute('lang', lng)
        current = lng
      }
      const s = new Scanner(page, lng, `profile edit, ${lng}, JS off`)
      await s.visit('/account/edit')
      await s.visit('/account/edit/name')
      await page.locator('#firstName').fill('')
      await page.locator('main').getByRole('button', { name: nameButtons[lng] }).click()
      await expect(summary(page)).toBeVisible()
      await s.scan('/account/edit/name with errors')
      await s.visit('/account/edit/about')
      await s.visit('/account/edit/privacy')
      found.push(...s.found)
    }
    await page.goto('/account/edit/language')
    await page.getByLabel('English').check()
    await page.locator('main').getByRole('button', { name: languageButtons[current] }).click()
  } finally {
    await context.close()
  }
  const report = new Scanner(page, 'en', 'profile edit')
  report.found.push(...found)
  report.report()
})
