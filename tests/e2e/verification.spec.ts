import type { Browser, Page } from '@playwright/test'
import sharp from 'sharp'
import { demoPassword, flash } from './activity-helpers.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { freshMember } from './factories.ts'
import { expect, newVisitor, password, signInOverHttp, test, untilHydrated } from './helpers.ts'

/**
 * Identity verification (issue 13 §5, decision 025) with JavaScript off, as a member without it
 * would do it: two photos on a plain multipart form, an admin's review with the photos, approve
 * or reject with a reason, and what the member sees afterwards. Every page is scanned with axe in
 * English (French and Dutch in the page catalogue, app/routes/page-catalogue.test.ts). Demo members
 * of their own (member41–44) so the tests run in parallel with the others.
 *
 * Axe needs JavaScript in the page, so, as in a11y.spec.ts, "JavaScript off" is every script
 * request aborted: the pages stay server-rendered and never hydrate.
 */
const scanTimeout = 150_000

/** A member signed in, in English, with every script blocked (unless `js`): a demo member, or a fresh one with `pass`. */
async function member(browser: Browser, email: string, options: { js?: boolean; pass?: string } = {}) {
  const context = await newVisitor(browser)
  if (!options.js) await context.route('**/*.js', (route) => route.abort())
  await signInOverHttp(context, email, options.pass ?? demoPassword, 'en')
  return context.newPage()
}

/** An admin of the test's own. */
async function freshAdmin(browser: Browser) {
  return member(browser, (await freshMember({ staff_role: 'admin', first_name: 'Diane' })).email, { pass: password })
}

const photo = (colour: string) => sharp({ create: { width: 800, height: 600, channels: 3, background: colour } }).jpeg().toBuffer()

async function sendPhotos(page: Page) {
  await page.getByLabel('A photo of your ID').setInputFiles({ name: 'licence.jpg', mimeType: 'image/jpeg', buffer: await photo('#2a5d8f') })
  await page.getByLabel('A selfie').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await photo('#c98a5b') })
  await page.getByRole('button', { name: 'Send my photos' }).click()
  await expect(page).toHaveURL(/\/account\/verification$/)
  await expect(flash(page)).toHaveText('Thank you: we have your photos and will email you when we have decided.')
  await expect(page.getByRole('heading', { name: 'We are checking your photos' })).toBeVisible()
}

/** The admin opens the request of `email` from the queue; answers the review page. */
async function openRequest(browser: Browser, email: string, scanner?: (page: Page) => Scanner) {
  const admin = await freshAdmin(browser)
  await admin.goto('/admin/verifications')
  await expect(admin.getByRole('heading', { level: 1, name: 'Identity verifications' })).toBeVisible()
  if (scanner) await scanner(admin).scan('/admin/verifications')
  const card = admin.locator('.review-list > li').filter({ hasText: email })
  await card.getByRole('link', { name: /^Review the request from / }).click()
  await expect(admin).toHaveURL(/\/admin\/verifications\/[0-9a-f-]{36}$/)
  return admin
}

test.describe('without JavaScript', () => {
  test.describe.configure({ timeout: scanTimeout })

  test('a member sends an ID and a selfie, an admin sees both and approves, the member is verified', async ({ browser }) => {
    const email = 'member41@demo.test'
    const page = await member(browser, email)
    const scan = new Scanner(page, 'en', 'verification, member')

    // The onboarding step offers the same, and can be skipped.
    await page.goto('/get-started/verification')
    await expect(page.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeVisible()
    await expect(page.getByText('A photo of your driver’s license, passport or state ID.', { exact: false })).toBeVisible()
    await expect(page.getByText('Step 6 of 8')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Skip for now' })).toBeVisible()
    await scan.scan('/get-started/verification')

    // Nothing chosen: both fields say what is missing, next to them and in the summary.
    await page.goto('/account/verification')
    await expect(page.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeVisible()
    await submitWithoutNativeValidation(page, '#document')
    await expect(page.locator('#document-error')).toContainText('Choose a photo of your driver’s license, passport or state ID')
    await expect(page.locator('#selfie-error')).toContainText('Choose a selfie: a photo of your face')
    await expect(page.locator('.error-summary')).toContainText('Choose a selfie')
    await scan.scan('/account/verification (errors)')

    await sendPhotos(page)
    await scan.scan('/account/verification (processing)')

    // Another member cannot see the queue, the request or its photos.
    const other = await member(browser, 'member43@demo.test')
    expect((await other.goto('/admin/verifications'))?.status()).toBe(404)
    await other.context().close()

    const admin = await openRequest(browser, email, (adminPage) => new Scanner(adminPage, 'en', 'verification, admin'))
    const adminScan = new Scanner(admin, 'en', 'verification, admin review')
    const images = admin.locator('.verification-photos img')
    await expect(images).toHaveCount(2)
    for (const src of await images.evaluateAll((found) => found.map((image) => image.getAttribute('src') ?? ''))) {
      const response = await admin.context().request.get(src)
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toBe('image/jpeg')
      expect(response.headers()['cache-control']).toContain('no-store')
      // The member's own browser cannot fetch them either.
      expect((await page.context().request.get(src)).status()).toBe(404)
    }
    await adminScan.scan('/admin/verifications/:id')
    await admin.getByRole('button', { name: 'Approve: the identity is verified' }).click()
    await expect(admin).toHaveURL(/\/admin\/verifications$/)
    await expect(flash(admin)).toHaveText('Approved: the member is verified and has been told.')
    await expect(admin.locator('.review-list > li').filter({ hasText: email })).toHaveCount(0)
    await admin.context().close()

    await page.goto('/account/verification')
    await expect(page.getByRole('heading', { name: 'Your identity is verified' })).toBeVisible()
    await expect(page.locator('.verified-badge')).toContainText('Verified')
    await scan.scan('/account/verification (verified)')
    // Others see the badge on the profile.
    await page.goto('/p')
    await expect(page.locator('.profile-head .verified-badge')).toContainText('Verified')
    scan.report()
    adminScan.report()
    await page.context().close()
  })

  test('an admin rejects with a reason; the member reads it and can try again', async ({ browser }) => {
    const email = 'member42@demo.test'
    const page = await member(browser, email)
    await page.goto('/account/verification')
    await sendPhotos(page)

    const admin = await openRequest(browser, email)
    const scan = new Scanner(admin, 'en', 'verification, reject')
    // No reason: said next to the field.
    await submitWithoutNativeValidation(admin, '#reason')
    await expect(admin.locator('#reason-error')).toContainText('Write why the request is rejected')
    await scan.scan('/admin/verifications/:id (errors)')
    const reason = 'The name on the ID cannot be read: take the photo in better light.'
    await admin.getByLabel('Why is it rejected?').fill(reason)
    await admin.getByRole('button', { name: 'Reject with this reason' }).click()
    await expect(flash(admin)).toHaveText('Rejected: the member has been told why.')
    await admin.context().close()

    await page.goto('/account/verification')
    await expect(page.getByRole('heading', { name: 'We could not verify your identity' })).toBeVisible()
    await expect(page.getByText(reason)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Send my photos' })).toBeVisible()
    const memberScan = new Scanner(page, 'en', 'verification, rejected')
    await memberScan.scan('/account/verification (rejected)')
    await sendPhotos(page)
    scan.report()
    memberScan.report()
    await page.context().close()
  })
})

test.describe('with JavaScript', () => {
  test('the form checks both photos in the browser, then sends them', async ({ browser }) => {
    const page = await member(browser, 'member44@demo.test', { js: true })
    await page.goto('/account/verification')
    await untilHydrated(page, '#document')
    await submitWithoutNativeValidation(page, '#document')
    await expect(page.locator('#document-error')).toContainText('Choose a photo of your driver’s license, passport or state ID')
    await expect(page.locator('#selfie-error')).toContainText('Choose a selfie: a photo of your face')
    await sendPhotos(page)
    await page.context().close()
  })
})
