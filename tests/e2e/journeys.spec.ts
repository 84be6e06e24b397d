import type { Browser, Locator, Page } from '@playwright/test'
import { createActivity, flash, member } from './activity-helpers.ts'
import {
  completeOnboarding,
  expect,
  fillSignUpDetails,
  latestCode,
  newVisitor,
  password,
  submit,
  test,
  uniqueEmail,
  untilHydrated,
  yearOptions,
} from './helpers.ts'

/**
 * The backbone of the suite (issue 29 §1): what members do in their first minutes, done the way
 * they do it, with JavaScript on, by clicking links and buttons only (client-side navigation),
 * on a phone (390 px) and at a desktop (1280 px). Only the first page of a journey is opened by
 * its address. Every page a journey reaches fails it on the error page, a console error, an
 * uncaught exception or a CSP violation (helpers.ts watches every context).
 *
 * Demo members 260–279 are used by no other spec. Titles end with a short unique word, which
 * fits a line at 200% text on a phone (large-text.spec.ts reads the same pages).
 */

const viewports = [
  { name: 'phone', size: { width: 390, height: 844 }, members: 260 },
  { name: 'desktop', size: { width: 1280, height: 900 }, members: 270 },
] as const

/** A signed-in member with JavaScript on, on Home, at this viewport. */
async function memberAt(browser: Browser, number: number, viewport: { width: number; height: number }) {
  const page = await member(browser, `member${number}@demo.test`, { js: true, viewport })
  await page.goto('/')
  await untilHydrated(page, 'main')
  return page
}

/** Fails the journey on the general error page, which a client-side crash renders in place. */
async function expectNoErrorPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: /Something went wrong|Page not found/ })).toHaveCount(0)
}

/**
 * The visible link with this name in the navigation the member sees (the header at a desktop,
 * the bottom bar or the header on a phone), clicked. The page moves without a document load.
 */
async function navigate(page: Page, name: RegExp) {
  const link = page.locator('header nav, nav.bottom-nav').getByRole('link', { name }).filter({ visible: true }).first()
  await clickWithinTheApp(page, link)
}

/**
 * Clicks a link or button that moves within the app, and proves it was a client-side navigation
 * (the document stays the same: a marker set on `window` survives), as React Router does it.
 */
async function clickWithinTheApp(page: Page, target: Locator) {
  await page.evaluate(() => {
    ;(window as unknown as { journeyMarker?: boolean }).journeyMarker = true
  })
  const before = page.url()
  await target.click()
  await expect(page).not.toHaveURL(before)
  await expect.poll(() => page.evaluate(() => (window as unknown as { journeyMarker?: boolean }).journeyMarker ?? false)).toBe(true)
  await expectNoErrorPage(page)
}

/** The activity pages the main content links to (cards on Home, Explore or My activities), in order. */
async function activityPages(page: Page) {
  const hrefs = await page.locator('main a[href^="/activities/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  return [...new Set(hrefs.filter((href) => /^\/activities\/[0-9a-f-]{36}$/.test(href)))]
}

function linkTo(page: Page, href: string) {
  return page.locator(`main a[href="${href}"]`).first()
}

/**
 * Opens the page a list links to, within the app, and waits until it is drawn: React Router
 * changes the address as the new page renders, so the list's heading is still there for a moment.
 */
async function openFromList(page: Page, target: Locator) {
  const heading = page.getByRole('heading', { level: 1 })
  const listHeading = (await heading.innerText()).trim()
  await clickWithinTheApp(page, target)
  await expect(heading).not.toHaveText(listHeading)
}

for (const viewport of viewports) {
  test.describe(`journeys on a ${viewport.name} (${viewport.size.width} px), JavaScript on`, () => {
    test.use({ viewport: viewport.size })

    test('sign up from an activity, through onboarding, and back to it', async ({ page }) => {
      test.setTimeout(180_000)
      await page.goto('/')
      await untilHydrated(page, 'main')
      await clickWithinTheApp(page, page.locator('main').getByRole('link', { name: 'Browse activities' }))
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.locator('main a[href^="/activities/"]').first()).toBeVisible()
      const activity = linkTo(page, (await activityPages(page))[0]!)
      const title = (await activity.innerText()).trim()
      await clickWithinTheApp(page, activity)
      const activityUrl = page.url()
      await expect(page.getByRole('heading', { level: 1 })).toContainText(title.split('\n')[0]!)

      // The identity pages are the identity provider's, a full page load as with any sign-in.
      await page.getByRole('link', { name: 'Sign in to save your seat' }).click()
      await expect(page).toHaveURL(/\/identity\/[^/]+$/)
      await page.getByRole('link', { name: 'Create an account' }).click()
      await expect(page).toHaveURL(/\/identity\/[^/]+\/signup$/)
      await untilHydrated(page, '#email')
      const email = uniqueEmail('journey')
      const oldest = Math.min(...(await yearOptions(page)))
      await fillSignUpDetails(page, { firstName: 'Geneviève', lastName: 'Van der Berghe-Étienne', email, password }, { year: oldest, month: 3, day: 9 })
      await submit(page, 'Continue')
      await page.locator('#code').fill(await latestCode(page.context().request, email))
      await submit(page, 'Finish creating my account')
      await expect(page).toHaveURL(/\/get-started\/?(\?|$)/)
      await untilHydrated(page, 'main')
      await completeOnboarding(page)
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Geneviève')

      await clickWithinTheApp(page, page.getByRole('link', { name: 'Continue where you left off' }))
      expect(page.url()).toBe(activityUrl)
      // The seat in whichever form this activity offers it: saved, the notify list, a card first for its no-show fee, or premium.
      const seat = page
        .getByRole('button', { name: 'Save my seat' })
        .or(page.getByRole('button', { name: 'Join the notify list' }))
        .or(page.getByRole('button', { name: 'Add a card' }))
        .or(page.getByRole('link', { name: 'See what premium gives' }))
      await expect(seat.first()).toBeVisible()
    })

    test("Home → an activity → an attendee's profile → Message, then Messages → the conversation", async ({ browser }) => {
      test.setTimeout(180_000)
      const page = await memberAt(browser, viewport.members, viewport.size)
      // Home lists activities near the member; the first one with attendees other than the member.
      await expect(page.locator('main a[href^="/activities/"]').first()).toBeVisible()
      const activities = await activityPages(page)
      // The first attendee, on one of the first activities, who is not the member.
      let name = ''
      const me = /Signed in as (.+)/.exec(await page.locator('header').innerText())?.[1]?.trim()
      const message = page.getByRole('button', { name: 'Message', exact: true })
      for (const href of activities.slice(0, 8)) {
        if (name) break
        await openFromList(page, linkTo(page, href))
        const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim()
        const attendees = page.locator('.attendee-list a[href^="/p/"]')
        for (let person = 0; person < (await attendees.count()) && !name; person++) {
          const candidate = (await attendees.nth(person).innerText()).trim()
          if (candidate === me) continue
          await clickWithinTheApp(page, attendees.nth(person))
          await expect(page.getByRole('heading', { level: 1 })).toContainText(candidate.split(' ')[0]!)
          if (await message.count()) name = candidate
          else {
            await page.goBack()
            await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
          }
        }
        if (!name) {
          await page.goBack()
          await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(title)
        }
      }
      if (!name) throw new Error('No attendee of the first activities on Home can be written to')

      await clickWithinTheApp(page, message)
      await expect(page).toHaveURL(/\/messenger/)
      const text = `Hello from the walk, see you there? ${Date.now().toString(36)}`
      await page.getByRole('textbox').last().fill(text)
      await page.getByRole('button', { name: /^Send/ }).click()
      const sent = page.locator('.message__body').filter({ hasText: text })
      await expect(sent).toBeVisible()

      await navigate(page, /^Messages/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await clickWithinTheApp(page, page.locator('main').getByRole('link', { name: new RegExp(name.split(' ')[0]!) }).first())
      await expect(sent).toBeVisible()
      await page.context().close()
    })

    test('Explore → an activity → save a seat, then My activities → the activity', async ({ browser }) => {
      test.setTimeout(180_000)
      const page = await memberAt(browser, viewport.members + 1, viewport.size)
      await navigate(page, /^Find activities$/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      // The results say how many they are.
      await expect(page.locator('main').getByRole('heading', { level: 2, name: /^\d+ activit/ })).toBeVisible()
      const explore = (await page.getByRole('heading', { level: 1 }).innerText()).trim()
      /** The first activity in the list with a seat to save, its seat saved; its title, or '' when none. */
      async function saveTheFirstSeat() {
        for (const href of (await activityPages(page)).slice(0, 10)) {
          await openFromList(page, linkTo(page, href))
          const save = page.getByRole('button', { name: 'Save my seat' })
          if (await save.count()) {
            const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim()
            await save.click()
            await expect(flash(page)).toContainText(/seat is saved/)
            return title
          }
          await page.goBack()
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(explore)
        }
        return ''
      }
      // Near the member's city the activities the other tests made may all be full or their own:
      // then they search another city, as a member would.
      let title = await saveTheFirstSeat()
      if (!title) {
        await page.getByRole('combobox', { name: 'City' }).fill('Portl')
        await page.getByRole('listbox', { name: 'Matching cities' }).getByRole('option', { name: 'Portland, OR' }).click()
        await page.getByLabel('Distance').selectOption({ label: 'Any distance' })
        await page.getByRole('button', { name: 'Show activities' }).click()
        await expect(page.locator('main').getByRole('heading', { level: 2, name: /near Portland, OR$/ })).toBeVisible()
        title = await saveTheFirstSeat()
      }
      if (!title) throw new Error('None of the first activities on Explore has a seat to save')

      await navigate(page, /^My activities$/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await clickWithinTheApp(page, page.locator('main').getByRole('link', { name: title }).first())
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      await expect(page.getByRole('button', { name: /Cancel my seat/ })).toBeVisible()
      await page.context().close()
    })

    test('Members → a profile, Account → edit', async ({ browser }) => {
      test.setTimeout(180_000)
      const page = await memberAt(browser, viewport.members + 2, viewport.size)
      await navigate(page, /^Members$/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      const someone = page.locator('main a[href^="/p/"]').first()
      const name = (await someone.innerText()).trim().split(/\s/)[0]!
      await clickWithinTheApp(page, someone)
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name)

      await navigate(page, /^Account/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await clickWithinTheApp(page, page.locator('main').getByRole('link', { name: 'Change my details' }).first())
      await expect(page).toHaveURL(/\/account\/edit/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await page.context().close()
    })

    test('Notifications → open one', async ({ browser }) => {
      test.setTimeout(180_000)
      // Set-up, as the host would: an activity, and an invitation to the member by email.
      const host = await member(browser, `member${viewport.members + 3}@demo.test`)
      const title = `Watercolors in the park ${Date.now().toString(36)}`
      const id = await createActivity(host, { title })
      const invited = `member${viewport.members + 4}@demo.test`
      await host.getByLabel('Email addresses').fill(invited)
      await host.getByRole('button', { name: 'Send invitations' }).click()
      await host.context().close()

      const page = await memberAt(browser, viewport.members + 4, viewport.size)
      await navigate(page, /^Notifications|^Account/)
      if (!/\/notifications/.test(page.url())) await clickWithinTheApp(page, page.locator('main').getByRole('link', { name: /^Notifications/ }).first())
      await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
      const entry = page.locator('.notification-list > li').filter({ hasText: title }).first()
      await clickWithinTheApp(page, entry.getByRole('button').or(entry.getByRole('link')).first())
      await expect(page).toHaveURL(new RegExp(`/activities/${id}`))
      await expect(page.getByRole('heading', { level: 1 })).toContainText(title)
      await page.context().close()
    })
  })
}

/**
 * A member taps while the page is still waking up. Remix used to decode the page's data during
 * React's first render, suspending the whole document, and a tap at that moment made React throw
 * #345 and left the page dead, never hydrated (one early tap in about fifteen). Here the page is
 * tapped between every two pieces of work the browser does in its first seconds: it must wake
 * up and work.
 */
test('a tap while the page is still loading never breaks it', async ({ browser }) => {
  const context = await newVisitor(browser, { viewport: viewports[0].size })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const channel = new MessageChannel()
    const until = Date.now() + 3000
    channel.port1.onmessage = () => {
      document.body?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
      if (Date.now() < until) channel.port2.postMessage(null)
    }
    channel.port2.postMessage(null)
  })
  await page.goto('/activities')
  await untilHydrated(page, 'main')
  // The page works: a click moves within the app.
  await clickWithinTheApp(page, page.locator('header').getByRole('link', { name: 'Circle 55' }))
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await context.close()
})
