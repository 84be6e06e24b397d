import type { Page } from '@playwright/test'
import { flash } from './activity-helpers.ts'
import { Scanner, scanningPage } from './axe.ts'
import { freshMember, signedInPage } from './factories.ts'
import { expect, password, test, untilHydrated } from './helpers.ts'

/**
 * The team's roles (issue 32 §1, decision 077), by links and buttons from the first page: an admin
 * opens "Team" in the header, then "The team", adds a member by email as a moderator, changes the
 * role to finance and takes it back; the member's own "Team" page shows only their role's tools.
 * Without JavaScript on a desktop, and with it; axe on the team's pages.
 */

async function openTeam(page: Page) {
  await page.locator('header nav').getByRole('link', { name: 'Team' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible()
}

for (const js of [false, true]) {
  test(`${js ? 'with' : 'without'} JavaScript: an admin gives a member a role, changes it and takes it back`, async ({ browser }) => {
    const admin = await freshMember({ staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor' })
    const newcomer = await freshMember({ first_name: 'Geneviève', last_name: 'Van den Broeck-Dubois' })
    const page = await signedInPage(browser, admin.email, { js })
    await page.goto('/')
    if (js) await untilHydrated(page, 'header nav')
    await openTeam(page)
    await expect(page.getByText('Your role: Admin.')).toBeVisible()
    await page.getByRole('link', { name: 'The team' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'The team' })).toBeVisible()
    if (js) await untilHydrated(page, '#email')

    await page.getByLabel('Their email address').fill(newcomer.email)
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Moderator' })
    await page.getByRole('button', { name: 'Add to the team' }).click()
    await expect(flash(page)).toHaveText('The role is saved.')
    const card = page.getByTestId('staff-member').filter({ hasText: newcomer.email })
    await expect(card.getByLabel(`Role for Geneviève Van den Broeck-Dubois`)).toHaveValue('moderator')

    // The member's own view: Team in the header, reports and identity checks only.
    const moderator = await signedInPage(browser, newcomer.email, { js })
    await moderator.goto('/')
    if (js) await untilHydrated(moderator, 'header nav')
    await openTeam(moderator)
    await expect(moderator.getByText('Your role: Moderator.')).toBeVisible()
    await expect(moderator.getByRole('link', { name: 'Reports' })).toBeVisible()
    await expect(moderator.getByRole('link', { name: 'Payments and fees' })).toHaveCount(0)

    await card.getByLabel('Role for Geneviève Van den Broeck-Dubois').selectOption({ label: 'Finance' })
    await card.getByRole('button', { name: 'Save the role' }).click()
    await expect(flash(page)).toHaveText('The role is saved.')
    // The new role holds from the member's next page.
    await expect(async () => {
      await moderator.reload()
      await expect(moderator.getByText('Your role: Finance.')).toBeVisible({ timeout: 1000 })
    }).toPass()
    await expect(moderator.getByRole('link', { name: 'Payments and fees' })).toBeVisible()

    await page.getByTestId('staff-member').filter({ hasText: newcomer.email }).getByRole('button', { name: 'Take off the team' }).click()
    await expect(flash(page)).toHaveText('They are no longer on the team.')
    await expect(page.getByTestId('staff-member').filter({ hasText: newcomer.email })).toHaveCount(0)
    await moderator.locator('header nav').getByRole('link', { name: /^Account/ }).first().click()
    await expect(moderator.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible()
    await expect(moderator.locator('header nav').getByRole('link', { name: 'Team' })).toHaveCount(0)
    await moderator.context().close()
    await page.context().close()
  })
}

test('axe: the team’s pages (start, the team, members, a member, payments, partners, the audit log, flags, numbers) in en, and every list of the team’s tools in fr and nl, without JavaScript', async ({ browser }) => {
  const admin = await freshMember({ staff_role: 'admin' })
  const member = await freshMember({ first_name: 'Hélène', last_name: 'De Smet-Lefèvre' })
  const page = await scanningPage(browser, admin.email, { pass: password })
  const scanner = new Scanner(page, 'en', `${admin.email}, JS off`)
  await scanner.visit('/admin')
  await scanner.visit('/admin/staff')
  await scanner.visit('/admin/members?q=Ellis')
  await scanner.visit(`/admin/members/${member.id}`)
  await scanner.visit('/admin/payments')
  await scanner.visit('/admin/partners')
  await scanner.visit('/admin/audit')
  await scanner.visit('/admin/flags')
  await scanner.visit('/admin/analytics')
  await page.context().close()
  // French and Dutch (QUALITY.md: every page in en, fr and nl): the wording rules, on every page
  // the Team menu opens (the other specs scan the reports, support and identity-check pages in en).
  for (const lng of ['fr', 'nl'] as const) {
    const translated = await scanningPage(browser, admin.email, { pass: password, lng })
    const scan = new Scanner(translated, lng, `${admin.email}, ${lng}, JS off`)
    for (const path of ['/admin', '/admin/staff', `/admin/members/${member.id}`, '/admin/reports', '/admin/verifications', '/admin/support', '/admin/payments', '/admin/partners', '/admin/medicare', '/admin/banners', '/admin/flags', '/admin/audit', '/admin/analytics']) {
      await scan.visit(path)
    }
    await translated.context().close()
    scanner.found.push(...scan.found)
  }
  scanner.report()
})
