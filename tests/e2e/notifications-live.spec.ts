import type { Browser, Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { freshMember, publishedActivity, signedInPage } from './factories.ts'
import { Scanner } from './axe.ts'
import { expect, languages, latestMail, newVisitor, password, setLanguageCookie, signIn, test, untilHydrated } from './helpers.ts'

/**
 * Notifications as a member notices them (issue 15 §7, decisions 043, 047): with JavaScript the
 * Notifications badge counts a new notification live, without a reload; without JavaScript the
 * badge and the list show it on the next page; an email's unsubscribe link, followed signed out
 * and without JavaScript, turns that topic's emails off (axe on its page in en, fr and nl).
 *
 * The event is a member taking a seat at the other's activity: the host hears of it at once (the
 * hosting topic, in-app and email by default). Each test has a fresh host and guest of its own.
 */

const settings = '/account/notification-settings'

const badge = (page: Page) => page.locator('.site-nav a[href="/notifications"] .badge')
const hostingEmail = (page: Page) => page.getByRole('group', { name: 'Activities you host', exact: true }).getByLabel('Email')

/** A fresh host with a new activity of theirs, and a fresh guest. */
async function hostAndGuest(browser: Browser, title: string) {
  const { email: hostEmail } = await freshMember({ first_name: 'Agnès' })
  const { email: guestEmail } = await freshMember({ first_name: 'Willem' })
  const host = await signedInPage(browser, hostEmail)
  const id = await publishedActivity(host, { title })
  await host.context().close()
  return { hostEmail, guestEmail, id }
}

/** The guest takes a seat at the activity (without JavaScript): the host is told. */
async function takeSeat(browser: Browser, guestEmail: string, id: string) {
  const guest = await signedInPage(browser, guestEmail)
  await guest.goto(`/activities/${id}`)
  await guest.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(guest)).toHaveText('Your seat is saved.')
  await guest.context().close()
}

/** A fresh host has nothing unread (the page is on /notifications after). */
async function nothingUnread(page: Page) {
  await page.goto('/notifications')
  await expect(badge(page)).toHaveCount(0)
}

test('with JavaScript: the Notifications badge counts a new notification live, without a reload', async ({ browser }) => {
  test.setTimeout(180_000)
  const title = `Live garden visit ${Date.now()}`
  const { hostEmail, guestEmail, id } = await hostAndGuest(browser, title)

  const host = await signedInPage(browser, hostEmail, { js: true })
  await nothingUnread(host)
  // The page with its live stream connected (the chat event stream carries the notifications' total).
  const stream = host.waitForResponse((response) => new URL(response.url()).pathname === '/messenger/events')
  await host.goto('/attending')
  await stream
  await untilHydrated(host, 'main h1')
  await expect(badge(host)).toHaveCount(0)
  await host.evaluate(() => Object.assign(window, { stayedOnPage: true }))

  await takeSeat(browser, guestEmail, id)

  // The badge changes on the open page: no navigation, no reload.
  await expect(badge(host)).toContainText('1')
  await expect(host.locator('.site-nav a[href="/notifications"]')).toContainText('1 unread')
  await expect(host).toHaveURL(/\/attending$/)
  expect(await host.evaluate(() => 'stayedOnPage' in window)).toBe(true)

  // And the list has it.
  await host.locator('.site-nav a[href="/notifications"]').click()
  await expect(host.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
  const entry = host.locator('.notification-list > li').first()
  await expect(entry).toContainText('Unread')
  await expect(entry).toContainText(`Someone is coming to “${title}”`)
  await host.context().close()
})

test('without JavaScript: after an event the next page shows the badge, and the list shows it unread', async ({ browser }) => {
  test.setTimeout(180_000)
  const title = `Quiet book swap ${Date.now()}`
  const { hostEmail, guestEmail, id } = await hostAndGuest(browser, title)

  const host = await signedInPage(browser, hostEmail)
  await nothingUnread(host)
  await takeSeat(browser, guestEmail, id)

  await host.reload()
  const item = host.locator('.site-nav a[href="/notifications"]')
  await expect(badge(host)).toContainText('1')
  await expect(item).toContainText('1 unread')
  await expect(host.getByText('You have 1 unread notification.')).toBeVisible()
  const entry = host.locator('.notification-list > li').first()
  await expect(entry).toContainText('Unread')
  await expect(entry).toContainText(`Someone is coming to “${title}”`)
  await expect(entry).toContainText('One more member took a seat at your activity.')
  await host.context().close()
})

test('without JavaScript: an email’s unsubscribe link, signed out, stops that topic’s emails', async ({ browser }) => {
  test.setTimeout(240_000)
  const title = `Unsubscribe picnic ${Date.now()}`
  const { hostEmail, guestEmail, id } = await hostAndGuest(browser, title)
  // The host's emails about their activities are on by default.
  const host = await signedInPage(browser, hostEmail)
  await host.goto(settings)
  await expect(hostingEmail(host)).toBeChecked()
  await host.context().close()
  await takeSeat(browser, guestEmail, id)

  // The email the host was sent, and its link (the text ends with it).
  const outbox = await newVisitor(browser)
  const mail = await latestMail(outbox.request, hostEmail, new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  await outbox.close()
  const token = /\/unsubscribe\/([A-Za-z0-9._~-]+)/.exec(mail)?.[1]
  expect(token, 'the unsubscribe link in the email').toBeTruthy()
  const link = `/unsubscribe/${token}`

  // Signed out, without JavaScript.
  const visitor = await newVisitor(browser, { javaScriptEnabled: false })
  const page = await visitor.newPage()
  await page.goto(link)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop emails about “Activities you host”?')
  await page.getByRole('button', { name: 'Stop these emails' }).click()
  await expect(page).toHaveURL(`${link}?done=1`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Done: no more emails about “Activities you host”')
  await visitor.close()

  // Signed in: the box is unticked; the rest of the topic stays.
  const again = await signedInPage(browser, hostEmail)
  await again.goto(settings)
  await expect(hostingEmail(again)).not.toBeChecked()
  await expect(again.getByRole('group', { name: 'Activities you host', exact: true }).getByLabel('On Circle 55, under “Notifications”')).toBeChecked()
  // Back on, then off again by a mail program's one-click POST to the List-Unsubscribe address
  // (RFC 8058: no cookies, no Origin, answered without a redirect).
  const saveHostingEmail = async (on: boolean) => {
    await again.goto(settings)
    await hostingEmail(again).setChecked(on)
    await again.getByRole('button', { name: 'Save my choices' }).click()
    await expect(flash(again)).toHaveText(`Your choices are saved. You will ${on ? '' : 'no longer '}hear about “Activities you host” by email.`)
  }
  await saveHostingEmail(true)
  const mailProgram = await newVisitor(browser)
  const oneClick = await mailProgram.request.post(link, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 })
  expect(oneClick.status()).toBe(200)
  await mailProgram.close()
  await again.goto(settings)
  await expect(hostingEmail(again)).not.toBeChecked()
  await again.context().close()

  // axe on the page (asking, then done) in en, fr and nl, signed out; "JavaScript off" is the
  // page's own scripts blocked, since axe runs in the page.
  const found: Scanner['found'] = []
  for (const lng of languages) {
    const context = await newVisitor(browser)
    await context.route('**/*.js', (route) => route.abort())
    await setLanguageCookie(context, lng)
    const scanned = await context.newPage()
    const scan = new Scanner(scanned, lng, `unsubscribe, ${lng}`)
    await scan.visit(link)
    await scan.visit(`${link}?done=1`)
    found.push(...scan.found)
    await context.close()
  }
  const report = new Scanner(page, 'en', 'unsubscribe in en, fr and nl')
  report.found.push(...found)
  report.report()
})

test('a sign-in is not needed to read the unsubscribe page, and a broken link says so', async ({ browser }) => {
  const visitor = await newVisitor(browser, { javaScriptEnabled: false })
  const page = await visitor.newPage()
  const response = await page.goto('/unsubscribe/not-a-real-token')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work')
  await expect(page.getByRole('link', { name: 'Notification settings' })).toBeVisible()
  // The member can still sign in and choose there.
  const { email } = await freshMember()
  await signIn(page, email, password, settings)
  await expect(page).toHaveURL(settings)
  await visitor.close()
})
