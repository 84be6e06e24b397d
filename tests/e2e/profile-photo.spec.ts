import path from 'node:path'
import type { Browser, Page } from '@playwright/test'
import sharp from 'sharp'
import { phonePhotos, type PhonePhoto } from '../fixtures/phone-photos.ts'
import { flash } from './activity-helpers.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, newVisitor, test, untilHydrated } from './helpers.ts'
import { signedInFreshMember } from './factories.ts'

/**
 * Onboarding's profile photo (issue 13 §2): real photos (tests/fixtures/photos) through the real
 * face check. Without JavaScript: a photo with no face, then one of two people, are each refused
 * with their own message next to the field; a photo of one face is saved. With JavaScript: the
 * chosen photo is previewed as a square before it is sent.
 *
 * Issue 29 §2: phones' photos (tests/fixtures/phone-photos.ts: a 4032×3024 JPEG of about 5 MB,
 * a 5 MP PNG of about 13 MB, and a 12 MP PNG of about 28 MB, over the 15 MB limit) through
 * /get-started/profile-photo and /account/edit, with JavaScript off and on: the first two are
 * saved, cropped on the one face the check finds; the third is refused next to the photo field.
 */
const photo = (name: string) => path.join(import.meta.dirname, '../fixtures/photos', name)

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('no face, then two faces, are refused next to the field; one face is saved', async ({ page }) => {
    test.setTimeout(120_000)
    await signedInFreshMember(page)
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
    await expect(page).toHaveURL(/\/get-started\/subscription/)

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
    await signedInFreshMember(page)
    await page.goto('/get-started/profile-photo')
    await page.getByRole('button', { name: 'Skip for now' }).click()
    await expect(page).toHaveURL(/\/get-started\/subscription/)
  })
})

test.describe('with JavaScript', () => {
  test.use({ javaScriptEnabled: true })

  test('the chosen photo is previewed as a square before it is saved; the page passes axe', async ({ page }) => {
    await signedInFreshMember(page)
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
    await expect(page.getByText('When you save it, we center the square on your face.')).toBeVisible()
    // Nothing is saved until the member presses the button.
    await expect(page).toHaveURL(/\/get-started\/profile-photo$/)
    await scanner.scan('/get-started/profile-photo with a preview')
    scanner.report()
  })
})

test.describe('phone-sized photos (issue 29 §2)', () => {
  let photos: { jpeg: PhonePhoto; png: PhonePhoto; png12mp: PhonePhoto }
  const tooLarge = 'This photo is too large. Please choose a photo under 15 MB.'

  test.beforeAll(async () => {
    // Made once per machine in the OS temp folder (up to a minute the first time).
    test.setTimeout(240_000)
    photos = await phonePhotos()
  })

  /** A new member in a context of its own, onboarded, on their onboarding photo step. */
  async function member(browser: Browser, javaScriptEnabled: boolean) {
    const context = await newVisitor(browser, { javaScriptEnabled })
    const page = await context.newPage()
    await signedInFreshMember(page)
    return { context, page }
  }

  /** The photo on the member's profile is the face check's square: a 400×400 JPEG. */
  async function expectSavedSquare(page: Page, currentPhoto: ReturnType<Page['getByRole']>) {
    await expect(currentPhoto).toBeVisible()
    const response = await page.request.get((await currentPhoto.getAttribute('src')) ?? '')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/jpeg')
    const { width, height } = await sharp(await response.body()).metadata()
    expect([width, height]).toEqual([400, 400])
    return currentPhoto.getAttribute('src')
  }

  for (const javaScriptEnabled of [false, true]) {
    test(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: the phone JPEG and PNG are saved on both pages; a 28 MB PNG is refused next to the field`, async ({ browser }) => {
      test.setTimeout(300_000)
      const { context, page } = await member(browser, javaScriptEnabled)
      // What the browser sends: to which address, and how many bytes (it does not shrink the photo).
      const uploads: Promise<string>[] = []
      page.on('request', (request) => {
        if (request.method() !== 'POST') return
        uploads.push(request.headerValue('content-length').then((length) => `${new URL(request.url()).pathname} ${length ?? '?'}`))
      })

      // Onboarding: the 4032×3024 JPEG, as the member's phone took it.
      await page.goto('/get-started/profile-photo')
      await untilHydrated(page, '#photo')
      const field = page.getByLabel('Your photo')
      await field.setInputFiles(photos.jpeg.path)
      if (javaScriptEnabled) await expect(page.getByRole('img', { name: 'The photo you chose, as a square' })).toBeVisible()
      // The first photo may wait for the face models to finish loading after the server started.
      await page.getByRole('button', { name: 'Save photo' }).click()
      await expect(page).toHaveURL(/\/get-started\/subscription/, { timeout: 90_000 })
      // The whole photo went up (no resizing in the browser), to the page without JavaScript and to its `.data` with it.
      const [sent] = await Promise.all(uploads.splice(0))
      const [address, length] = (sent ?? '').split(' ')
      expect(address).toBe(javaScriptEnabled ? '/get-started/profile-photo.data' : '/get-started/profile-photo')
      expect(Number(length)).toBeGreaterThan(photos.jpeg.bytes)
      await page.goto('/get-started/profile-photo')
      const onboardingPhoto = await expectSavedSquare(page, page.getByRole('img', { name: 'Your profile photo now' }))

      // The profile editor: the PNG replaces it.
      await page.goto('/account/edit')
      await untilHydrated(page, '#photo')
      const section = page.locator('#photo-section')
      await section.getByLabel('Choose a new photo').setInputFiles(photos.png.path)
      await section.getByRole('button', { name: 'Save my photo' }).click()
      await expect(flash(page)).toHaveText('Your photo is saved.', { timeout: 90_000 })
      const current = section.getByRole('img', { name: 'Your profile photo now' })
      const editorPhoto = await expectSavedSquare(page, current)
      expect(editorPhoto).not.toBe(onboardingPhoto)

      // A 12 MP PNG of 28 MB: over the limit, said next to the field; the photo saved stays.
      await section.getByLabel('Choose a new photo').setInputFiles(photos.png12mp.path)
      await section.getByRole('button', { name: 'Save my photo' }).click()
      await expect(page.locator('#photo-error')).toContainText(tooLarge)
      await expect(page.locator('.error-summary')).toContainText(tooLarge)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit my profile')
      await expect(section.getByLabel('Choose a new photo')).toHaveAttribute('aria-describedby', /photo-error/)
      await page.goto('/account/edit')
      expect(await section.getByRole('img', { name: 'Your profile photo now' }).getAttribute('src')).toBe(editorPhoto)

      // And on the onboarding step: with JavaScript the size is checked before anything is sent.
      await page.goto('/get-started/profile-photo')
      await untilHydrated(page, '#photo')
      uploads.length = 0
      await field.setInputFiles(photos.png12mp.path)
      await page.getByRole('button', { name: 'Save photo' }).click()
      await expect(page.locator('#photo-error')).toContainText(tooLarge)
      expect(uploads.length).toBe(javaScriptEnabled ? 0 : 1)
      await expect(page).toHaveURL(/\/get-started\/profile-photo$/)
      await context.close()
    })
  }
})
