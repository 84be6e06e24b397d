import path from 'node:path'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, signUp, test, untilHydrated } from './helpers.ts'

/**
 * Onboarding's profile photo (issue 13 §2): real photos (tests/fixtures/photos) through the real
 * face check. Without JavaScript: a photo with no face, then one of two people, are each refused
 * with their own message next to the field; a photo of one face is saved. With JavaScript: the
 * chosen photo is previewed as a square before it is sent.
 */
const photo = (name: string) => path.join(import.meta.dirname, '../fixtures/photos', name)

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('no face, then two faces, are refused next to the field; one face is saved', async ({ page }) => {
    test.setTimeout(120_000)
    await signUp(page, { onboard: true })
    await page.goto('/get-started/profile-photo')
    await expect(page.getByRole('heading', { level: 1, name: 'Add a profile photo' })).toBeVisible()

    const field = page.getByLabel('Your photo')
    const save = page.getByRole('button', { name: 'Save photo' })
    const error = page.locator('#photo-error')
    const summary = page.locator('.error-summary')

    await field.setInputFiles(photo('no-face.jpg'))
    // The first photo may wait for the face models to finish loading after the server started.
    await save.click({ timeout: 60_000 })
    await expect(error).toContainText('We could not find a face in this photo.')
    await expect(summary).toContainText('We could not find a face in this photo.')
    await expect(field).toHaveAttribute('aria-describedby', /photo-error/)
    expect(await page.title()).toMatch(/^Error:/)

    await field.setInputFiles(photo('two-faces.jpg'))
    await save.click()
    await expect(error).toContainText('This photo shows more than one face.')

    await field.setInputFiles(photo('one-face.jpg'))
    await save.click()
    await expect(page).toHaveURL(/\/get-started\/verification/)

    // The photo is on the profile now: the step shows it, and it is a 400×400 JPEG.
    await page.goto('/get-started/profile-photo')
    const current = page.getByRole('img', { name: 'Your profile photo now' })
    await expect(current).toBeVisible()
    const src = await current.getAttribute('src')
    const response = await page.request.get(src ?? '')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/jpeg')
  })

  test('"Skip for now" goes on without a photo', async ({ page }) => {
    await signUp(page, { onboard: true })
    await page.goto('/get-started/profile-photo')
    await page.getByRole('button', { name: 'Skip for now' }).click()
    await expect(page).toHaveURL(/\/get-started\/verification/)
  })
})

test.describe('with JavaScript', () => {
  test.use({ javaScriptEnabled: true })

  test('the chosen photo is previewed as a square before it is saved; the page passes axe', async ({ page }) => {
    await signUp(page, { onboard: true })
    await page.goto('/get-started/profile-photo')
    await untilHydrated(page, '#photo')
    const scanner = new Scanner(page, 'en', 'profile photo, JS on')
    await scanner.scan('/get-started/profile-photo')
    // No photo chosen: said next to the field before anything is sent.
    await submitWithoutNativeValidation(page, '#photo')
    await expect(page.locator('#photo-error')).toContainText('Choose a photo of yourself')
    await scanner.scan('/get-started/profile-photo with an error')

    await page.getByLabel('Your photo').setInputFiles(photo('one-face.jpg'))
    const preview = page.getByRole('img', { name: 'The photo you chose, as a square' })
    await expect(preview).toBeVisible()
    const box = await preview.boundingBox()
    expect(box && Math.round(box.width)).toBe(box && Math.round(box.height))
    await expect(page.getByText('When you save it, we centre the square on your face.')).toBeVisible()
    // Nothing is saved until the member presses the button.
    await expect(page).toHaveURL(/\/get-started\/profile-photo$/)
    await scanner.scan('/get-started/profile-photo with a preview')
    scanner.report()
  })
})
