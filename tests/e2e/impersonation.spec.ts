import type { Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner, scanningPage } from './axe.ts'
import { freshMember, signedInPage } from './factories.ts'
import { expect, test, untilHydrated } from './helpers.ts'

/**
 * Viewing Circle 55 as a member (issue 32 §2, decision 078), by links and buttons: a support agent
 * (an admin without JavaScript, who also switches to acting from the banner's Details) opens Team → Members, finds the member, gives the reason and views Circle 55 as them; the banner
 * is on every page, a change to the member's name is refused next to the form, "Stop" brings the
 * agent back to the member's admin page, and the member finds the notice among their
 * notifications. Without JavaScript and with it; axe on the banner's page.
 */

async function startViewing(page: Page, js: boolean, member: { firstName: string | null; lastName: string | null }) {
  await page.goto('/')
  if (js) await untilHydrated(page, 'header nav')
  await page.locator('header nav').getByRole('link', { name: 'Team' }).click()
  await page.locator('main').getByRole('link', { name: 'Members' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible()
  if (js) await untilHydrated(page, '#q')
  await page.getByLabel('Name or email address').fill(member.lastName ?? '')
  await page.getByRole('button', { name: 'Find' }).click()
  await page.getByRole('link', { name: `${member.firstName} ${member.lastName}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: `${member.firstName} ${member.lastName}` })).toBeVisible()
  if (js) await untilHydrated(page, '#reason')
  await page.getByLabel('Why (recorded, and told to the member)').fill('She says her activities page is empty.')
  await page.getByRole('button', { name: /^View Circle 55 as / }).click()
}

for (const js of [false, true]) {
  test(`${js ? 'with JavaScript: support views' : 'without JavaScript: an admin views'} Circle 55 as a member, a change is refused${js ? '' : ', then acts for them'}, Stop, and the member is told`, async ({ browser }) => {
    const lastName = `Kowalczyk${js ? 'Js' : 'Html'}${Date.now() % 100_000}`
    const member = await freshMember({ first_name: 'Margaret', last_name: lastName })
    // Support with JavaScript, an admin without: both roles may view as a member.
    const agent = await freshMember({ first_name: 'Sam', last_name: 'Rivera', staff_role: js ? 'support' : 'admin' })
    // Without JavaScript: the app's scripts refused (axe runs in the page), as a browser without JavaScript gets it.
    const page = js ? await signedInPage(browser, agent.email, { js }) : await scanningPage(browser, agent.email)
    await startViewing(page, js, { firstName: 'Margaret', lastName })

    const banner = page.getByTestId('impersonation-banner')
    await expect(banner).toContainText(`You are viewing Circle 55 as Margaret ${lastName.slice(0, 1)}.`)
    await expect(page.getByRole('region', { name: 'Viewing as a member' })).toBeVisible()
    // Every page, while it lasts: the member's own account page too.
    await page.locator('header nav').getByRole('link', { name: 'Account' }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible()
    await expect(banner).toBeVisible()

    // A change is refused, said next to the form.
    await page.getByRole('link', { name: 'Change my details' }).click()
    if (js) await untilHydrated(page, '#name-section a')
    await page.locator('#name-section').getByRole('link', { name: 'Change Your name' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Your name' })).toBeVisible()
    if (js) await untilHydrated(page, '#firstName')
    await page.locator('#firstName').fill('Maggie')
    await page.locator('main').getByRole('button', { name: 'Save my name' }).click()
    await expect(page.locator('main')).toContainText('This cannot be done while viewing Circle 55 as a member.')

    if (!js) {
      const scanner = new Scanner(page, 'en', `${agent.email} viewing as a member, JS off`)
      await scanner.scan('a page under the banner')
      // Acting on the member's behalf, for a stated reason, from the banner's Details.
      await banner.getByRole('link', { name: 'Details' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Viewing as a member' })).toBeVisible()
      await scanner.scan('/impersonation')
      await page.getByLabel('Why you need to act for them (recorded, and told to them)').fill('She asked me on the phone to use the name she goes by.')
      await page.getByRole('button', { name: 'Act on their behalf' }).click()
      await expect(flash(page)).toHaveText('You can now act on their behalf.')
      await expect(banner).toContainText('You are acting on behalf of Margaret')
      scanner.report()
    }
    await banner.getByRole('button', { name: 'Stop' }).click()
    await expect(flash(page)).toHaveText('You stopped viewing as the member. They will be told.')
    await expect(page.getByRole('heading', { level: 1, name: `Margaret ${lastName}` })).toBeVisible()
    await expect(page.getByTestId('impersonation-banner')).toHaveCount(0)
    if (!js) {
      // The admin reads, from the member's page, who did what as whom: the refused change is on the record.
      await page.getByRole('link', { name: 'Everything the team did on this account' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible()
      const refused = page.getByTestId('audit-entry').filter({ hasText: 'PUT /v1/users/me' })
      await expect(refused.first()).toContainText('Sam R.')
      await expect(refused.first()).toContainText(`Margaret ${lastName.slice(0, 1)}.`)
      await expect(refused.first()).toContainText('403')
    }
    await page.context().close()

    const own = await signedInPage(browser, member.email, { js })
    await own.goto('/')
    if (js) await untilHydrated(own, 'header nav')
    await own.locator('header nav').getByRole('link', { name: /^Notifications/ }).first().click()
    const notice = own.locator('.notification-list > li').filter({ hasText: 'The Circle 55 team looked at your account' })
    await expect(notice).toContainText('Sam R. from the Circle 55 team viewed your account on')
    await expect(notice).toContainText('because: “She says her activities page is empty.”')
    await own.context().close()
  })
}
