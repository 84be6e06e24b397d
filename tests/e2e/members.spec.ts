import type { Page } from '@playwright/test'
import { demoPassword, flash, member } from './activity-helpers.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, newVisitor, signInOverHttp, test } from './helpers.ts'
import { signedInFreshMember } from './factories.ts'

/**
 * Public profiles and Members (issue 13 §3), with JavaScript disabled. The seed gives the demo
 * accounts their profiles: Margaret (member@demo.test) keeps her age hidden, Walter
 * (host@demo.test) shows his by decade and likes walking, as Margaret does; Diane
 * (admin@demo.test) chose to be listed to nobody.
 */

const randomLetters = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')

/** Walter's profile address, from Margaret's Members page. */
async function walterProfile(page: Page) {
  await page.goto('/members')
  const link = page.locator('.member-list').getByRole('link', { name: 'Walter B.' })
  await expect(link).toBeVisible()
  return (await link.getAttribute('href')) ?? ''
}

test.describe('without JavaScript', () => {
  test("a member views another member's profile: age by decade when chosen, not when hidden", async ({ browser }) => {
    const page = await member(browser, 'member@demo.test')
    await page.goto('/members')
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible()
    const walter = page.locator('.member-list li').filter({ has: page.getByRole('link', { name: 'Walter B.' }) })
    await expect(walter).toContainText('You both like: Walking')
    await walter.getByRole('link', { name: 'Walter B.' }).click()
    await expect(page).toHaveURL(/\/p\/walter-b-/)
    await expect(page.getByRole('heading', { level: 1, name: 'Walter B.' })).toBeVisible()
    await expect(page.getByText('In their 70s')).toBeVisible()
    await expect(page.getByText(/^Member since /)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Activities Walter B. is hosting' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Activities you have in common' })).toBeVisible()
    await expect(page.getByText('Walter B. is not hosting any activities right now.')).toHaveCount(0)

    // Her own profile, as others see it: she keeps her age hidden.
    await page.goto('/p')
    await expect(page.getByText('This is how other members see you.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Edit your profile' })).toHaveAttribute('href', '/account/edit')
    await expect(page.getByRole('heading', { level: 1, name: 'Margaret E.' })).toBeVisible()
    await expect(page.getByText(/^In their \d+s$/)).toHaveCount(0)
    await page.context().close()
  })

  test('search members by first name; a member who chose "nobody" is never listed', async ({ browser }) => {
    const page = await member(browser, 'member@demo.test')
    await page.goto('/members')
    await expect(page.getByRole('link', { name: 'Diane O.' })).toHaveCount(0)
    await page.getByLabel('Search by first name').fill('wal')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/[?&]name=wal/)
    await expect(page.getByText('Members whose first name starts with “wal”')).toBeVisible()
    await expect(page.locator('.member-list').getByRole('link', { name: 'Walter B.' })).toBeVisible()
    await expect(page.getByLabel('Search by first name')).toHaveValue('wal')

    // Diane O. (the admin account) chose "nobody": searching for her finds no Diane O.
    await page.getByLabel('Search by first name').fill('Diane')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByText('Members whose first name starts with “Diane”')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Diane O.' })).toHaveCount(0)
    await page.getByLabel('Search by first name').fill('Zebedee')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByText('No one you have met or who lives near you has a first name starting with “Zebedee”.')).toBeVisible()
    await expect(page.locator('.member-list')).toHaveCount(0)
    await page.getByRole('link', { name: 'Show everyone' }).click()
    await expect(page).toHaveURL(/\/members$/)
    await page.context().close()
  })

  test('a member who hides from people near them on /account/edit/privacy is no longer listed or found', async ({ browser }) => {
    test.setTimeout(120_000)
    // A new member in Portland who likes walking, as Margaret does, under a name only they have.
    const context = await newVisitor(browser, { javaScriptEnabled: false })
    const newcomer = await context.newPage()
    await signedInFreshMember(newcomer)
    const firstName = `Wren${randomLetters(6)}`
    await newcomer.goto('/account/edit/name')
    await newcomer.locator('#firstName').fill(firstName)
    await newcomer.getByRole('button', { name: 'Save my name' }).click()
    await newcomer.goto('/account/edit/interests')
    await newcomer.locator('#interest-walking').check()
    await newcomer.getByRole('button', { name: 'Save my interests' }).click()
    await newcomer.goto('/account/edit/city')
    await newcomer.locator('#city').fill('Portland, OR')
    await newcomer.getByRole('button', { name: 'Save my city' }).click()
    await expect(newcomer.locator('#city-section')).toContainText('Portland, OR')

    const margaret = await member(browser, 'member@demo.test')
    const search = async () => {
      await margaret.goto(`/members?name=${firstName}`)
      return margaret.locator('.member-list').getByRole('link', { name: new RegExp(`^${firstName} T\\.`) })
    }
    await expect(await search()).toBeVisible()

    // "Nobody", then "Only people I have been to activities with" (they have never met): not found.
    for (const choice of ['Nobody', 'Only people I have been to activities with']) {
      await newcomer.goto('/account/edit/privacy')
      await newcomer.getByLabel(choice).check()
      await newcomer.getByRole('button', { name: 'Save my privacy choices' }).click()
      await expect(flash(newcomer)).toHaveText('Your privacy choices are saved.')
      await expect(await search()).toHaveCount(0)
      await expect(margaret.getByText(`No one you have met or who lives near you has a first name starting with “${firstName}”.`)).toBeVisible()
    }
    await margaret.context().close()
    await context.close()
  })

  test('a signed-out visitor on a profile is asked to join and sees the name only', async ({ browser }) => {
    const page = await member(browser, 'member@demo.test')
    const profile = await walterProfile(page)
    await page.context().close()

    const visitor = await newVisitor(browser, { javaScriptEnabled: false })
    const anonymous = await visitor.newPage()
    await anonymous.goto(profile)
    await expect(anonymous.getByRole('heading', { level: 1, name: 'Walter B.' })).toBeVisible()
    await expect(anonymous.getByText('Join Circle 55 to see Walter B.’s profile and the activities they host.')).toBeVisible()
    await expect(anonymous.getByRole('link', { name: 'Join for free' }).last()).toHaveAttribute('href', `/signup?returnTo=${encodeURIComponent(profile)}`)
    await expect(anonymous.getByText('In their 70s')).toHaveCount(0)
    await expect(anonymous.getByText(/^Lives in/)).toHaveCount(0)
    await visitor.close()
  })

  test('report a member', async ({ browser }) => {
    const page = await member(browser, 'member@demo.test')
    await page.goto(await walterProfile(page))
    await page.getByRole('link', { name: 'Report this member' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Report this member' })).toBeVisible()
    await page.getByLabel('Tell us more (optional)').fill('He asked me for money.')
    await submitWithoutNativeValidation(page, '#details')
    await expect(page.locator('.error-summary')).toContainText('Please choose a reason.')
    await expect(page.getByLabel('Tell us more (optional)')).toHaveValue('He asked me for money.')
    await page.getByLabel('Fake or a scam').check()
    await page.getByRole('button', { name: 'Send the report' }).click()
    await expect(page).toHaveURL(/\/p\/walter-b-/)
    await expect(flash(page)).toHaveText('Thank you. Our team will look at your report.')
    await page.context().close()
  })
})

/**
 * axe in English, JavaScript off (the page's own scripts blocked: axe runs in the page), as Walter
 * (his language unchanged). French and Dutch, the same markup with other words, are checked for
 * their wording over the same page states in the catalogue (app/routes/page-catalogue.test.ts).
 */
test('accessibility in en: Members, a profile, one’s own profile, the report form, signed out', async ({ browser }) => {
  test.setTimeout(240_000)
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signInOverHttp(context, 'host@demo.test', demoPassword)
  const s = new Scanner(page, 'en', 'signed in, JS off')
  await s.visit('/members')
  await s.visit('/members?name=zzz')
  await s.visit('/p')
  await page.goto('/members')
  const profile = await page.locator('.member-list a[href^="/p/"]').first().getAttribute('href')
  expect(profile, 'a member to meet').toBeTruthy()
  await s.visit(profile!)
  await s.visit(`${profile}/report`)
  await submitWithoutNativeValidation(page, '#details')
  await s.scan('report a member, with errors')
  await context.close()

  const anonymous = await newVisitor(browser)
  await anonymous.route('**/*.js', (route) => route.abort())
  const visitor = new Scanner(await anonymous.newPage(), 'en', 'signed out, JS off')
  await visitor.visit(profile!)
  s.found.push(...visitor.found)
  await anonymous.close()
  s.report()
})
