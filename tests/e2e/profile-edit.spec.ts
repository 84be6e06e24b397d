import path from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner } from './axe.ts'
import { expect, languages, newVisitor, signUp, test, untilHydrated } from './helpers.ts'

/**
 * `/account/edit` (issue 13 §1) with JavaScript off: every section saved through its own form,
 * every mistake a member can make there shown beside the field and in the summary with what they
 * typed kept, the values still there after a reload; then axe in English, French and Dutch, with
 * an error showing.
 */

const photo = (name: string) => path.join(import.meta.dirname, '../fixtures/photos', name)
const section = (page: Page, id: string) => page.locator(`#${id}-section`)
const summary = (page: Page) => page.locator('.error-summary')

async function save(page: Page, id: string, button: string) {
  await section(page, id).getByRole('button', { name: button }).click()
  await page.waitForLoadState('load')
}

/** The message is in the summary (linked to the field) and beside the field. */
async function expectMistake(page: Page, fieldId: string, message: string) {
  await expect(summary(page).getByRole('link', { name: message })).toHaveAttribute('href', `#${fieldId}`)
  await expect(page.locator(`#${fieldId}-error`)).toContainText(message)
  await expect(page).toHaveTitle(/^Error: Edit my profile/)
}

async function saved(page: Page, id: string, toast: string) {
  await expect(flash(page)).toHaveText(toast)
  await expect(summary(page)).toHaveCount(0)
  expect(new URL(page.url()).hash).toBe(`#${id}-section`)
}

async function member(browser: Browser, options: { blockScripts?: boolean } = {}) {
  // Axe runs in the page: for its scans the scripts are blocked instead of JavaScript turned off.
  const context = await newVisitor(browser, options.blockScripts ? {} : { javaScriptEnabled: false })
  if (options.blockScripts) await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signUp(page, { onboard: true })
  return { context, page }
}

test('without JavaScript: every section saves, every mistake is explained, nothing typed is lost', async ({ browser }) => {
  test.setTimeout(120_000)
  const { context, page } = await member(browser)
  await page.goto('/account/edit')
  await expect(page.getByRole('heading', { level: 1, name: 'Edit my profile' })).toBeVisible()
  await expect(section(page, 'email').getByRole('link', { name: 'Change my email address' })).toHaveAttribute('href', '/account/email')

  // Photo: none chosen, a photo without a face, then one of one face (the real check).
  await save(page, 'photo', 'Save my photo')
  await expectMistake(page, 'photo', 'Choose a photo of yourself first.')
  await page.locator('#photo').setInputFiles(photo('no-face.jpg'))
  await save(page, 'photo', 'Save my photo')
  await expectMistake(page, 'photo', 'We could not find a face in this photo. Please choose a clear photo of your face, facing the camera.')
  await page.locator('#photo').setInputFiles(photo('one-face.jpg'))
  await save(page, 'photo', 'Save my photo')
  await saved(page, 'photo', 'Your photo is saved.')
  await expect(section(page, 'photo').getByRole('img', { name: 'Your profile photo now' })).toBeVisible()
  await section(page, 'photo').getByRole('button', { name: 'Remove my photo' }).click()
  await saved(page, 'photo', 'Your photo is removed.')
  await expect(section(page, 'photo').getByRole('img')).toHaveCount(0)

  // Name: empty, then too long, then saved.
  await page.locator('#firstName').fill('')
  await page.locator('#lastName').fill('Okafor')
  await save(page, 'name', 'Save my name')
  await expectMistake(page, 'firstName', 'Enter your first name.')
  await expect(page.locator('#lastName')).toHaveValue('Okafor')
  await page.locator('#firstName').fill('M'.repeat(61))
  await save(page, 'name', 'Save my name')
  await expectMistake(page, 'firstName', 'This is too long.')
  await expect(page.locator('#firstName')).toHaveValue('M'.repeat(61))
  await page.locator('#firstName').fill('Dorothy')
  await save(page, 'name', 'Save my name')
  await saved(page, 'name', 'Your name is saved.')

  // About you.
  const about = section(page, 'about')
  await about.getByLabel('Woman').check()
  await about.getByLabel('Relationship (optional)').selectOption('widowed')
  await about.getByLabel('Work (optional)').selectOption('retired')
  await about.getByLabel('Grandchildren').check()
  await about.getByLabel('Pets').check()
  await about.getByLabel('To find things to do').check()
  await save(page, 'about', 'Save my answers')
  await saved(page, 'about', 'Your answers are saved.')

  // Interests: eleven is one too many; the eleven stay ticked until one is unticked.
  const eleven = ['walking', 'hiking', 'gardening', 'yoga', 'golf', 'painting', 'museums', 'baking', 'bridge', 'chess', 'travel']
  for (const key of eleven) await page.locator(`#interest-${key}`).check()
  await save(page, 'interests', 'Save my interests')
  await expectMistake(page, 'interests', 'Choose 10 interests or fewer. Untick some to save.')
  for (const key of eleven) await expect(page.locator(`#interest-${key}`)).toBeChecked()
  await page.locator('#interest-golf').uncheck()
  await save(page, 'interests', 'Save my interests')
  await saved(page, 'interests', 'Your interests are saved.')

  // Prompts: an answer over 300 characters, then a question asked twice.
  const long = `${'A long Sunday. '.repeat(20)}And more.`
  await page.locator('#prompts-0-prompt').selectOption('perfect_sunday')
  await page.locator('#prompts-0-answer').fill(long)
  await page.locator('#prompts-1-prompt').selectOption('ask_me_about')
  await page.locator('#prompts-1-answer').fill('My roses.')
  await save(page, 'prompts', 'Save my answers to the questions')
  await expectMistake(page, 'prompts-0-answer', 'Your answer must be 300 characters or fewer.')
  await expect(page.locator('#prompts-0-answer')).toHaveValue(long)
  await expect(page.locator('#prompts-1-answer')).toHaveValue('My roses.')
  await page.locator('#prompts-0-answer').fill('Church, then a long lunch.')
  await page.locator('#prompts-2-prompt').selectOption('ask_me_about')
  await page.locator('#prompts-2-answer').fill('My grandchildren.')
  await save(page, 'prompts', 'Save my answers to the questions')
  await expectMistake(page, 'prompts-2-prompt', 'Choose a different question for each answer.')
  await expect(page.locator('#prompts-2-answer')).toHaveValue('My grandchildren.')
  await page.locator('#prompts-2-prompt').selectOption('dream_trip')
  await page.locator('#prompts-2-answer').fill('Lisbon by train.')
  await save(page, 'prompts', 'Save my answers to the questions')
  await saved(page, 'prompts', 'Your answers to the questions are saved.')

  // Home city: words the gazetteer does not know, then a city typed as a member would.
  await page.locator('#city').fill('Qqzzxv Wwyy')
  await save(page, 'city', 'Save my city')
  await expectMistake(page, 'city', 'Unable to find your location. Please try again.')
  await expect(page.locator('#city')).toHaveValue('Qqzzxv Wwyy')
  await page.locator('#city').fill('boise')
  await save(page, 'city', 'Save my city')
  await saved(page, 'city', 'Your home city is saved.')
  await expect(section(page, 'city')).toContainText('Your home city is now Boise, ID.')

  // Phone.
  await page.locator('#phone').fill('555 01')
  await save(page, 'phone', 'Save my phone number')
  await expectMistake(page, 'phone', 'Enter a valid US phone number, like (503) 555-0142.')
  await expect(page.locator('#phone')).toHaveValue('555 01')
  await page.locator('#phone').fill('503 555 0142')
  await save(page, 'phone', 'Save my phone number')
  await saved(page, 'phone', 'Your phone number is saved.')

  // Privacy: age hidden and seen by everyone near by until the member says otherwise.
  const privacy = section(page, 'privacy')
  await expect(privacy.getByLabel('Do not show my age')).toBeChecked()
  await expect(privacy.getByLabel('Everyone nearby')).toBeChecked()
  await privacy.getByLabel('Show my age by decade, like “in their 60s”').check()
  await privacy.getByLabel('Only people I have been to activities with').check()
  await save(page, 'privacy', 'Save my privacy choices')
  await saved(page, 'privacy', 'Your privacy choices are saved.')

  // After a reload, everything is as saved.
  await page.goto('/account/edit')
  await expect(page.locator('#firstName')).toHaveValue('Dorothy')
  await expect(page.locator('#lastName')).toHaveValue('Okafor')
  await expect(about.getByLabel('Woman')).toBeChecked()
  await expect(about.getByLabel('Relationship (optional)')).toHaveValue('widowed')
  await expect(about.getByLabel('Work (optional)')).toHaveValue('retired')
  await expect(about.getByLabel('Grandchildren')).toBeChecked()
  await expect(about.getByLabel('Pets')).toBeChecked()
  await expect(about.getByLabel('Children', { exact: true })).not.toBeChecked()
  for (const key of eleven.filter((key) => key !== 'golf')) await expect(page.locator(`#interest-${key}`)).toBeChecked()
  await expect(page.locator('#interest-golf')).not.toBeChecked()
  await expect(page.locator('#prompts-0-prompt')).toHaveValue('perfect_sunday')
  await expect(page.locator('#prompts-0-answer')).toHaveValue('Church, then a long lunch.')
  await expect(page.locator('#prompts-1-prompt')).toHaveValue('ask_me_about')
  await expect(page.locator('#prompts-2-prompt')).toHaveValue('dream_trip')
  await expect(page.locator('#prompts-2-answer')).toHaveValue('Lisbon by train.')
  await expect(page.locator('#city')).toHaveValue('Boise, ID')
  await expect(page.locator('#phone')).toHaveValue('(503) 555-0142')
  await expect(privacy.getByLabel('Show my age by decade, like “in their 60s”')).toBeChecked()
  await expect(privacy.getByLabel('Only people I have been to activities with')).toBeChecked()

  // Language: the page comes back in the language saved, and back again.
  await section(page, 'language').getByLabel('Français').check()
  await save(page, 'language', 'Save my language')
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  await expect(page.getByRole('heading', { level: 1, name: 'Modifier mon profil' })).toBeVisible()
  await expect(flash(page)).toHaveText('Votre langue est enregistrée.')
  await section(page, 'language').getByLabel('English').check()
  await section(page, 'language').getByRole('button', { name: 'Enregistrer ma langue' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await context.close()
})

test('with JavaScript: a live character count, city suggestions, the summary focused', async ({ page }) => {
  await signUp(page, { onboard: true })
  await page.goto('/account/edit')
  await untilHydrated(page, '#prompts-0-answer')
  await page.locator('#prompts-0-prompt').selectOption('dream_trip')
  await expect(page.getByLabel('Your answer to “My dream trip is…”')).toBeVisible()
  await page.locator('#prompts-0-answer').fill('Lisbon')
  await expect(page.locator('#prompts-0-answer-count')).toHaveText('6 of 300 characters used')
  await save(page, 'prompts', 'Save my answers to the questions')
  await expect(flash(page)).toHaveText('Your answers to the questions are saved.')

  await untilHydrated(page, '#city')
  await page.locator('#city').fill('Portl')
  await page.getByRole('option', { name: 'Portland, OR' }).click()
  await save(page, 'city', 'Save my city')
  await expect(section(page, 'city')).toContainText('Your home city is now Portland, OR.')

  await page.locator('#phone').fill('12')
  await save(page, 'phone', 'Save my phone number')
  await expect(summary(page)).toBeFocused()
  await expectMistake(page, 'phone', 'Enter a valid US phone number, like (503) 555-0142.')
  // What was typed in another section is still there.
  await expect(page.locator('#prompts-0-answer')).toHaveValue('Lisbon')
})

test('axe: the page in English, French and Dutch, as saved and with an error', async ({ browser }) => {
  test.setTimeout(180_000)
  const { context, page } = await member(browser, { blockScripts: true })
  const found: Scanner['found'] = []
  const titles = { en: 'Save my name', fr: 'Enregistrer mon nom', nl: 'Mijn naam opslaan' } as const
  const languageButtons = { en: 'Save my language', fr: 'Enregistrer ma langue', nl: 'Mijn taal opslaan' } as const
  const languageNames = { en: 'English', fr: 'Français', nl: 'Nederlands' } as const
  let current: (typeof languages)[number] = 'en'
  try {
    for (const lng of languages) {
      await page.goto('/account/edit')
      if (lng !== current) {
        await section(page, 'language').getByLabel(languageNames[lng]).check()
        await section(page, 'language').getByRole('button', { name: languageButtons[current] }).click()
        await expect(page.locator('html')).toHaveAttribute('lang', lng)
        current = lng
      }
      const s = new Scanner(page, lng, `profile edit, ${lng}, JS off`)
      await s.scan('/account/edit')
      await page.locator('#firstName').fill('')
      await section(page, 'name').getByRole('button', { name: titles[lng] }).click()
      await expect(summary(page)).toBeVisible()
      await s.scan('/account/edit with errors')
      found.push(...s.found)
    }
    await page.goto('/account/edit')
    await section(page, 'language').getByLabel('English').check()
    await section(page, 'language').getByRole('button', { name: languageButtons[current] }).click()
  } finally {
    await context.close()
  }
  const report = new Scanner(page, 'en', 'profile edit')
  report.found.push(...found)
  report.report()
})
