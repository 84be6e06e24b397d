import { demoPassword, flash, member } from './activity-helpers.ts'
import { publishedActivity } from './factories.ts'
import { Scanner } from './axe.ts'
import { expect, languages, newVisitor, setLanguage, signInOverHttp, test } from './helpers.ts'

/**
 * In-app notifications without JavaScript (issue 15 §3, decision 043): a host cancels an activity
 * the member attends; the member sees the badge, the list with it unread, opens it (marked seen,
 * lands on the activity), and marks all read; axe on /notifications in en, fr and nl. Demo members
 * 170–174 are used by no other spec.
 */

test('a cancellation reaches the member: badge, the list, opening it, mark all as read', async ({ browser }) => {
  test.setTimeout(180_000)
  const host = await member(browser, 'member170@demo.test')
  const title = `Chess by the river ${Date.now()}`
  const id = await publishedActivity(host, { title })

  const attendee = await member(browser, 'member171@demo.test')
  // Start from nothing unread, whatever earlier runs left.
  await attendee.goto('/notifications')
  const markAll = attendee.getByRole('button', { name: 'Mark all as read' })
  if (await markAll.count()) await markAll.click()
  await attendee.goto(`/activities/${id}`)
  await attendee.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(attendee)).toHaveText('Your seat is saved.')

  await host.goto(`/activities/${id}`)
  await host.getByRole('link', { name: 'Cancel the activity' }).click()
  await host.getByRole('button', { name: 'Yes, cancel the activity' }).click()
  await expect(flash(host)).toHaveText('The activity is canceled and everyone going has been told.')
  await host.context().close()

  // The badge, on the next page load.
  await attendee.goto('/attending')
  const item = attendee.locator('.site-nav a[href="/notifications"]')
  await expect(item.locator('.badge')).toContainText('1')
  await expect(item).toContainText('1 unread')

  await item.click()
  await expect(attendee.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
  await expect(attendee.getByText('You have 1 unread notification.')).toBeVisible()
  const entry = attendee.locator('.notification-list > li').first()
  await expect(entry).toContainText('Unread')
  await expect(entry).toContainText('Activity canceled')
  await expect(entry).toContainText(`“${title}” has been canceled.`)

  await entry.getByRole('button').click()
  await expect(attendee).toHaveURL(new RegExp(`/activities/${id}$`))
  await expect(attendee.locator('.site-nav a[href="/notifications"] .badge')).toHaveCount(0)
  await attendee.goto('/notifications')
  await expect(attendee.getByText('You have read all your notifications.')).toBeVisible()
  await expect(attendee.locator('.notification-list > li').first()).not.toContainText('Unread')
  await attendee.context().close()
})

test('Mark all as read clears the badge', async ({ browser }) => {
  test.setTimeout(180_000)
  const host = await member(browser, 'member172@demo.test')
  const titles = [`Poetry circle ${Date.now()}`, `Pottery morning ${Date.now()}`]
  const ids = [await publishedActivity(host, { title: titles[0]! }), await publishedActivity(host, { title: titles[1]! })]
  const attendee = await member(browser, 'member173@demo.test')
  for (const id of ids) {
    await attendee.goto(`/activities/${id}`)
    await attendee.getByRole('button', { name: 'Save my seat' }).click()
    await expect(flash(attendee)).toHaveText('Your seat is saved.')
  }
  for (const id of ids) {
    await host.goto(`/activities/${id}`)
    await host.getByRole('link', { name: 'Cancel the activity' }).click()
    await host.getByRole('button', { name: 'Yes, cancel the activity' }).click()
    await expect(flash(host)).toHaveText('The activity is canceled and everyone going has been told.')
  }
  await host.context().close()

  await attendee.goto('/notifications')
  await expect(attendee.locator('.site-nav a[href="/notifications"] .badge')).not.toHaveCount(0)
  await attendee.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(flash(attendee)).toHaveText('All your notifications are marked as read.')
  await expect(attendee.getByText('You have read all your notifications.')).toBeVisible()
  await expect(attendee.locator('.site-nav a[href="/notifications"] .badge')).toHaveCount(0)
  await attendee.context().close()
})

test('accessibility of /notifications in en, fr and nl', async ({ browser }) => {
  test.setTimeout(240_000)
  const email = 'member174@demo.test'
  const host = await member(browser, 'member170@demo.test')
  const id = await publishedActivity(host, { title: `Axe walk ${Date.now()}` })
  const guest = await member(browser, email)
  await guest.goto(`/activities/${id}`)
  await guest.getByRole('button', { name: 'Save my seat' }).click()
  await guest.context().close()
  await host.goto(`/activities/${id}`)
  await host.getByRole('link', { name: 'Cancel the activity' }).click()
  await host.getByRole('button', { name: 'Yes, cancel the activity' }).click()
  await host.context().close()

  // axe runs in the page, so "JavaScript off" is the page's own scripts blocked.
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signInOverHttp(context, email, demoPassword)
  const found: Scanner['found'] = []
  try {
    for (const lng of languages) {
      await setLanguage(page.context(), lng)
      const scan = new Scanner(page, lng, `notifications, ${lng}`)
      await scan.visit('/notifications')
      found.push(...scan.found)
    }
  } finally {
    await setLanguage(context, 'en')
    await context.close()
  }
  const report = new Scanner(page, 'en', 'notifications in en, fr and nl')
  report.found.push(...found)
  report.report()
})
