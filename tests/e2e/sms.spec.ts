import type { Browser, Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { signedInFreshMember, signedInPage, textedReminderScene, uniquePhone } from './factories.ts'
import { expect, newVisitor, test } from './helpers.ts'

/**
 * Text messages without JavaScript (issue 15 §3 and §7, decision 049). The test's own scene
 * (`textedReminderScene`): a host's "Coffee and crosswords" (one seat) in three days, an attendee
 * who holds the seat and was texted a reminder about it, a member first on the notify list. The
 * attendee confirms their phone with the code read from /dev/outbox, then answers the reminder
 * "C" from /dev/outbox: the seat is cancelled and the waiting member gets it. axe on
 * /account/phone in English, errors included, as a fresh member (French and Dutch in the page catalogue).
 */
const title = 'Coffee and crosswords'
const reminder = `Circle 55: “${title}” is in 3 days. Reply C to cancel your seat.`

/** The development outbox in a browser of this machine (it answers 404 to everyone else). */
async function outbox(browser: Browser) {
  const context = await newVisitor(browser, { javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': '127.0.0.19' } })
  const page = await context.newPage()
  await page.goto('/dev/outbox')
  return page
}

/** The newest text to `number` (E.164) in the outbox page. */
function textsTo(page: Page, number: string) {
  return page.getByTestId('sms').filter({ has: page.getByTestId('sms-to').getByText(number, { exact: true }) })
}

test('a member confirms their phone, then "C" answered to a reminder gives their seat to the notify list', async ({ browser }) => {
  test.setTimeout(180_000)
  const scene = await textedReminderScene(title, reminder)
  const activityPath = `/activities/${scene.id}`
  const attendee = await signedInPage(browser, scene.attendee.email)
  await attendee.goto(activityPath)
  await expect(attendee.getByText('You are going. See you there!')).toBeVisible()

  // /account links to the page; the phone is not confirmed yet.
  await attendee.goto('/account')
  await attendee.getByRole('link', { name: 'Text messages to my phone' }).click()
  await expect(attendee.getByRole('heading', { level: 1, name: 'Text messages to your phone' })).toBeVisible()
  await expect(attendee.getByText('Not confirmed yet. No texts are sent until it is.')).toBeVisible()
  const formatted = (await attendee.getByTestId('phone').textContent()) ?? ''
  const number = `+1${formatted.replace(/\D/g, '')}`

  await attendee.getByRole('button', { name: 'Send me a code' }).click()
  await expect(attendee.getByText(/We have texted a 6-digit code to .+\. It works for 10 minutes\./)).toBeVisible()
  const box = await outbox(browser)
  const codeText = (await textsTo(box, number).first().getByTestId('sms-body').textContent()) ?? ''
  const code = /\b(\d{6})\b/.exec(codeText)?.[1]
  expect(code, `a code texted to ${number}`).toBeDefined()

  // A wrong code first: the error is next to the field, and nothing typed is lost.
  await attendee.getByLabel('The 6-digit code from the text').fill(code === '000000' ? '111111' : '000000')
  await attendee.getByRole('button', { name: 'Confirm my phone' }).click()
  await expect(attendee.locator('#code-error')).toContainText('That code is not right. Check the text and try again')
  await attendee.getByLabel('The 6-digit code from the text').fill(code!)
  await attendee.getByRole('button', { name: 'Confirm my phone' }).click()
  await expect(flash(attendee)).toHaveText('Thank you. Your phone is confirmed.')
  await expect(attendee.getByText('Your phone is confirmed. Texts can be sent to it.')).toBeVisible()

  // The member answers the reminder "C" (the outbox replies as the member, through the webhook).
  await box.reload()
  const text = textsTo(box, number).filter({ hasText: reminder })
  await text.getByLabel('Reply as this member').fill('C')
  await text.getByRole('button', { name: 'Send the reply' }).click()
  // The answer (in the member's language) names the activity; it is the newest text to them.
  const answer = textsTo(box, number).first().getByTestId('sms-body')
  await expect(answer).toHaveText(/Coffee and crosswords/)
  await expect(answer).not.toHaveText(reminder)
  await box.context().close()

  await attendee.goto(activityPath)
  await expect(attendee.getByText('You are going. See you there!')).toHaveCount(0)
  await attendee.context().close()

  // More than 24 hours ahead, the freed seat went to the first member on the notify list.
  const waiting = await signedInPage(browser, scene.waiting.email)
  await waiting.goto(activityPath)
  await expect(waiting.getByText('You are going. See you there!')).toBeVisible()
  await waiting.context().close()
})

test('accessibility of /account/phone in en, errors included', async ({ browser }) => {
  // French and Dutch, the same markup with other words: their wording is checked over the same
  // states in the catalogue (app/routes/page-catalogue.test.ts).
  const context = await newVisitor(browser)
  // axe needs JavaScript in the page: the app's own scripts are refused instead, as without JavaScript.
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signedInFreshMember(page, { phone: uniquePhone() })
  const scan = new Scanner(page, 'en', 'phone')
  try {
    await scan.visit('/account/phone')
    await page.locator('form:has(input[value="send"]) button').click()
    await scan.scan('/account/phone?step=code')
    await page.locator('#code').fill('12')
    await submitWithoutNativeValidation(page, '#code')
    await scan.scan('/account/phone (errors)')
  } finally {
    await context.close()
  }
  scan.report()
})
