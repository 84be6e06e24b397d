import { Scanner } from './axe.ts'
import { freshMember } from './factories.ts'
import { expect, newVisitor, signInOverHttp, test, untilHydrated } from './helpers.ts'

/**
 * The Help panel with JavaScript (issue 32 §6, decision 083): the header's Help button opens the
 * help chat under the header (loaded only then), labelled, with the safety line; the member writes
 * and reads their message there; Escape closes it and focus goes back to the button; axe finds
 * nothing with the panel open, on a desktop window and on a phone-sized one. The page without
 * JavaScript is tested in app/routes/help+/chat.test.ts and the page catalogue.
 */

for (const viewport of [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: { width: 390, height: 844 } },
]) {
  test(`Help opens the help chat in a panel and closes with Escape (${viewport.name})`, async ({ browser }) => {
    test.setTimeout(120_000)
    const member = await freshMember({ first_name: 'Winifred', last_name: 'Helpwell' })
    const context = await newVisitor(browser, { viewport: viewport.size })
    await signInOverHttp(context, member.email)
    const page = await context.newPage()
    await page.goto('/')
    await untilHydrated(page, 'button.nav-button')
    const help = page.getByRole('button', { name: 'Help', exact: true })
    await expect(help).toHaveAttribute('aria-expanded', 'false')

    await help.click()
    await expect(help).toHaveAttribute('aria-expanded', 'true')
    const panel = page.getByRole('region', { name: 'Help' })
    await expect(panel.getByRole('heading', { level: 2, name: 'Help' })).toBeFocused()
    await expect(panel).toContainText('Circle 55 staff will never ask for your card number, passwords or Medicare number here.')
    await expect(panel).toContainText('You have not written to us yet.')

    const scanner = new Scanner(page, 'en', `help panel (${viewport.name})`)
    await scanner.scan('home with the help panel open')

    const text = `Where do I see my activities? ${Date.now()}`
    await panel.getByLabel('Your message').fill(text)
    await panel.getByRole('button', { name: 'Send the message' }).click()
    await expect(panel.locator('.message').last()).toContainText(text)
    // The page under the panel stayed where it was.
    await expect(page).toHaveURL(/\/$/)

    await panel.getByLabel('Your message').focus()
    await page.keyboard.press('Escape')
    await expect(panel).toHaveCount(0)
    await expect(help).toBeFocused()
    await expect(help).toHaveAttribute('aria-expanded', 'false')

    // The same conversation on its own page.
    await page.goto('/help/chat')
    await expect(page.locator('.message').last()).toContainText(text)
    await scanner.scan('/help/chat')
    scanner.report()
    await context.close()
  })
}
