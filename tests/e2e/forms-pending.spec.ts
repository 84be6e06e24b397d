import type { Page, Route } from '@playwright/test'
import { member } from './activity-helpers.ts'
import { expect, newVisitor, test, untilHydrated } from './helpers.ts'

/**
 * A pressed submit button while its form is on its way (issue 30 §5, decision 069), with
 * JavaScript on, clicking as a member does: the button says what is happening, is aria-disabled,
 * a status tells screen readers, a double click sends the form once; in a form with two submit
 * buttons, only the one pressed says so. The server's answer is held back (page.route) so that
 * the pending state can be seen at all. Members 300–301 are this file's.
 */

/** Holds every form post to `path` until `release()`, counting them. */
async function holdPosts(page: Page, path: RegExp) {
  const held: Route[] = []
  await page.route(path, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback()
    held.push(route)
  })
  return {
    sent: () => held.length,
    release: async () => {
      for (const route of held) await route.continue().catch(() => undefined)
    },
  }
}

test('a double-clicked Save says "Saving…", cannot be pressed again and saves once', async ({ browser }) => {
  const page = await member(browser, 'member300@demo.test', { js: true })
  await page.goto('/account/edit')
  await untilHydrated(page, '#name-section a')
  await page.locator('#name-section').getByRole('link', { name: 'Change Your name' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your name' })).toBeVisible()
  const firstName = `Dorothea${Date.now() % 1000}`
  await page.locator('#firstName').fill(firstName)

  const posts = await holdPosts(page, /\/account\/edit\/name(\.data)?(\?.*)?$/)
  const main = page.locator('main')
  await main.getByRole('button', { name: 'Save my name' }).dblclick()
  await expect.poll(posts.sent, { message: 'form posts after a double click' }).toBe(1)
  // Time for a second request to leave, had the second click sent one.
  await page.waitForTimeout(500)
  expect(posts.sent(), 'form posts after a double click').toBe(1)
  // Pressed again while it saves, by mouse and by keyboard: nothing more is sent.
  const button = main.locator('button[type="submit"]')
  await button.click({ force: true })
  await page.keyboard.press('Enter')
  await page.waitForTimeout(500)
  expect(posts.sent(), 'form posts after pressing the button again while it saves').toBe(1)
  // It says what is happening, to screen readers too, and keeps the focus.
  await expect(button).toHaveText('Saving…')
  await expect(button).toHaveAttribute('aria-disabled', 'true')
  await expect(button).toBeFocused()
  await expect(main.getByRole('status').filter({ hasText: 'Saving…' })).toHaveCount(1)

  await posts.release()
  await expect(page).toHaveURL(/\/account\/edit#name-section$/)
  await expect(page.locator('#name-section .saved-note')).toHaveText('Your name is saved.')
  await expect(page.locator('#name-section')).toContainText(firstName)
  expect(posts.sent()).toBe(1)
  await page.context().close()
})

test('of two submit buttons in one form, only the one pressed says what is happening', async ({ browser }) => {
  const context = await newVisitor(browser)
  const page = await context.newPage()
  await page.goto('/login')
  await expect(page).toHaveURL(/\/identity\/[^/]+$/)
  await untilHydrated(page, '#email')
  await page.locator('#email').fill('member301@demo.test')

  const posts = await holdPosts(page, /\/identity\/[^/?]+(\.data)?(\?.*)?$/)
  await page.getByRole('button', { name: 'Sign in with a code sent to your email instead' }).click()
  await expect(page.getByRole('button', { name: 'Opening…' })).toHaveAttribute('aria-disabled', 'true')
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true })
  await expect(signIn).toBeVisible()
  await expect(signIn).not.toHaveAttribute('aria-disabled')
  // The button says "Opening…" as the browser sends the form, before the post reaches the hold.
  await expect.poll(posts.sent).toBe(1)

  await posts.release()
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in with a code' })).toBeVisible()
  await expect(page.locator('#email')).toHaveValue('member301@demo.test')
  await context.close()
})
