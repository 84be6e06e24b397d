import type { Browser, Page } from '@playwright/test'
import { activityWithAttendee, freshPair, member } from './activity-helpers.ts'
import { baseURL, expect, test, untilHydrated } from './helpers.ts'

/**
 * How many messages a member may send (issue 29 §5, decision 066), as the member meets it: after
 * 20 messages in a minute in one chat, the next one is refused with the reason next to the field,
 * and what they typed stays there, with JavaScript (the optimistic composer). Without JavaScript it
 * is one plain form, proved by its document (app/routes/messenger+/messenger.test.ts: the reason
 * beside the field, the text kept, sent once the minute has passed). The test has fresh members
 * of its own (`freshPair`).
 */

const perChannelPerMinute = 20
const tooMany = 'You have sent a lot of messages in a short time. Please wait a few minutes, then send this one again: what you wrote is still here.'

/** A new activity of `hostEmail` with `attendeeEmail` going; the activity group's address, opened by the host. */
async function groupChat(browser: Browser, hostEmail: string, attendeeEmail: string, title: string) {
  const { host, attendee, id } = await activityWithAttendee(browser, hostEmail, attendeeEmail, title)
  await attendee.context().close()
  const response = await host.request.post(`${baseURL}/messenger/new`, { form: { experience_id: id }, headers: { Origin: baseURL }, maxRedirects: 0 })
  expect(response.status()).toBe(302)
  await host.context().close()
  return response.headers().location ?? ''
}

async function sendWithoutWaiting(page: Page, url: string, text: string) {
  const channel = new URL(url, baseURL).searchParams.get('channel') ?? ''
  const response = await page.request.post(`${baseURL}/messenger?index&channel=${channel}`, {
    form: { intent: 'send', channel, text },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  })
  expect(response.status()).toBe(302)
}

test('with JavaScript: the message over the limit comes back into the field with the reason', async ({ browser }) => {
  test.setTimeout(180_000)
  const { hostEmail, attendeeEmail } = await freshPair({ first_name: 'Dorothy', last_name: 'Okafor' }, { first_name: 'Harold', last_name: 'Lind' })
  const url = await groupChat(browser, hostEmail, attendeeEmail, 'Chatty coffee morning')
  const host = await member(browser, hostEmail, { js: true })
  // The minute's messages but one, sent as the form sends them.
  for (let n = 1; n < perChannelPerMinute; n++) await sendWithoutWaiting(host, url, `Reminder ${n}`)
  const stream = host.waitForResponse((response) => new URL(response.url()).pathname === '/messenger/events')
  await host.goto(url)
  await stream
  await untilHydrated(host, 'main h1')
  const field = host.getByLabel('Your message')
  await field.fill('The last one that fits')
  await host.getByRole('button', { name: 'Send' }).click()
  await expect(host.locator('.message').filter({ hasText: 'The last one that fits' })).toHaveCount(1)
  await expect(host.locator('.message--pending')).toHaveCount(0)

  await field.fill('And one too many, sorry!')
  await host.getByRole('button', { name: 'Send' }).click()
  await expect(host.locator('#message-text-error')).toContainText(tooMany)
  await expect(field).toHaveValue('And one too many, sorry!')
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(host.locator('.message').filter({ hasText: 'And one too many' })).toHaveCount(0)
  await host.context().close()
})
