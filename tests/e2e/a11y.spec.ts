import type { Browser, BrowserContext, Page } from '@playwright/test'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, newVisitor, signUp, test as base } from './helpers.ts'

/**
 * Accessibility: zero axe violations (WCAG 2.0/2.1 A+AA, 2.2 AA) on every page of the foundation,
 * signed out and signed in, with JavaScript on and off, including pages that show form errors, in
 * English. French and Dutch (the rules that depend on wording, see tests/axe-rules.ts) are checked
 * over the same page states in the catalogue, app/routes/page-catalogue.test.ts.
 *
 * Axe needs JavaScript in the page, so "JavaScript off" is simulated by aborting every script
 * request (`**\/*.js`): the page stays server-rendered and never hydrates, which is exactly what a
 * visitor without JavaScript gets, while the session cookies and styles still apply.
 */

/**
 * Each axe scan costs 2–3 s of CPU in the browser on the 2-core CI machine, and twice that while
 * the other worker scans too: a page set of 12 scans needs more than Playwright's default minute.
 */
const scanTimeout = 150_000

const publicPages = ['/', '/company/about', '/company/community-guidelines', '/company/attendance-policy', '/legal/privacy', '/legal/terms']

type Member = { email: string; storageState: Awaited<ReturnType<BrowserContext['storageState']>> }

/** One signed-up member per worker: signing up costs several requests and a password hash. */
const test = base.extend<Record<never, never>, { member: Member }>({
  member: [
    async ({ browser }, use) => {
      const context = await newVisitor(browser)
      const page = await context.newPage()
      const { email } = await signUp(page)
      const storageState = await context.storageState()
      await context.close()
      await use({ email, storageState })
    },
    { scope: 'worker' },
  ],
})

async function signedOutPages(s: Scanner) {
  const { page } = s
  for (const path of publicPages) await s.visit(path)
  await s.visit('/no-such-page', 404)

  // The built-in identity provider: sign in, code, reset, sign up (empty, then with errors).
  await page.goto('/login')
  await expect(page).toHaveURL(/\/identity\/[^/?]+(\?.*)?$/)
  const uid = /\/identity\/([^/?]+)/.exec(page.url())![1]
  await s.scan('identity: sign in')
  await s.visit(`/identity/${uid}/code`)
  await s.visit(`/identity/${uid}/reset`)

  await page.goto('/signup')
  await expect(page).toHaveURL(/\/identity\/[^/]+\/signup$/)
  await s.scan('identity: sign up')
  await submitWithoutNativeValidation(page, '#firstName')
  await s.scan('identity: sign up with errors')
}

async function signedInPages(s: Scanner) {
  const { page } = s
  await s.visit('/')
  await s.visit('/welcome-back')
  await s.visit('/account')
  await s.visit('/account?confirm=delete')
  await s.visit('/get-started')
  await page.locator('#firstName').fill('')
  await submitWithoutNativeValidation(page, '#firstName')
  await expect(page.locator('#firstName')).toHaveAttribute('aria-invalid', 'true')
  await s.scan('/get-started with errors')
  await s.visit('/get-started/location')
  await page.locator('#city-input').fill('Qwxzzy')
  await page.locator('button[name="intent"][value="save"]').click()
  await expect(page.locator('#city-input')).toHaveAttribute('aria-invalid', 'true')
  await s.scan('/get-started/location with errors')
  await s.visit('/get-started/profile-photo')
  await submitWithoutNativeValidation(page, '#photo')
  await s.scan('/get-started/profile-photo with errors')
  await s.visit('/get-started/verification')
  await s.visit('/get-started/notifications')
  await s.visit('/get-started/success')
  await s.visit('/logout')
  await s.visit('/company/about')
  // Still signed in at the end (nothing above signed the member out).
  await expect(page.locator('form[action="/logout"] button[type="submit"]').first()).toBeVisible()
}

/** A page of a new visitor (signed in with `member`'s session when given), its scripts refused when `jsOff`. */
function visitor(browser: Browser, jsOff: boolean, member?: Member) {
  return async () => {
    const context = await newVisitor(browser, member ? { storageState: member.storageState } : {})
    if (jsOff) await context.route('**/*.js', (route) => route.abort())
    return context.newPage()
  }
}

/** Scans `pages` in English in the page `open` gives, then closes its context: the findings. */
async function scanned(label: string, open: () => Promise<Page>, pages: (s: Scanner) => Promise<void>) {
  const page = await open()
  const s = new Scanner(page, 'en', label)
  try {
    await pages(s)
  } finally {
    await page.context().close()
  }
  return s
}

// English gets the whole audit, with JavaScript on (the widgets) and off. French and Dutch draw the
// same markup with other words: their wording rules run over the catalogue of page states without
// a browser (app/routes/page-catalogue.test.ts), every page above included.

test('a11y: signed-out pages in en (JS on)', async ({ browser }) => {
  test.setTimeout(scanTimeout)
  const s = await scanned('signed out, JS on', visitor(browser, false), signedOutPages)
  s.report()
})

test('a11y: signed-in pages in en (JS on)', async ({ browser, member }) => {
  test.setTimeout(scanTimeout)
  const s = await scanned('signed in, JS on', visitor(browser, false, member), signedInPages)
  s.report()
})

test('a11y: all pages in en, signed out and in (JS off)', async ({ browser, member }) => {
  test.setTimeout(2 * scanTimeout)
  const signedOut = await scanned('signed out, JS off', visitor(browser, true), signedOutPages)
  const signedIn = await scanned('signed in, JS off', visitor(browser, true, member), signedInPages)
  signedOut.found.push(...signedIn.found)
  signedOut.report()
})
