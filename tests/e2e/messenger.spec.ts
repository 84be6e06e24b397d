import type { Page } from '@playwright/test'
import { activityWithAttendee, flash, freshPair } from './activity-helpers.ts'
import { Scanner, scanningPage } from './axe.ts'
import { expect, test } from './helpers.ts'

/**
 * `/messenger` without JavaScript (issue 14 §2, decision 033): a message request, accepted and
 * answered; an activity's group between its host and an attendee; axe on every view in en, fr
 * and nl. One form at a time (an empty message refused beside the field, leaving after a
 * confirmation) is proved by the documents in app/routes/messenger+/messenger.test.ts. Each test
 * has fresh members of its own (`freshPair`).
 */

/** From the activity page, the attendee's profile, then "Message": the channel's address. */
async function messageFirstAttendee(host: Page, id: string) {
  await host.goto(`/activities/${id}`)
  const link = host.locator('.attendee-list a[href^="/p/"]').first()
  const name = (await link.textContent()) ?? ''
  await link.click()
  await host.getByRole('button', { name: 'Message' }).click()
  await expect(host).toHaveURL(/\/messenger\?channel=[\w-]+$/)
  return { name, url: new URL(host.url()).pathname + new URL(host.url()).search }
}

/** The activity page's "Group chat" button (host and attendees): the activity's group in the Messenger. */
async function openGroup(page: Page, id: string) {
  await page.goto(`/activities/${id}`)
  await page.getByRole('button', { name: 'Group chat' }).click()
  await expect(page).toHaveURL(/\/messenger\?channel=[\w-]+$/)
}

test.describe('without JavaScript', () => {
  test('a message request, accepted and answered', async ({ browser }) => {
    test.setTimeout(120_000)
    const pair = await freshPair({ first_name: 'Rosa', last_name: 'Delgado' }, { first_name: 'Hélène', last_name: 'Van Acker' })
    const { host: sender, attendee: recipient, id } = await activityWithAttendee(browser, pair.hostEmail, pair.attendeeEmail, 'Coffee by the river')
    const { name: recipientName, url } = await messageFirstAttendee(sender, id)
    await expect(sender.getByRole('heading', { level: 1, name: recipientName })).toBeVisible()
    // Neither is verified: no link before the recipient accepts (scam shield, decision 038).
    await sender.getByLabel('Your message').fill('Hello! See you by the river.')
    await sender.getByRole('button', { name: 'Send' }).click()
    await expect(sender).toHaveURL(/#m-[\w-]+$/)
    await expect(sender.getByText(`Waiting for ${recipientName} to accept your message request.`)).toBeVisible()

    // The recipient: a badge on Messages, the request in the list, Accept.
    await recipient.goto('/')
    await expect(recipient.locator('.site-nav a[href="/messenger"] .badge')).toHaveText(/^1/)
    await recipient.goto('/messenger')
    await expect(recipient.getByText('Message request')).toBeVisible()
    await recipient.goto(url)
    await expect(recipient.getByRole('heading', { name: 'Message request' })).toBeVisible()
    await recipient.getByRole('button', { name: 'Accept' }).click()
    await expect(flash(recipient)).toHaveText('You accepted the message request.')
    await recipient.getByLabel('Your message').fill('Hello to you too. The map: https://example.org/river.')
    await recipient.getByRole('button', { name: 'Send' }).click()
    await expect(recipient.locator('.message').last()).toContainText('Hello to you too.')

    await sender.goto(url)
    await expect(sender.locator('.message').last()).toContainText('Hello to you too.')
    await expect(sender.getByRole('link', { name: 'https://example.org/river' })).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc')
    await expect(sender.getByText(/Waiting for/)).toHaveCount(0)
    await sender.context().close()
    await recipient.context().close()
  })

  test('an activity’s group between its host and an attendee', async ({ browser }) => {
    test.setTimeout(120_000)
    const pair = await freshPair({ first_name: 'Walter', last_name: 'Brooks' }, { first_name: 'Joost', last_name: 'de Vries' })
    const { host, attendee, id } = await activityWithAttendee(browser, pair.hostEmail, pair.attendeeEmail, 'Sketching in the park')
    await openGroup(host, id)
    await expect(host.getByRole('heading', { level: 1, name: 'Sketching in the park' })).toBeVisible()
    await host.getByLabel('Your message').fill('Bring a pencil, everyone.')
    await host.getByRole('button', { name: 'Send' }).click()
    await expect(host.locator('.message').last()).toContainText('Bring a pencil, everyone.')

    await openGroup(attendee, id)
    await expect(attendee.locator('.message').last()).toContainText('Bring a pencil, everyone.')
    await attendee.getByLabel('Your message').fill('I will bring two.')
    await attendee.getByRole('button', { name: 'Send' }).click()
    await attendee.goto('/messenger')
    await expect(attendee.locator('.channel-summary').filter({ hasText: 'Sketching in the park' })).toContainText('I will bring two.')
    await host.context().close()
    await attendee.context().close()
  })
})

/**
 * axe in English (the page's own scripts blocked: axe runs in the page). French and Dutch, the same
 * markup with other words, are checked for their wording over the same states in the catalogue
 * (app/routes/page-catalogue.test.ts).
 */
test('accessibility in en: the list, an open channel, a request, an error', async ({ browser }) => {
  test.setTimeout(240_000)
  const { hostEmail, attendeeEmail } = await freshPair({ first_name: 'Margaret', last_name: 'Hughes' }, { first_name: 'Priya', last_name: 'Patel' })
  const { host, attendee, id } = await activityWithAttendee(browser, hostEmail, attendeeEmail, 'Walk')
  const { url } = await messageFirstAttendee(host, id)
  await host.getByLabel('Your message').fill('Hello, see you at the walk.')
  await host.getByRole('button', { name: 'Send' }).click()
  await host.context().close()
  await attendee.context().close()

  const scan = async (email: string) => {
    const page = await scanningPage(browser, email)
    return { context: page.context(), page, s: new Scanner(page, 'en', `${email}, JS off`) }
  }
  const sender = await scan(hostEmail)
  await sender.s.visit('/messenger')
  await sender.s.visit(url)
  await sender.page.locator('#message-text').fill('')
  await sender.page.locator('form.send-form button[type="submit"]').click()
  await expect(sender.page.locator('.error-summary')).toBeVisible()
  await sender.s.scan('send error')
  await sender.s.visit(`${url}&confirm=leave`)
  const recipient = await scan(attendeeEmail)
  await recipient.s.visit(url)
  await recipient.s.visit('/messenger')
  sender.s.found.push(...recipient.s.found)
  await sender.context.close()
  await recipient.context.close()
  sender.s.report()
})
