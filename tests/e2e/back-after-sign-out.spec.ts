import type { Page } from '@playwright/test'
import { expect, newVisitor, signIn, signUp, test } from './helpers.ts'

/**
 * Issue 11 §6 "Private pages are cacheable" and QUALITY "Security": every page sends
 * `Cache-Control: private, no-store` (entry.server), so after signing out, Back does not show the
 * member's page from the browser's cache: it asks again, and the server sends them to sign in.
 */

async function expectNoMemberData(page: Page) {
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0)
  await expect(page.getByText(/Signed in as/)).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'My activities' })).toHaveCount(0)
}

test('sign in, open My activities, sign out, go Back: no member data (JavaScript on)', async ({ page }) => {
  await signUp(page, { onboard: true })
  await page.goto('/attending')
  await expect(page.getByRole('heading', { name: 'My activities' })).toBeVisible()
  expect((await page.request.get('/attending')).headers()['cache-control']).toBe('private, no-store')

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByText('You are signed out').first()).toBeVisible()

  await page.goBack()
  await page.waitForLoadState('load')
  await expectNoMemberData(page)
})

test('the same without JavaScript (whole documents, the browser’s own history and cache)', async ({ page, browser }) => {
  const member = await signUp(page, { onboard: true })
  const context = await newVisitor(browser, { javaScriptEnabled: false })
  try {
    const visitor = await context.newPage()
    await signIn(visitor, member.email)
    await visitor.goto('/attending')
    await expect(visitor.getByRole('heading', { name: 'My activities' })).toBeVisible()

    await Promise.all([visitor.waitForURL((url) => url.pathname !== '/attending'), visitor.getByRole('button', { name: 'Sign out' }).click()])
    await expect(visitor.getByRole('button', { name: 'Sign out' })).toHaveCount(0)

    await visitor.goBack()
    await visitor.waitForLoadState('load')
    await expectNoMemberData(visitor)
  } finally {
    await context.close()
  }
})
