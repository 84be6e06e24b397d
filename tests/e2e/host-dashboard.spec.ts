import { createExperience } from '#tests/factories.ts'
import { Scanner } from './axe.ts'
import { db, freshMember, signedInPage } from './factories.ts'
import { expect, test, untilHydrated } from './helpers.ts'

/**
 * A host's numbers (issue 32 §5, decision 082), by links from the first page: My activities →
 * Past → Only the ones I host shows "Your activities in numbers" in words; its link opens the
 * charts, each an SVG with the same numbers in a table. Without JavaScript and with it; axe on the
 * charts page.
 */
const HOUR = 60 * 60 * 1000

async function hostWithAPastActivity(title: string) {
  const host = await freshMember({ first_name: 'Bernadette', last_name: 'Nguyễn-Marchetti' })
  const start = new Date(Date.now() - 2 * 24 * HOUR)
  const experience = await createExperience(db(), host.id, { title, max_attendees: null, start_at: start, end_at: new Date(start.getTime() + 2 * HOUR), attendees_count: 6 })
  for (let i = 0; i < 6; i++) {
    const guest = await freshMember({ first_name: `Guest${i}`, last_name: 'Okonkwo' })
    await db().insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
    if (i < 5) await db().insertInto('surveys').values({ user_id: guest.id, type: 'POST_EXPERIENCE_SURVEY', experience_id: experience.id, attended: true, rating: i < 3 ? 5 : 4 }).execute()
  }
  return host
}

for (const js of [false, true]) {
  test(`${js ? 'with' : 'without'} JavaScript: a host opens their activities in numbers from My activities`, async ({ browser }) => {
    const host = await hostWithAPastActivity(`Watercolours by the river (${js ? 'js' : 'no js'})`)
    const page = await signedInPage(browser, host.email, { js })
    await page.goto('/')
    if (js) await untilHydrated(page, 'header nav')
    await page.locator('header nav').getByRole('link', { name: 'My activities' }).click()
    await page.getByRole('link', { name: 'Past' }).click()
    await page.getByRole('link', { name: 'Only the ones I host' }).click()
    const summary = page.getByRole('region', { name: 'Your activities in numbers' })
    await expect(summary.getByText('Places booked')).toBeVisible()
    await expect(summary).toContainText('4.6 out of 5, from 5 ratings')

    await summary.getByRole('link', { name: 'See your activities in numbers, week by week' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Your activities in numbers' })).toBeVisible()
    // axe runs in the page: with JavaScript only (the page without it is the same HTML).
    const scanner = new Scanner(page, 'en', `${host.email}, JS on`)
    if (js) await scanner.scan('the host’s numbers')
    const chart = page.getByRole('figure').filter({ hasText: 'Places booked and people who came' })
    await expect(chart.getByRole('img')).toBeVisible()
    await chart.getByText('Show these numbers as a table').click()
    await expect(chart.getByRole('table')).toBeVisible()
    await expect(chart.getByRole('table')).toContainText('6')
    await page.getByRole('link', { name: 'Back to My activities' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'My activities' })).toBeVisible()
    scanner.report()
    await page.context().close()
  })
}
