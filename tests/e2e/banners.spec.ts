import { flash } from './activity-helpers.ts'
import { Scanner, scanningPage } from './axe.ts'
import { freshMember, signedInPage } from './factories.ts'
import { expect, password, test, untilHydrated } from './helpers.ts'

/**
 * Banners (issue 32 §4, decision 084), by links and buttons from the first page: an admin opens
 * Team → Banners and writes one for a state (the form says what is wrong next to the field and
 * keeps what was typed); a member who lives there sees it on Home and hides it; it stays hidden on
 * the next visit; the admin ends it. Without JavaScript and with it; axe on `/admin/banners`.
 * Each run has a state of its own, so the runs never see each other's banner.
 */
const places = [
  { js: false, state: 'VT', city: 'Burlington', latitude: 44.4759, longitude: -73.2121 },
  { js: true, state: 'NH', city: 'Concord', latitude: 43.2081, longitude: -71.5376 },
]

for (const { js, state, city, latitude, longitude } of places) {
  test(`${js ? 'with' : 'without'} JavaScript: an admin writes a banner for ${state}; a member there sees it on Home and hides it`, async ({ browser }) => {
    const title = `Autumn walks in ${city} (${js ? 'js' : 'no js'}, ${Date.now().toString(36)})`
    const admin = await freshMember({ staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor' })
    const member = await freshMember({ first_name: 'Hélène', last_name: 'Lefèvre-Østergaard', lat: latitude, long: longitude, city })
    const page = await signedInPage(browser, admin.email, { js })
    await page.goto('/')
    if (js) await untilHydrated(page, 'header nav')
    await page.locator('header nav').getByRole('link', { name: 'Team' }).click()
    await page.getByRole('link', { name: 'Banners' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Banners' })).toBeVisible()
    if (js) await untilHydrated(page, '#new-title_en')

    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create the banner' }) })
    await form.getByLabel('Title (English)').fill(title)
    await form.getByLabel('Title (French)').fill(`Promenades d’automne à ${city}`)
    await form.getByLabel('Title (Dutch)').fill(`Herfstwandelingen in ${city}`)
    await form.getByLabel('Message (English)').fill('Every Tuesday at 10, from the library steps. Good shoes, no hurry.')
    await form.getByLabel('Message (French)').fill('Chaque mardi à 10 h, depuis les marches de la bibliothèque.')
    await form.getByLabel('Message (Dutch)').fill('Elke dinsdag om 10 uur, vanaf de trappen van de bibliotheek.')
    await form.getByLabel('Link (optional)').fill('/activities')
    await form.getByLabel('Ends (UTC)').fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16))
    await form.getByLabel('In some US states').check()
    await form.getByLabel('US states', { exact: true }).fill('Vermont')
    await form.getByRole('button', { name: 'Create the banner' }).click()
    // Said next to the field; what was typed is still there.
    await expect(page.getByText('Use two-letter US state codes, for example OR, WA.')).toBeVisible()
    await expect(form.getByLabel('Title (Dutch)')).toHaveValue(`Herfstwandelingen in ${city}`)
    await form.getByLabel('US states', { exact: true }).fill(state)
    await form.getByRole('button', { name: 'Create the banner' }).click()
    await expect(flash(page)).toHaveText('The banner was created.')
    const listed = page.getByTestId('admin-banner').filter({ hasText: title })
    await expect(listed.getByText('Showing')).toBeVisible()

    // The member, in the state, sees it on Home: one banner, with its link.
    const home = await signedInPage(browser, member.email, { js })
    await home.goto('/')
    if (js) await untilHydrated(home, 'header nav')
    const banner = home.getByRole('region', { name: title })
    await expect(banner).toBeVisible()
    await expect(banner.getByRole('link', { name: 'Find out more' })).toHaveAttribute('href', '/activities')
    await expect(home.getByTestId('site-banner')).toHaveCount(1)
    await banner.getByRole('button', { name: 'Hide this message' }).click()
    if (js) {
      // In place: the note takes the keyboard's place and is announced.
      await expect(home.getByRole('status').filter({ hasText: 'Message hidden.' })).toBeFocused()
    }
    await expect(home.getByRole('region', { name: title })).toHaveCount(0)
    // Still hidden on the next visit, reached by a link.
    await home.locator('header nav').getByRole('link', { name: 'Find activities' }).click()
    await expect(home.getByRole('heading', { level: 1, name: 'Find activities' })).toBeVisible()
    await home.locator('header nav').getByRole('link', { name: 'Home' }).click()
    await expect(home.getByRole('heading', { level: 1 })).toContainText('Hélène')
    await expect(home.getByRole('region', { name: title })).toHaveCount(0)

    // The admin ends it; the page says it ended, and how many hid it.
    await page.reload()
    const ending = page.getByTestId('admin-banner').filter({ hasText: title })
    await ending.getByRole('button', { name: 'End it now' }).click()
    await expect(flash(page)).toHaveText('The banner has ended.')
    await expect(page.getByTestId('admin-banner').filter({ hasText: title }).getByText('Ended')).toBeVisible()
    await expect(page.getByTestId('admin-banner').filter({ hasText: title }).getByText('Hidden by 1 member', { exact: true })).toBeVisible()
    await home.context().close()
    await page.context().close()
  })
}

test('axe: the banners page, without JavaScript', async ({ browser }) => {
  const admin = await freshMember({ staff_role: 'admin' })
  const page = await scanningPage(browser, admin.email, { pass: password })
  const scanner = new Scanner(page, 'en', `${admin.email}, JS off`)
  await scanner.visit('/admin/banners')
  await page.context().close()
  scanner.report()
})
