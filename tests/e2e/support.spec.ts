import type { Page } from '@playwright/test'
import { demoPassword, flash, member } from './activity-helpers.ts'
import { freshMember, publishedActivity, signedInPage } from './factories.ts'
import { Scanner, submitWithoutNativeValidation, scanningPage } from './axe.ts'
import { expect, test } from './helpers.ts'

/**
 * The activity page's conversations and "Contact the product" without JavaScript (issue 14 §1,
 * decision 039): Contact host, the group chat button, a member writing to Circle 55 support and
 * an admin answering in /admin/support; the host told of an attendee's messages (issue 29 §3);
 * axe on the support pages in English (French and Dutch in the page catalogue). Demo members
 * 140–149 are used by no other spec; the admins are fresh members of each test.
 */

/** The member writes to support from the Messenger: the conversation's address. */
async function writeToSupport(page: Page, text: string) {
  await page.goto('/messenger')
  await page.getByRole('button', { name: 'Write to Circle 55 support' }).click()
  await expect(page).toHaveURL(/\/messenger\?channel=[\w-]+$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Circle 55 support' })).toBeVisible()
  const url = new URL(page.url())
  await page.getByLabel('Your message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.locator('.message').last()).toContainText(text)
  return url.pathname + url.search
}

/** The admin opens the conversation whose last message is `text`. */
async function openConversation(admin: Page, text: string) {
  await admin.goto('/admin/support')
  await admin.locator('.review-list > li').filter({ hasText: text }).getByRole('link').first().click()
  await expect(admin).toHaveURL(/\/admin\/support\/[0-9a-f-]{36}$/)
}

test.describe('without JavaScript', () => {
  test('Contact host opens the direct conversation with the host', async ({ browser }) => {
    test.setTimeout(120_000)
    const host = await member(browser, 'member140@demo.test')
    const id = await publishedActivity(host, { title: 'Tea and crosswords' })
    const hostName = (await host.locator('.details dt:has-text("Host") + dd').textContent())?.trim() ?? ''
    await expect(host.getByRole('button', { name: 'Contact host' })).toHaveCount(0)

    const visitor = await member(browser, 'member141@demo.test')
    await visitor.goto(`/activities/${id}`)
    await expect(visitor.getByRole('button', { name: 'Group chat' })).toHaveCount(0)
    await visitor.getByRole('button', { name: 'Contact host' }).click()
    await expect(visitor).toHaveURL(/\/messenger\?channel=[\w-]+$/)
    // The host's name is the channel's heading (the page's Host line may add the "Verified" badge).
    const heading = (await visitor.getByRole('heading', { level: 1 }).textContent())?.trim() ?? ''
    expect(heading).not.toBe('')
    expect(hostName).toContain(heading)
    await host.context().close()
    await visitor.context().close()
  })

  test('the group chat button takes an attendee to the activity’s chat', async ({ browser }) => {
    test.setTimeout(120_000)
    const host = await member(browser, 'member142@demo.test')
    const id = await publishedActivity(host, { title: 'Birdwatching at dawn' })
    const attendee = await member(browser, 'member143@demo.test')
    await attendee.goto(`/activities/${id}`)
    await attendee.getByRole('button', { name: 'Save my seat' }).click()
    await expect(flash(attendee)).toHaveText('Your seat is saved.')
    await attendee.getByRole('button', { name: 'Group chat' }).click()
    await expect(attendee).toHaveURL(/\/messenger\?channel=[\w-]+$/)
    await expect(attendee.getByRole('heading', { level: 1, name: 'Birdwatching at dawn' })).toBeVisible()
    await host.context().close()
    await attendee.context().close()
  })

  test('the host is told of an attendee’s question in the group and of their messages, without pressing anything (issue 29 §3)', async ({ browser }) => {
    test.setTimeout(180_000)
    const host = await member(browser, 'member148@demo.test')
    const title = `Chess in the square ${Date.now()}`
    const id = await publishedActivity(host, { title })
    const attendee = await member(browser, 'member149@demo.test')
    await attendee.goto(`/activities/${id}`)
    await attendee.getByRole('button', { name: 'Save my seat' }).click()
    await expect(flash(attendee)).toHaveText('Your seat is saved.')

    // The host's name leads to their profile, as attendees' names do.
    const hostLink = attendee.locator('.details dt:has-text("Host") + dd a')
    const hostName = (await hostLink.textContent())?.trim() ?? ''
    expect(hostName).not.toBe('')
    await hostLink.click()
    await expect(attendee).toHaveURL(/\/p\/[\w-]+$/)
    await expect(attendee.getByRole('heading', { level: 1 })).toContainText(hostName)

    // A question in the group.
    await attendee.goto(`/activities/${id}`)
    await attendee.getByRole('button', { name: 'Group chat' }).click()
    await expect(attendee).toHaveURL(/\/messenger\?channel=[\w-]+$/)
    const group = new URL(attendee.url()).searchParams.get('channel')
    await attendee.getByLabel('Your message').fill('Is there a table for beginners?')
    await attendee.getByRole('button', { name: 'Send' }).click()
    await expect(attendee.locator('.message').last()).toContainText('Is there a table for beginners?')

    // Contact host: a conversation, not a request; more than two messages before any answer.
    await attendee.goto(`/activities/${id}`)
    await attendee.getByRole('button', { name: 'Contact host' }).click()
    await expect(attendee).toHaveURL(/\/messenger\?channel=[\w-]+$/)
    const direct = new URL(attendee.url()).searchParams.get('channel')
    for (const text of ['Hello!', 'Should I bring my own board?', 'I may be five minutes late.']) {
      await attendee.getByLabel('Your message').fill(text)
      await attendee.getByRole('button', { name: 'Send' }).click()
      await expect(attendee.locator('.message').last()).toContainText(text)
    }
    await expect(attendee.getByText(/Waiting for/)).toHaveCount(0)
    await attendee.context().close()

    // The host never pressed "Group chat": both are in Messages, counted, and told.
    await host.goto('/')
    await expect(host.locator('.site-nav a[href="/messenger"] .badge')).toHaveText(/^4/)
    await host.goto('/messenger')
    await expect(host.locator('.channel-summary').filter({ hasText: title })).toContainText('Is there a table for beginners?')
    await expect(host.locator('.channel-summary').filter({ hasText: 'I may be five minutes late.' })).toBeVisible()
    await expect(host.getByText('Message request')).toHaveCount(0)
    // Notifications: newest first, the direct conversation's, the group's, then the seat taken.
    const opened = []
    for (const index of [0, 1]) {
      await host.goto('/notifications')
      await expect(host.locator('button.notification__open')).toHaveCount(3)
      await host.locator('button.notification__open').nth(index).click()
      await expect(host).toHaveURL(/\/messenger\?channel=[\w-]+$/)
      opened.push(new URL(host.url()).searchParams.get('channel'))
    }
    expect(opened).toEqual([direct, group])
    await host.context().close()
  })

  test('a member contacts Circle 55 support, an admin answers, the member reads it from support', async ({ browser }) => {
    test.setTimeout(120_000)
    const page = await member(browser, 'member144@demo.test')
    const question = `Where do I change my city? (${Date.now()})`
    const url = await writeToSupport(page, question)

    const admin = await signedInPage(browser, (await freshMember({ staff_role: 'admin' })).email)
    await openConversation(admin, question)
    await expect(admin.locator('.message').last()).toContainText(question)
    await admin.getByLabel('Your answer').fill('Open Account, then Edit your profile.')
    await admin.getByRole('button', { name: 'Send the answer' }).click()
    await expect(flash(admin)).toHaveText('Your answer was sent.')
    // The answer page may still be arriving when the toast shows: wait for the answer itself.
    const sent = admin.locator('.message').last()
    await expect(sent).toContainText('Open Account, then Edit your profile.')
    await expect(sent.locator('.message__sender')).toHaveText(/^Circle 55 support \(.+\)$/)
    const adminName = /\((.+)\)/.exec((await sent.locator('.message__sender').textContent()) ?? '')?.[1] ?? ''
    expect(adminName).not.toBe('')

    await page.goto(url)
    const answer = page.locator('.message').last()
    await expect(answer).toContainText('Open Account, then Edit your profile.')
    await expect(answer.locator('.message__sender')).toHaveText('Circle 55 support')
    await expect(page.locator('main')).not.toContainText(adminName)
    await page.context().close()
    await admin.context().close()
  })

  test('the activity page links to support too', async ({ browser }) => {
    const page = await member(browser, 'member145@demo.test')
    const host = await member(browser, 'member146@demo.test')
    const id = await publishedActivity(host, { title: 'Garden visit' })
    await page.goto(`/activities/${id}`)
    await page.getByRole('button', { name: 'Write to Circle 55 support' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Circle 55 support' })).toBeVisible()
    await page.context().close()
    await host.context().close()
  })
})

test('accessibility of the support pages in en, errors included', async ({ browser }) => {
  // French and Dutch, the same markup with other words: their wording is checked over the same
  // states in the catalogue (app/routes/page-catalogue.test.ts).
  const email = 'member147@demo.test'
  const writer = await member(browser, email)
  const question = `A question for the axe scan (${Date.now()})`
  const url = await writeToSupport(writer, question)
  await writer.context().close()
  const page = await scanningPage(browser, email, { pass: demoPassword })
  const admin = await scanningPage(browser, (await freshMember({ staff_role: 'admin' })).email)
  const memberScan = new Scanner(page, 'en', 'support, member')
  const adminScan = new Scanner(admin, 'en', 'support, admin')
  try {
    await memberScan.visit(url)
    await memberScan.visit('/messenger')
    await adminScan.visit('/admin/support')
    await admin.locator('.review-list > li').filter({ hasText: question }).getByRole('link').first().click()
    await expect(admin).toHaveURL(/\/admin\/support\/[0-9a-f-]{36}$/)
    await adminScan.scan('/admin/support/:id')
    await submitWithoutNativeValidation(admin, '#answer-text')
    await adminScan.scan('/admin/support/:id (errors)')
  } finally {
    await admin.context().close()
    await page.context().close()
  }
  memberScan.found.push(...adminScan.found)
  memberScan.report()
})
