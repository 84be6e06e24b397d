import type { Page } from '@playwright/test'
import { flash, member } from './activity-helpers.ts'
import { publishedActivity } from './factories.ts'
import { Scanner } from './axe.ts'
import { expect, expectConsoleError, test } from './helpers.ts'

/**
 * Blocking in place with JavaScript (issue 14 §4, decision 041): from a profile, a dialog with
 * the confirmation page's words, then the button says Unblock without leaving the page; unblock
 * again; a forced failure says so and shows the true state. axe on the open dialog. Demo members
 * 150–159 are used by no other spec.
 */

/** On the activity page (its host's view), the first attendee's profile link: its address and the name shown. */
async function attendeeProfile(page: Page, id: string) {
  await page.goto(`/activities/${id}`)
  const link = page.locator('.attendee-list a[href^="/p/"]:not([href*="/block"])').first()
  return { path: (await link.getAttribute('href')) ?? '', name: ((await link.textContent()) ?? '').trim() }
}

test('with JavaScript, a member blocks and unblocks from a profile in place; a failure says so', async ({ browser }) => {
  test.setTimeout(180_000)
  // Set up without JavaScript: Ann hosts an activity, Bob takes a seat.
  const host = await member(browser, 'member150@demo.test')
  const id = await publishedActivity(host, { title: 'Sunday sketching' })
  const bob = await member(browser, 'member151@demo.test')
  await bob.goto(`/activities/${id}`)
  await bob.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(bob)).toHaveText('Your seat is saved.')
  await bob.context().close()
  const bobProfile = await attendeeProfile(host, id)
  await host.context().close()
  const name = bobProfile.name

  const ann = await member(browser, 'member150@demo.test', { js: true })
  await ann.goto(bobProfile.path)
  const blockButton = ann.getByRole('button', { name: `Block ${name}`, exact: true })
  // The button replaces the link once the page is hydrated.
  await expect(blockButton).toBeVisible()
  const address = ann.url()
  // A full page load would forget this; blocking in place keeps it.
  await ann.evaluate(() => Object.assign(window, { stayedOnPage: true }))

  // The dialog says what will happen; focus moves into it; Escape closes it and focus comes back.
  await blockButton.click()
  const dialog = ann.getByRole('dialog', { name: `Block ${name}?` })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('Neither of you can send the other a message.')).toBeVisible()
  await expect(dialog.getByText(`${name} is not told that you blocked them.`)).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'No, go back' })).toBeFocused()
  const s = new Scanner(ann, 'en', 'member150, JS on')
  await s.scan('the block dialog')
  await ann.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(blockButton).toBeFocused()

  // Confirming blocks without leaving the page: the button says Unblock, Message goes.
  await blockButton.click()
  await dialog.getByRole('button', { name: `Block ${name}` }).click()
  const unblockButton = ann.getByRole('button', { name: `Unblock ${name}`, exact: true })
  await expect(unblockButton).toBeVisible()
  await expect(unblockButton).toBeFocused()
  await expect(ann.locator('.toast-region')).toContainText('You blocked this member.')
  await expect(ann.getByRole('button', { name: 'Message' })).toHaveCount(0)
  expect(ann.url()).toBe(address)
  expect(await ann.evaluate(() => 'stayedOnPage' in window)).toBe(true)

  // Unblocking, the same way: its own words, then Block again.
  await unblockButton.click()
  const undialog = ann.getByRole('dialog', { name: `Unblock ${name}?` })
  await expect(undialog.getByText('You can write to each other again, and your private conversation opens again.')).toBeVisible()
  await s.scan('the unblock dialog')
  await undialog.getByRole('button', { name: `Unblock ${name}` }).click()
  await expect(blockButton).toBeVisible()
  await expect(ann.getByRole('button', { name: 'Message' })).toBeVisible()
  expect(await ann.evaluate(() => 'stayedOnPage' in window)).toBe(true)

  // A failure (the server answers 500): the message next to the button, and the true state, read again.
  const blockRequest = (url: URL) => url.pathname.endsWith('/block.data')
  expectConsoleError(/SyntaxError/, 'Remix logs the answer it cannot decode when the test replaces the server’s answer with a plain 500')
  await ann.route(
    blockRequest,
    (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }) : route.continue()),
  )
  await blockButton.click()
  await dialog.getByRole('button', { name: `Block ${name}` }).click()
  await expect(ann.getByRole('alert')).toContainText(`Blocking ${name} did not work. Please try again.`)
  await expect(ann.getByRole('alert')).toContainText(`We checked again: ${name} is not blocked.`)
  await expect(blockButton).toBeVisible()
  await expect(ann.getByRole('button', { name: `Unblock ${name}`, exact: true })).toHaveCount(0)
  expect(await ann.evaluate(() => 'stayedOnPage' in window)).toBe(true)
  await ann.unroute(blockRequest)

  // Nothing changed on the server: the page loaded afresh offers Block.
  await ann.reload()
  await expect(ann.getByRole('button', { name: `Block ${name}`, exact: true })).toBeVisible()
  s.report()
  await ann.context().close()
})
