import type { Browser } from '@playwright/test'
import { demoPassword, flash, member } from './activity-helpers.ts'
import { freshMember, publishedActivity, signedInPage } from './factories.ts'
import { Scanner, submitWithoutNativeValidation, scanningPage } from './axe.ts'
import { expect, password, test } from './helpers.ts'

/**
 * Reporting and moderation without JavaScript (issue 14 §4–5, decision 037): a member reports a
 * message, an admin removes it with a reason, the reporter is told it was handled; axe on the
 * report page and the admin pages in English (French and Dutch in the page catalogue). Demo
 * members 100–103 are used by no other spec; each test has a fresh admin of its own.
 */

/**
 * `fromEmail` hosts a new activity that `toEmail` attends, opens the attendee's profile from the
 * attendee list, chooses "Message" and writes `text` (as in messenger.spec.ts): both pages and
 * the channel's address.
 */
async function conversation(browser: Browser, fromEmail: string, toEmail: string, text: string) {
  const sender = await member(browser, fromEmail)
  const id = await publishedActivity(sender, { title: `Tea and a chat ${Date.now()}` })
  const recipient = await member(browser, toEmail)
  await recipient.goto(`/activities/${id}`)
  await recipient.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(recipient)).toHaveText('Your seat is saved.')
  await sender.goto(`/activities/${id}`)
  await sender.locator('.attendee-list a[href^="/p/"]').first().click()
  await sender.getByRole('button', { name: 'Message' }).click()
  await expect(sender).toHaveURL(/\/messenger\?channel=[\w-]+$/)
  const address = new URL(sender.url())
  await sender.getByLabel('Your message').fill(text)
  await sender.getByRole('button', { name: 'Send' }).click()
  await expect(sender.locator('.message').last()).toContainText(text)
  return { sender, recipient, url: address.pathname + address.search }
}

test.describe('without JavaScript', () => {
  test('a member reports a message; an admin removes it; the reporter is told', async ({ browser }) => {
    test.setTimeout(180_000)
    const text = `Please wire me 200 dollars today (${Date.now()})`
    const { sender, recipient, url } = await conversation(browser, 'member100@demo.test', 'member101@demo.test', text)
    await sender.context().close()

    // The recipient reports the message from its own "Report" link.
    await recipient.goto(url)
    await recipient.locator('.message').filter({ hasText: text }).getByRole('link', { name: 'Report' }).click()
    await expect(recipient.getByRole('heading', { level: 1, name: 'Report a message' })).toBeVisible()
    await expect(recipient.locator('.quoted-message')).toContainText(text)
    await submitWithoutNativeValidation(recipient, '#details')
    await expect(recipient.locator('.error-summary')).toContainText('Please choose a reason.')
    await recipient.getByLabel('Fake or a scam').check()
    await recipient.getByLabel('Tell us more (optional)').fill('A stranger asking for money.')
    await recipient.getByRole('button', { name: 'Send the report' }).click()
    await expect(flash(recipient)).toHaveText('Thank you. Your report was sent, and our team will look into it.')
    await expect(recipient).toHaveURL(new RegExp(`${url.replace(/[?]/g, '\\?')}$`))

    // The admin sees it in the queue with its snapshot, opens it and removes the message.
    const admin = await signedInPage(browser, (await freshMember({ staff_role: 'admin' })).email)
    await admin.goto('/admin')
    await admin.getByRole('link', { name: 'Reports' }).click()
    const card = admin.locator('.card').filter({ hasText: text })
    await expect(card).toContainText('A stranger asking for money.')
    await card.getByRole('heading').getByRole('link').click()
    await expect(admin.getByRole('heading', { level: 2, name: 'What was reported, as it was then' })).toBeVisible()
    await expect(admin.locator('.snapshot-messages')).toContainText(text)
    await submitWithoutNativeValidation(admin, '#remove_message-reason')
    await expect(admin.locator('.error-summary')).toContainText('Please say why.')
    await admin.locator('#remove_message-reason').fill('Asks a stranger for money.')
    await admin.getByRole('button', { name: 'Remove the message' }).click()
    await expect(flash(admin)).toHaveText('The message was removed.')
    await expect(admin.locator('.card').filter({ hasText: text })).toHaveCount(0)
    await admin.context().close()

    // The message is gone for the reporter, who is told the report was handled.
    await recipient.goto(url)
    await expect(recipient.getByText(text)).toHaveCount(0)
    await recipient.goto('/messenger')
    await expect(recipient.getByText('Thank you for your report. Our team has looked into it and taken care of it.').first()).toBeVisible()
    await recipient.context().close()
  })
})

/**
 * axe in English (the page's own scripts blocked: axe runs in the page). French and Dutch, the same
 * markup with other words, are checked for their wording over the same states in the catalogue
 * (app/routes/page-catalogue.test.ts): the report pages, the team's queue and a report.
 */
test('accessibility in en: the report page, the admin queue and a report', async ({ browser }) => {
  test.setTimeout(240_000)
  const [fromEmail, toEmail] = ['member102@demo.test', 'member103@demo.test']
  const text = `Hello, can we talk on another app? (${Date.now()})`
  const { sender, recipient, url } = await conversation(browser, fromEmail, toEmail, text)
  await sender.context().close()
  await recipient.goto(url)
  const reportPath = (await recipient.locator('.message').filter({ hasText: text }).getByRole('link').last().getAttribute('href')) ?? ''
  await recipient.goto(reportPath)
  await recipient.getByLabel('Something else').check()
  await recipient.getByRole('button', { name: 'Send the report' }).click()
  await expect(flash(recipient)).toBeVisible()
  await recipient.context().close()

  const scan = async (email: string, pass = demoPassword) => {
    const page = await scanningPage(browser, email, { pass })
    return { context: page.context(), page, s: new Scanner(page, 'en', `${email}, JS off`) }
  }
  const reporter = await scan(toEmail)
  await reporter.s.visit(reportPath)
  await reporter.s.visit(url.replace('/messenger?', '/messenger/report?'))
  await submitWithoutNativeValidation(reporter.page, '#details')
  await reporter.s.scan('report error')

  const admin = await scan((await freshMember({ staff_role: 'admin' })).email, password)
  await admin.s.visit('/admin')
  await admin.s.visit('/admin/reports')
  const link = admin.page.locator('.card').filter({ hasText: text }).getByRole('heading').getByRole('link')
  const reportUrl = (await link.getAttribute('href')) ?? ''
  await admin.s.visit(reportUrl)
  await submitWithoutNativeValidation(admin.page, '#dismiss-reason')
  await admin.s.scan('action error')
  reporter.s.found.push(...admin.s.found)
  await reporter.context.close()
  await admin.context.close()
  reporter.s.report()
})
