import type { Browser, Page } from '@playwright/test'
import { demoPassword, flash, member } from './activity-helpers.ts'
import { publishedActivity } from './factories.ts'
import { Scanner, scanningPage } from './axe.ts'
import { expect, test } from './helpers.ts'

/**
 * The scam shield on `/messenger` without JavaScript (issue 14 §6, decision 038): the recipient's
 * warning with Report under a money request (never the sender's), the sender's one-time contact
 * reminder with the text kept and "Send anyway", and axe on both in English (French and Dutch in
 * the page catalogue). Demo members 120–124 are used by no other spec; they are older than 14 days
 * and not verified.
 */

const moneyRequest = 'Could you send me $500 in gift cards? I’ll pay you back'
const warning = 'Never send money to someone you have not met. Report anything that feels wrong.'
const reminder = 'Sharing your phone number or email? Only share it with people you have met and trust.'

/** A new activity of `host` (a signed-in page) with `attendeeEmail` going; then "Message" on the attendee's profile: the channel's address. */
async function messageAttendee(browser: Browser, host: Page, attendeeEmail: string, title: string) {
  const id = await publishedActivity(host, { title })
  const attendee = await member(browser, attendeeEmail)
  await attendee.goto(`/activities/${id}`)
  await attendee.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(attendee)).toHaveText('Your seat is saved.')
  await attendee.context().close()
  await host.goto(`/activities/${id}`)
  await host.locator('.attendee-list a[href^="/p/"]').first().click()
  await host.getByRole('button', { name: 'Message' }).click()
  await expect(host).toHaveURL(/\/messenger\?channel=[\w-]+$/)
  return new URL(host.url()).pathname + new URL(host.url()).search
}

async function send(page: Page, words: string) {
  await page.locator('#message-text').fill(words)
  await page.locator('form.send-form button[type="submit"]').click()
}

test.describe('without JavaScript', () => {
  test('the recipient is warned about a money request, with Report; the sender is reminded once before sharing a phone number', async ({ browser }) => {
    test.setTimeout(180_000)
    const sender = await member(browser, 'member120@demo.test')
    const url = await messageAttendee(browser, sender, 'member121@demo.test', 'Scam shield walk')
    await send(sender, moneyRequest)
    await expect(sender).toHaveURL(/#m-[\w-]+$/)
    await expect(sender.locator('.message').last()).toContainText(moneyRequest)
    // The sender is not warned about their own message, nor told anything about it.
    await expect(sender.getByText(warning)).toHaveCount(0)

    // A phone number in a first message: the reminder next to the field, the text kept, nothing sent.
    const typed = 'Call me on 503 555 0142 if you like.'
    await send(sender, typed)
    await expect(sender.locator('#message-text-reminder')).toContainText(reminder)
    await expect(sender.locator('#message-text')).toHaveValue(typed)
    await expect(sender.locator('.message')).toHaveCount(1)
    await sender.getByRole('button', { name: 'Send anyway' }).click()
    await expect(sender).toHaveURL(/#m-[\w-]+$/)
    await expect(sender.locator('.message').last()).toContainText(typed)

    // Once: a first message with an email to someone else goes straight through.
    await messageAttendee(browser, sender, 'member122@demo.test', 'Scam shield picnic')
    await send(sender, 'My email is walter.brooks@example.com')
    await expect(sender).toHaveURL(/#m-[\w-]+$/)
    await expect(sender.getByText(reminder)).toHaveCount(0)
    await sender.context().close()

    const recipient = await member(browser, 'member121@demo.test')
    await recipient.goto(url)
    const asking = recipient.locator('.message').filter({ hasText: moneyRequest })
    await expect(asking.getByRole('note')).toHaveText(`${warning} Report this message`)
    const report = asking.getByRole('link', { name: 'Report this message' })
    const channelId = new URL(url, 'http://x').searchParams.get('channel')
    await expect(report).toHaveAttribute('href', new RegExp(`^/messenger/report\\?channel=${channelId}&message=[\\w-]+$`))
    const messageId = ((await asking.getAttribute('id')) ?? '').replace(/^m-/, '')
    expect(await report.getAttribute('href')).toBe(`/messenger/report?channel=${channelId}&message=${messageId}`)
    await recipient.context().close()
  })
})

/**
 * axe in English (the page's own scripts blocked: axe runs in the page). French and Dutch, the same
 * markup with other words, are checked for their wording over the same states in the catalogue
 * (app/routes/page-catalogue.test.ts): the warning and the reminder.
 */
test('accessibility in en: the warning and the contact reminder', async ({ browser }) => {
  test.setTimeout(180_000)
  const [senderEmail, recipientEmail] = ['member123@demo.test', 'member124@demo.test']
  const host = await member(browser, senderEmail)
  const url = await messageAttendee(browser, host, recipientEmail, 'Careful walk')
  await send(host, moneyRequest)
  await expect(host).toHaveURL(/#m-[\w-]+$/)
  await host.context().close()

  const scan = async (email: string) => {
    const page = await scanningPage(browser, email, { pass: demoPassword })
    return { context: page.context(), page, s: new Scanner(page, 'en', `${email}, JS off`) }
  }
  const recipient = await scan(recipientEmail)
  await recipient.s.visit(url)
  await expect(recipient.page.locator('.scam-warning')).toHaveCount(1)
  const sender = await scan(senderEmail)
  await sender.page.goto(url)
  await send(sender.page, 'Text me on 503 555 0142')
  await expect(sender.page.locator('#message-text-reminder')).toBeVisible()
  await sender.s.scan('contact reminder')
  sender.s.found.push(...recipient.s.found)
  await sender.context.close()
  await recipient.context.close()
  sender.s.report()
})
