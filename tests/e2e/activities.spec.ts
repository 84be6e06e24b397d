import { readFile } from 'node:fs/promises'
import type { Browser, Download, Page } from '@playwright/test'
import { day, flash, localStart, member, setStartTime } from './activity-helpers.ts'
import { freshMemberPage, publishedActivity, savedCard } from './factories.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, expectConsoleError, newVisitor, signInOverHttp, test } from './helpers.ts'

/**
 * Activities (issue 3 §9), the way members use them: most of it with JavaScript disabled in the
 * browser (every core form is a plain HTML form), then the enhancements with JavaScript on.
 * Demo accounts come from the seed (password demo-password-55); each test uses its own members
 * and its own activities so the tests can run in parallel.
 */

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  const path = await download.path()
  return { download, text: await readFile(path, 'utf8') }
}

const fieldError = (page: Page, id: string) => page.locator(`#${id}-error`)

/**
 * The invited member signs in, opens the activity, sees who invited them and accepts (issue 12
 * §3: adding by email only invites); returns the host's name as the invitation says it.
 */
async function acceptInvitation(browser: Browser, email: string, id: string, options: { js?: boolean } = {}) {
  const guest = await member(browser, email, options)
  await guest.goto(`/activities/${id}`)
  const invitation = guest.getByRole('region', { name: / invited you to this activity$/ })
  await expect(invitation).toBeVisible()
  await expect(guest.getByRole('button', { name: 'Save my seat' })).toHaveCount(0)
  const invitedBy = (await invitation.getByRole('heading').textContent())?.replace(/ invited you to this activity$/, '') ?? ''
  await invitation.getByRole('button', { name: 'Accept the invitation' }).click()
  await expect(flash(guest)).toHaveText('You accepted the invitation. Your seat is saved.')
  await expect(guest.getByText('You are going. See you there!')).toBeVisible()
  await expect(invitation).toHaveCount(0)
  await guest.context().close()
  return invitedBy
}

test.describe('without JavaScript', () => {
  test('browse and filter: shareable filter URLs, search-and-pick a city, remembered choices, paging, empty state', async ({ browser }) => {
    const context = await newVisitor(browser, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/activities')
    await expect(page.getByRole('heading', { level: 1, name: 'Find activities' })).toBeVisible()

    const filters = page.getByRole('form', { name: 'Filter activities' })
    await filters.getByLabel('When').selectOption('any-day')
    await filters.getByLabel('Distance').selectOption('50')
    await filters.getByLabel('City').fill('Portland')
    await filters.getByRole('button', { name: 'Show activities' }).click()

    // Every filter state is a URL; the typed city is searched and the best match taken.
    await expect(page).toHaveURL(/[?&]date=any-day/)
    await expect(page).toHaveURL(/[?&]distance=50/)
    await expect(page).toHaveURL(/[?&]q=Portland/)
    const status = page.getByRole('heading', { level: 2, name: /near Portland, OR$/ })
    await expect(status).toHaveText(/^\d+ activit(y|ies) near Portland, OR/)
    // Without JavaScript the page opens at the results (issue 29 §4), not at the top of the form.
    await expect(page).toHaveURL(/#results$/)
    const cards = page.locator('.experience-list > li')
    expect(await cards.count()).toBeGreaterThan(0)

    // The other matches are offered as links: picking one changes the place.
    await page.getByRole('link', { name: 'Portland, ME' }).click()
    await expect(page).toHaveURL(/[?&]place=us-me-portland/)
    await expect(page.getByRole('heading', { level: 2, name: /near Portland, ME$/ })).toBeVisible()

    // The URL is shareable: another visitor opening it sees the same state.
    const shared = await newVisitor(browser, { javaScriptEnabled: false })
    const sharedPage = await shared.newPage()
    await sharedPage.goto(page.url().replace(/^https?:\/\/[^/]+/, ''))
    await expect(sharedPage.getByRole('heading', { level: 2, name: /near Portland, ME$/ })).toBeVisible()
    await expect(sharedPage.getByLabel('Distance')).toHaveValue('50')
    await shared.close()

    // The choices are remembered (a cookie, so it works without JavaScript).
    await page.goto('/activities')
    await expect(page.getByLabel('Distance')).toHaveValue('50')
    await expect(page.getByRole('heading', { level: 2, name: /near Portland, ME$/ })).toBeVisible()

    // Paging: every upcoming activity within 100 miles of Portland spans several pages.
    await page.goto('/activities?date=any-day&distance=100&q=Portland%2C+OR')
    const pagination = page.getByRole('navigation', { name: 'Pages' })
    await expect(pagination).toContainText('Page 1 of')
    const firstTitle = await cards.first().locator('h2, h3').first().textContent()
    await pagination.getByRole('link', { name: 'Next page' }).click()
    await expect(page).toHaveURL(/[?&]page=2/)
    await expect(pagination).toContainText('Page 2 of')
    expect(await cards.first().locator('h2, h3').first().textContent()).not.toBe(firstTitle)

    // A clear empty state with a way out.
    await page.goto('/activities?date=today&distance=2&q=Juneau%2C+AK')
    await expect(page.getByRole('heading', { name: 'Nothing left today' })).toBeVisible()
    await expect(page.getByText(/^Today: \w{3}, \w{3} \d{1,2}$/)).toBeVisible()
    await expect(page.getByRole('link', { name: 'See tomorrow' })).toHaveAttribute('href', /date=tomorrow&distance=2&place=us-ak-juneau#results$/)
    await page.getByRole('link', { name: 'Show every upcoming activity' }).click()
    await expect(page.getByRole('heading', { name: 'Nothing left today' })).toBeHidden()

    // A first visit from a public US address starts near the connection's city, said as a guess.
    const fromCalifornia = await newVisitor(browser, { javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } })
    const guessedPage = await fromCalifornia.newPage()
    await guessedPage.goto('/activities')
    await expect(guessedPage.getByRole('heading', { level: 2, name: /near .+, CA$/ })).toBeVisible()
    await expect(guessedPage.getByText(/^We guessed .+, CA from your internet connection/)).toBeVisible()
    await expect(guessedPage.getByRole('link', { name: 'IP Geolocation by DB-IP' })).toBeVisible()
    await fromCalifornia.close()

    // An unknown place is said plainly.
    await page.goto('/activities?date=any-day&distance=25&q=Qwxzv')
    await expect(page.getByRole('alert')).toBeVisible()
    await context.close()
  })

  test('anonymous visitors see the register prompt instead of attendees and the full address', async ({ browser }) => {
    const host = await member(browser, 'member11@demo.test')
    const id = await publishedActivity(host, { title: 'Riverside walk for newcomers' })
    await host.context().close()

    const context = await newVisitor(browser, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`/activities/${id}`)
    await expect(page.getByText('Join Circle 55 to see who is going and get the full address.')).toBeVisible()
    await expect(page.getByText('full address for members')).toBeVisible()
    await expect(page.getByText('pavilion', { exact: false }).first()).toBeVisible()
    await expect(page.getByRole('link', { name: /Get directions/ })).toHaveCount(0)
    await page.getByRole('link', { name: 'Sign in to save your seat' }).click()
    await expect(page).toHaveURL(/\/identity\//)
    await context.close()
  })

  test('attend, the notify list, and a freed seat going to the first on the list', async ({ browser }) => {
    const host = await member(browser, 'member12@demo.test')
    const id = await publishedActivity(host, { title: 'Chess in the park', capacity: 1, startsInMs: 4 * day })

    const first = await member(browser, 'member13@demo.test')
    await first.goto(`/activities/${id}`)
    await expect(first.getByRole('heading', { name: '0 people going' })).toBeVisible()
    await first.getByRole('button', { name: 'Save my seat' }).click()
    await expect(flash(first)).toHaveText('Your seat is saved.')
    await expect(first.getByText('You are going. See you there!')).toBeVisible()
    await expect(first.getByRole('heading', { name: '1 person going' })).toBeVisible()

    // The activity is now full: the next member is offered the notify list.
    const second = await member(browser, 'member14@demo.test')
    await second.goto(`/activities/${id}`)
    await expect(second.getByText('This activity is full. Join the notify list and we will tell you if a seat frees up.')).toBeVisible()
    await expect(second.getByRole('button', { name: 'Save my seat' })).toHaveCount(0)
    await second.getByRole('button', { name: 'Join the notify list' }).click()
    await expect(flash(second)).toHaveText('You are on the notify list.')
    await expect(second.getByText('You are number 1 on the notify list.')).toBeVisible()

    await second.getByRole('button', { name: 'Leave the notify list' }).click()
    await expect(flash(second)).toHaveText('You have left the notify list.')
    await expect(second.getByRole('button', { name: 'Join the notify list' })).toBeVisible()
    await second.getByRole('button', { name: 'Join the notify list' }).click()
    await expect(second.getByText('You are number 1 on the notify list.')).toBeVisible()

    // The host sees who is waiting.
    await host.reload()
    const hostTools = host.getByRole('region', { name: 'Manage your activity' })
    await expect(hostTools.getByRole('heading', { name: 'Notify list' })).toBeVisible()
    await expect(hostTools.locator('ol > li')).toHaveCount(1)

    // More than 24 hours before the start, a freed seat goes to the first member on the list.
    await first.getByRole('button', { name: 'Cancel my seat' }).click()
    await expect(flash(first)).toHaveText('Your seat is canceled.')
    await expect(first.getByText('This activity is full.', { exact: false })).toBeVisible()
    await second.reload()
    await expect(second.getByText('You are going. See you there!')).toBeVisible()

    // Attending shows it in the member's list of upcoming activities.
    await second.goto('/attending')
    await expect(second.locator(`a[href="/activities/${id}"]`)).toHaveText('Chess in the park')
    for (const page of [host, first, second]) await page.context().close()
  })

  test('cancelling within 12 hours: said before the seat is saved, then confirmed on its own page, with the fee the member agreed to', async ({ browser }) => {
    const host = await member(browser, 'member15@demo.test')
    const id = await publishedActivity(host, { title: 'Afternoon tea and scones', feeCents: 500, startsInMs: 3 * 60 * 60 * 1000 })
    await host.context().close()

    await savedCard('member16@demo.test')
    const page = await member(browser, 'member16@demo.test')
    await page.goto(`/activities/${id}`)
    // Said before the seat is saved, and plainly: the fee, the 12 hours, and the notice first (decision 075).
    await expect(page.getByText(/^This activity starts in less than 12 hours\. If you save a seat and then cancel, the host is told you cannot come\. This activity has a \$5 no-show fee/)).toBeVisible()
    await page.getByLabel('I agree to a $5 fee if I cancel less than 12 hours before the start or do not come. It would be charged to Visa •••• 4242, and I would be told first.').check()
    await page.getByRole('button', { name: 'Save my seat' }).click()
    await expect(page.getByText('You are going. See you there!')).toBeVisible()
    await expect(page.getByText(/^It starts in less than 12 hours: if you cancel now, the host is told you cannot come\./)).toBeVisible()

    await page.getByRole('button', { name: 'Cancel my seat' }).click()
    await expect(page).toHaveURL(new RegExp(`/activities/${id}\\?confirm=cancel$`))
    await expect(page.getByRole('heading', { level: 1, name: 'Cancel your seat?' })).toBeVisible()
    await expect(page.getByText('If you cancel now, the host is told you cannot come. You agreed to the $5 no-show fee for this seat, so it may be charged. We will tell you first, and you can tell us if it is wrong.')).toBeVisible()

    // Keeping the seat changes nothing.
    await page.getByRole('link', { name: 'No, keep my seat' }).click()
    await expect(page.getByText('You are going. See you there!')).toBeVisible()

    await page.getByRole('button', { name: 'Cancel my seat' }).click()
    await page.getByRole('button', { name: 'Yes, cancel my seat' }).click()
    await expect(flash(page)).toHaveText('Your seat is canceled.')
    await expect(page.getByRole('button', { name: 'Save my seat' })).toBeVisible()
    await page.context().close()
  })

  test('create an activity: every validation message, nothing typed is lost', async ({ browser }) => {
    const page = await member(browser, 'member17@demo.test')
    await page.goto('/create-activity')
    const submit = page.getByRole('button', { name: 'Publish the activity' })
    const summary = page.locator('.error-summary')

    // 1. Nothing filled in.
    await submit.click()
    await expect(summary).toContainText('There is a problem')
    await expect(summary).toContainText('The form is not complete yet. Please check the fields marked below.')
    await expect(fieldError(page, 'title')).toContainText('Please provide a title for the activity.')
    await expect(fieldError(page, 'venueType')).toContainText('Please choose whether the activity is in person or online.')
    await expect(fieldError(page, 'startDate')).toContainText('Please provide a start date.')
    await expect(fieldError(page, 'startTime')).toContainText('Please provide a start time.')
    await expect(page.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true')
    // The summary links to the fields.
    await expect(summary.getByRole('link', { name: 'Please provide a title for the activity.' })).toHaveAttribute('href', '#title')

    // 2. Everything filled in, much of it wrong.
    const tomorrow = localStart(day)
    await page.getByLabel('Title').fill('Watercolour morning')
    await page.getByLabel('Description (optional)').fill('Bring your own brushes.')
    await page.getByRole('radio', { name: 'In person' }).check()
    await page.getByLabel('City').fill('Portland')
    await page.getByLabel('Date', { exact: true }).fill(tomorrow.date)
    // Minutes are chosen in 5-minute steps; the hour alone is not a start time.
    const startTime = page.getByRole('group', { name: 'Start time' })
    await expect(startTime.getByLabel('Minutes').locator('option')).toHaveText(['Choose', '00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'])
    await expect(startTime.getByLabel('Hour').locator('option[value="14"]')).toHaveText('2 PM')
    await startTime.getByLabel('Hour').selectOption('10')
    await page.getByLabel('How many people can come? (optional)').fill('0')
    await page.getByLabel('Ticket link (optional)').fill('tickets please')
    await page.getByLabel('No-show fee in dollars (optional)').fill('$5')
    await submit.click()
    await expect(fieldError(page, 'place')).toContainText('Location must be selected from the dropdown.')
    await expect(fieldError(page, 'startTime')).toContainText('Please provide a start time.')
    await expect(fieldError(page, 'maxAttendees')).toContainText('Capacity must be greater than 0.')
    await expect(fieldError(page, 'ticketUrl')).toContainText('Please enter a valid URL, starting with https://')
    await expect(fieldError(page, 'noShowFee')).toContainText('Numbers only, no symbols, for example 5.00.')
    await expect(fieldError(page, 'title')).toHaveCount(0)
    // Everything typed is still there.
    await expect(page.getByLabel('Title')).toHaveValue('Watercolour morning')
    await expect(page.getByLabel('Description (optional)')).toHaveValue('Bring your own brushes.')
    await expect(page.getByRole('radio', { name: 'In person' })).toBeChecked()
    await expect(page.getByLabel('Date', { exact: true })).toHaveValue(tomorrow.date)
    await expect(startTime.getByLabel('Hour')).toHaveValue('10')
    await expect(page.getByLabel('How many people can come? (optional)')).toHaveValue('0')
    await expect(page.getByLabel('Ticket link (optional)')).toHaveValue('tickets please')
    await expect(page.getByLabel('No-show fee in dollars (optional)')).toHaveValue('$5')

    // 3. Pick the city from the matches; a date in the past and a file that is not a photo.
    await page.getByRole('radio', { name: 'Portland, OR' }).check()
    const yesterday = localStart(-day)
    await page.getByLabel('Date', { exact: true }).fill(yesterday.date)
    await setStartTime(page, '10:05')
    await page.getByLabel('How many people can come? (optional)').fill('8')
    await page.getByLabel('Ticket link (optional)').fill('')
    await page.getByLabel('No-show fee in dollars (optional)').fill('5.00')
    await submit.click()
    await expect(fieldError(page, 'startDate')).toContainText('The start date must be in the future.')
    await expect(fieldError(page, 'place')).toHaveCount(0)

    await page.getByLabel('Date', { exact: true }).fill(tomorrow.date)
    await page.getByLabel('Cover photo (optional)').setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not really a photo') })
    await submit.click()
    // Upload errors by kind (spec §8: 415 invalid format), no longer one message for every failure.
    await expect(fieldError(page, 'cover')).toContainText('This photo is not a JPEG or PNG. Please choose a JPEG or PNG photo.')
    await expect(page.getByLabel('Title')).toHaveValue('Watercolour morning')

    // 4. An online activity needs a link.
    await page.getByRole('radio', { name: 'Online' }).check()
    await page.getByLabel('Link to the online activity').fill('')
    await submit.click()
    await expect(fieldError(page, 'url')).toContainText('Please enter a valid URL, starting with https://')

    // 5. Fixed: published.
    await page.getByLabel('Link to the online activity').fill('https://meet.example.org/watercolour')
    await submit.click()
    await expect(flash(page)).toHaveText('Your activity is published.')
    await expect(page.getByRole('heading', { level: 1, name: 'Watercolour morning' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Join the online activity (opens a new tab)' })).toHaveAttribute('href', 'https://meet.example.org/watercolour')
    await expect(page.getByText(/^\w{3}, \w{3} \d{1,2} • 10:05 AM [A-Z]{3,4}$/)).toBeVisible()
    await page.context().close()
  })

  test('report an activity, and write to Circle 55', async ({ browser }) => {
    const host = await member(browser, 'member28@demo.test')
    const id = await publishedActivity(host, { title: 'Free money seminar' })
    // Hosts do not report their own activity.
    await expect(host.getByRole('link', { name: 'Report this activity' })).toHaveCount(0)
    await host.context().close()

    const page = await member(browser, 'member29@demo.test')
    await page.goto(`/activities/${id}`)
    await expect(page.getByRole('link', { name: 'Questions? Write to Circle 55' })).toHaveAttribute('href', /^mailto:help@circle55\.example\?subject=Free%20money%20seminar/)
    await page.getByRole('link', { name: 'Report this activity' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Report this activity' })).toBeVisible()
    await page.getByLabel('Tell us more (optional)').fill('They asked everyone to bring cash for an investment.')
    await page.getByRole('button', { name: 'Send the report' }).click()
    await expect(fieldError(page, 'reason')).toContainText('Please choose a reason.')
    await expect(page.getByLabel('Tell us more (optional)')).toHaveValue('They asked everyone to bring cash for an investment.')
    await page.getByRole('radio', { name: 'Fake or a scam' }).check()
    await page.getByRole('button', { name: 'Send the report' }).click()
    await expect(page).toHaveURL(new RegExp(`/activities/${id}$`))
    await expect(flash(page)).toHaveText('Thank you. Our team will look at your report.')
    await page.context().close()
  })

  test('host tools: invite by email, attendee CSV, calendar file, edit, duplicate, cancel the activity', async ({ browser }) => {
    const host = await member(browser, 'member18@demo.test')
    const id = await publishedActivity(host, { title: 'Bridge club', capacity: 3 })
    const tools = host.getByRole('region', { name: 'Manage your activity' })

    // Invite by email: the result says the same of every address, member or not (decision 066), and nobody is seated yet.
    await tools.getByLabel('Email addresses').fill('member19@demo.test, member20@demo.test\nnobody@nowhere.test')
    await tools.getByRole('button', { name: 'Send invitations' }).click()
    await expect(
      host.getByText('We sent an invitation to each of these addresses that belongs to a Circle 55 member who is not going yet: member19@demo.test, member20@demo.test, nobody@nowhere.test'),
    ).toBeVisible()
    await expect(host.getByText('No member with this address')).toHaveCount(0)
    await expect(host.getByRole('heading', { name: '0 people going' })).toBeVisible()

    // Each invited member accepts from the activity page: without JavaScript, and with it.
    const hostName = (await host.locator('dt', { hasText: /^Host$/ }).locator('xpath=following-sibling::dd[1]').textContent()) ?? ''
    expect(await acceptInvitation(browser, 'member19@demo.test', id)).toBe(hostName)
    expect(await acceptInvitation(browser, 'member20@demo.test', id, { js: true })).toBe(hostName)
    await host.reload()
    await expect(host.getByRole('heading', { name: '2 people going' })).toBeVisible()

    // The attendee list as CSV: display names, RSVP time and attendance; no email, no phone.
    const csv = await downloaded(host, () => tools.getByRole('link', { name: 'Download the attendee list (CSV)' }).click())
    expect(csv.download.suggestedFilename()).toMatch(/\.csv$/)
    const lines = csv.text.trim().split('\r\n')
    expect(lines[0]).toBe('name,rsvp_at,attendance')
    expect(lines).toHaveLength(3)
    for (const line of lines.slice(1)) expect(line).toMatch(/^[^,]+,\d{4}-\d{2}-\d{2}T[\d:.]+Z,going$/)
    expect(csv.text).not.toMatch(/@|\d{3}[-. ]?\d{4}/)

    // Add to calendar: a calendar file with the activity in it.
    const ics = await downloaded(host, () => host.getByRole('link', { name: 'Add to my calendar' }).click())
    expect(ics.download.suggestedFilename()).toMatch(/\.ics$/)
    expect(ics.text).toContain('BEGIN:VCALENDAR')
    expect(ics.text).toContain('SUMMARY:Bridge club')
    expect(ics.text).toMatch(/DTSTART/)

    // Edit: capacity below the attendees is refused, then a new title is saved.
    await tools.getByRole('link', { name: 'Edit the details' }).click()
    await expect(host.getByRole('heading', { level: 1, name: 'Edit your activity' })).toBeVisible()
    await expect(host.getByLabel('Title')).toHaveValue('Bridge club')
    await host.getByLabel('How many people can come? (optional)').fill('1')
    await host.getByRole('button', { name: 'Save changes' }).click()
    await expect(fieldError(host, 'maxAttendees')).toContainText('Capacity must be equal to or greater than the number of attendees.')
    await host.getByLabel('How many people can come? (optional)').fill('4')
    await host.getByLabel('Title').fill('Bridge club (beginners welcome)')
    await host.getByRole('button', { name: 'Save changes' }).click()
    await expect(flash(host)).toHaveText('Your changes are saved.')
    await expect(host.getByRole('heading', { level: 1, name: 'Bridge club (beginners welcome)' })).toBeVisible()
    expect(host.url()).toMatch(new RegExp(`/activities/${id}$`))

    // Duplicate: prefilled from the original, published as a new activity.
    await tools.getByRole('link', { name: 'Duplicate it for another date' }).click()
    await expect(host).toHaveURL(new RegExp(`/duplicate-activity\\?from=${id}`))
    await expect(host.getByLabel('Title')).toHaveValue('Bridge club (beginners welcome)')
    await expect(host.getByLabel('How many people can come? (optional)')).toHaveValue('4')
    const next = localStart(10 * day)
    await host.getByLabel('Date', { exact: true }).fill(next.date)
    await setStartTime(host, '14:00')
    await host.getByRole('button', { name: /Publish/ }).click()
    await expect(flash(host)).toHaveText('Your activity is published.')
    const copyId = /\/activities\/([^/?#]+)$/.exec(host.url())?.[1]
    expect(copyId).toBeTruthy()
    expect(copyId).not.toBe(id)
    await expect(host.getByRole('heading', { name: '0 people going' })).toBeVisible()

    // My activities: the hosting filter shows both, upcoming; neither is in the past list.
    await host.goto('/attending')
    await host.getByRole('link', { name: 'Only the ones I host' }).click()
    await expect(host).toHaveURL(/hosting=true/)
    await expect(host.locator(`a[href="/activities/${id}"]`)).toBeVisible()
    await expect(host.locator(`a[href="/activities/${copyId}"]`)).toBeVisible()
    await host.getByRole('link', { name: 'Past' }).click()
    await expect(host).toHaveURL(/type=past/)
    await expect(host.locator(`a[href="/activities/${id}"]`)).toHaveCount(0)

    // Cancel the original: a confirmation page, then final.
    await host.goto(`/activities/${id}`)
    await tools.getByRole('link', { name: 'Cancel the activity' }).click()
    await expect(host.getByRole('heading', { level: 1, name: 'Cancel this activity?' })).toBeVisible()
    await expect(host.getByText('the 2 people going will be told', { exact: false })).toBeVisible()
    await host.getByRole('button', { name: 'Yes, cancel the activity' }).click()
    await expect(flash(host)).toHaveText('The activity is canceled and everyone going has been told.')
    await expect(host.getByText(/^You canceled this activity on /)).toBeVisible()
    await expect(tools).toHaveCount(0)

    // An attendee sees it cancelled and can no longer take a seat.
    const attendee = await member(browser, 'member19@demo.test')
    await attendee.goto(`/activities/${id}`)
    await expect(attendee.getByText(/, the host, canceled this activity on /)).toBeVisible()
    await expect(attendee.getByRole('button', { name: 'Save my seat' })).toHaveCount(0)
    // …and another member cannot manage someone else's activity.
    await attendee.goto(`/activities/${copyId}/edit`)
    await expect(attendee.getByRole('heading', { level: 1, name: 'Edit your activity' })).toHaveCount(0)
    for (const page of [host, attendee]) await page.context().close()
  })
})

test.describe('with JavaScript', () => {
  test('attend is optimistic and rolls back with a clear message when the last seat was just taken', async ({ browser }) => {
    const host = await member(browser, 'member21@demo.test')
    const id = await publishedActivity(host, { title: 'Sunset photography walk', capacity: 1 })
    await host.context().close()

    const page = await member(browser, 'member22@demo.test', { js: true })
    await page.goto(`/activities/${id}`)
    await expect(page.getByRole('heading', { name: '0 people going' })).toBeVisible()

    // Someone else takes the last seat while this page is open.
    const other = await member(browser, 'member23@demo.test')
    await other.goto(`/activities/${id}`)
    await other.getByRole('button', { name: 'Save my seat' }).click()
    await expect(other.getByText('You are going. See you there!')).toBeVisible()

    // Hold the answer back so the optimistic state can be seen before it rolls back.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(`**/activities/${id}.data*`, async (route) => {
      if (route.request().method() === 'POST') await held
      await route.continue()
    })
    await page.getByRole('button', { name: 'Save my seat' }).click()
    await expect(page.getByRole('heading', { name: '1 person going' })).toBeVisible()
    await expect(page.getByText('You are going. See you there!')).toBeVisible()
    release()

    await expect(page.getByRole('alert')).toContainText('Sorry, the last seat has just been taken. You can join the notify list instead.')
    await expect(page.getByText('You are going. See you there!')).toBeHidden()
    await expect(page.getByRole('button', { name: 'Join the notify list' })).toBeVisible()

    // The notify list works in place too.
    await page.getByRole('button', { name: 'Join the notify list' }).click()
    await expect(page.getByText('You are number 1 on the notify list.')).toBeVisible()
    for (const p of [page, other]) await p.context().close()
  })

  test('attend works in place and a server failure rolls back', async ({ browser }) => {
    const host = await member(browser, 'member24@demo.test')
    const id = await publishedActivity(host, { title: 'Gentle yoga by the river' })
    await host.context().close()

    const page = await member(browser, 'member25@demo.test', { js: true })
    await page.goto(`/activities/${id}`)
    // A forced server error: the page goes back to how it was and says so. The stand-in answer is
    // plain text (as a proxy's error page would be), which Remix logs as undecodable.
    expectConsoleError(/^SyntaxError\b/, 'the test answers the data request with plain text instead of the server')
    await page.route(`**/activities/${id}.data*`, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.continue(),
    )
    await page.getByRole('button', { name: 'Save my seat' }).click()
    await expect(page.getByRole('alert')).toContainText('That did not go through, so nothing has changed.')
    await expect(page.getByRole('button', { name: 'Save my seat' })).toBeVisible()
    await expect(page.getByRole('heading', { name: '0 people going' })).toBeVisible()

    await page.unroute(`**/activities/${id}.data*`)
    await page.reload()
    // Wait for the answer: the optimistic state shows at once, before the server has saved.
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes(`/activities/${id}.data`)),
      page.getByRole('button', { name: 'Save my seat' }).click(),
    ])
    await expect(page.getByText('You are going. See you there!')).toBeVisible()
    await page.reload()
    await expect(page.getByText('You are going. See you there!')).toBeVisible()
    await expect(page.getByRole('heading', { name: '1 person going' })).toBeVisible()
    await page.context().close()
  })

  test('city autocomplete on Explore', async ({ browser }) => {
    const context = await newVisitor(browser)
    const page = await context.newPage()
    await page.goto('/activities')
    const city = page.getByRole('combobox', { name: 'City' })
    await city.fill('portl')
    const options = page.getByRole('listbox', { name: 'Matching cities' }).getByRole('option')
    await expect(options.first()).toHaveText('Portland, OR')
    await city.press('ArrowDown')
    await expect(options.first()).toHaveAttribute('aria-selected', 'true')
    await city.press('Enter')
    await expect(city).toHaveValue('Portland, OR')
    await expect(page.getByRole('listbox', { name: 'Matching cities' })).toBeHidden()
    await page.getByRole('button', { name: 'Show activities' }).click()
    await expect(page).toHaveURL(/[?&]place=us-or-portland/)
    await expect(page.getByRole('heading', { level: 2, name: /near Portland, OR$/ })).toBeVisible()
    // A city typed in full is taken as it is, written as the list writes it, and no list opens.
    await city.fill('seattle, wa')
    await expect(city).toHaveValue('Seattle, WA')
    await expect(page.getByRole('listbox', { name: 'Matching cities' })).toBeHidden()
    await page.getByRole('button', { name: 'Show activities' }).click()
    await expect(page).toHaveURL(/[?&]place=us-wa-seattle/)
    await context.close()
  })
  test('current location picks the nearest city and searches there; a refused permission says what to do instead', async ({ browser }) => {
    const allowed = await newVisitor(browser, { permissions: ['geolocation'], geolocation: { latitude: 45.52, longitude: -122.68 } })
    const page = await allowed.newPage()
    // Issue 29 §4: the member presses one button and sees what is near them, nothing more to press.
    await page.goto('/activities?date=any-day&distance=25&place=us-me-portland')
    await expect(page.getByRole('heading', { level: 2, name: /near Portland, ME$/ })).toBeVisible()
    await page.getByRole('button', { name: 'Use my current location' }).click()
    await expect(page).toHaveURL(/[?&]place=us-or-portland(&|#|$)/)
    await expect(page).toHaveURL(/[?&]distance=25(&|#|$)/)
    const results = page.getByRole('heading', { level: 2, name: /^\d+ activit(y|ies) near Portland, OR$/ })
    await expect(results).toBeVisible()
    // The results are where the member is taken, and where focus is.
    await expect(results).toBeFocused()
    await expect(page.getByRole('combobox', { name: 'City' })).toHaveValue('Portland, OR')
    await allowed.close()

    // Refused (no permission granted: the browser denies it): said first (spec §8), then the
    // fallback from the internet address, which finds nothing for a private one.
    const refused = await newVisitor(browser, { permissions: [] })
    const other = await refused.newPage()
    await other.goto('/activities')
    await other.getByRole('button', { name: 'Use my current location' }).click()
    await expect(other.getByText('Permission to access location was denied.')).toBeVisible()
    await expect(other.getByText('We could not find where you are. Please type your city or ZIP code instead.')).toBeVisible()
    await refused.close()

    // Refused, from a public US address: the city of the connection is offered, with the data's credit.
    const public_ = await newVisitor(browser, { permissions: [], extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' } })
    const guessed = await public_.newPage()
    await guessed.goto('/activities?place=us-or-portland')
    await guessed.getByRole('button', { name: 'Use my current location' }).click()
    // Searched there at once, said as a guess (and not remembered as the member's choice).
    await expect(guessed).toHaveURL(/[?&]located=denied(&|#|$)/)
    await expect(guessed.getByRole('heading', { level: 2, name: /near .+, CA$/ })).toBeVisible()
    await expect(guessed.getByRole('combobox', { name: 'City' })).toHaveValue(/, CA$/)
    await expect(guessed.getByText(/^We guessed .+, CA from your internet connection/)).toBeVisible()
    // The refusal is said before the guess, in the same status region.
    await expect(guessed.getByRole('status').filter({ hasText: 'We guessed' }).locator('p')).toHaveText([
      'Permission to access location was denied.',
      /^We guessed .+, CA from your internet connection/,
    ])
    await expect(guessed.getByRole('link', { name: 'IP Geolocation by DB-IP' })).toHaveAttribute('href', 'https://db-ip.com')
    await public_.close()
  })

  test('the attendee list opens in a dialog', async ({ browser }) => {
    const host = await member(browser, 'member26@demo.test')
    const id = await publishedActivity(host, { title: 'Community choir rehearsal' })
    const emails = Array.from({ length: 7 }, (_, i) => `member${50 + i}@demo.test`)
    await host.getByLabel('Email addresses').fill(emails.join(', '))
    await host.getByRole('button', { name: 'Send invitations' }).click()
    await expect(host.getByText(`We sent an invitation to each of these addresses that belongs to a Circle 55 member who is not going yet: ${emails.join(', ')}`)).toBeVisible()
    // Invited is not going: each member says yes.
    for (const email of emails) await acceptInvitation(browser, email, id)
    await host.reload()
    await expect(host.getByRole('heading', { name: '7 people going' })).toBeVisible()
    // Without JavaScript everyone is listed on the page.
    await expect(host.locator('.attendee-list > li')).toHaveCount(7)
    await host.context().close()

    const page = await member(browser, 'member27@demo.test', { js: true })
    await page.goto(`/activities/${id}`)
    await expect(page.locator('article .attendee-list').first().locator(':scope > li')).toHaveCount(6)
    await page.getByRole('button', { name: 'See everyone going (7)' }).click()
    const dialog = page.getByRole('dialog', { name: '7 people going' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('listitem')).toHaveCount(7)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await page.context().close()
  })
})

/**
 * Zero axe violations on every page of this issue in English, with JavaScript on and off (off:
 * script requests aborted, so the page stays server-rendered), including the form with errors, the
 * confirmation pages, an invitation to answer, the host's view and the anonymous view. French and
 * Dutch, the same markup with other words, are checked for their wording over the same page states
 * in the catalogue (app/routes/page-catalogue.test.ts), the create form's hours with them.
 */
test('a11y: activity pages in en, with and without JavaScript', async ({ browser }) => {
  // About 40 axe scans of 2–3 s of browser CPU each, doubled while the other worker scans too.
  test.setTimeout(420_000)
  // Fresh members: a host, and the member whose pages are scanned.
  const { page: other } = await freshMemberPage(browser, {}, { first_name: 'Rosa', last_name: 'Delgado' })
  const attendable = await publishedActivity(other, { title: 'Garden visit', capacity: 5, feeCents: 500, startsInMs: 3 * 60 * 60 * 1000 })
  const { page: setup, member: scanned } = await freshMemberPage(browser, {}, { first_name: 'Hélène', last_name: 'Van Acker' })
  const email = scanned.email
  // A saved card: the activity with a fee asks for the member's agreement next to "Save my seat".
  await savedCard(scanned.id)
  // An invitation the member leaves unanswered, for its view on the activity page.
  const invitedTo = await publishedActivity(other, { title: 'Tea and cards' })
  await other.getByLabel('Email addresses').fill(email)
  await other.getByRole('button', { name: 'Send invitations' }).click()
  await expect(other.getByText(`We sent an invitation to ${email} if it is the address of a Circle 55 member who is not going yet.`)).toBeVisible()
  await other.context().close()
  const hosted = await publishedActivity(setup, { title: 'Book circle', capacity: 6 })
  await setup.context().close()

  const scanners: Scanner[] = []
  // With JavaScript on (the widgets) and off (see a11y.spec.ts).
  for (const jsOff of [false, true]) {
    const context = await newVisitor(browser)
    if (jsOff) await context.route('**/*.js', (route) => route.abort())
    const page = await context.newPage()
    await signInOverHttp(context, email)
    const s = new Scanner(page, 'en', `signed in, JS ${jsOff ? 'off' : 'on'}`)
    scanners.push(s)

    await s.visit('/activities?date=any-day&distance=50&q=Portland')
    await s.visit('/activities?date=today&distance=2&q=Juneau%2C+AK')
    if (!jsOff) {
      await page.locator('input[name="q"]').fill('portl')
      await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible()
      await s.scan('/activities with city suggestions open')
    }

    await s.visit(`/activities/${attendable}`)
    await page.locator('#fee-consent').check()
    await page.locator('form:has(input[name="intent"][value="attend"]) button[type="submit"]').click()
    await expect(page.locator('form:has(input[name="intent"][value="cancel"])')).toBeVisible()
    await s.scan('activity: attending, starts within 12 hours')
    await s.visit(`/activities/${attendable}/report`)
    await page.locator('form:has(#details) button[type="submit"]').click()
    await expect(page.locator('.error-summary')).toBeVisible()
    await s.scan('report with errors')
    await s.visit(`/activities/${attendable}?confirm=cancel`)
    await page.locator('form:has(input[name="confirmed"]) button[type="submit"]').click()
    await expect(page.locator('form:has(input[name="intent"][value="attend"])')).toBeVisible()

    await s.visit(`/activities/${invitedTo}`)
    await expect(page.locator('form:has(input[name="intent"][value="accept-invitation"])')).toBeVisible()
    await s.visit(`/activities/${hosted}`)
    await s.visit(`/activities/${hosted}?confirm=cancel-activity`)
    await s.visit(`/activities/${hosted}/edit`)
    await s.visit(`/duplicate-activity?from=${hosted}`)
    await s.visit('/create-activity')
    // The hours read the way the language tells time.
    await expect(page.locator('#startHour option[value="14"]')).toHaveText('2 PM')
    await submitWithoutNativeValidation(page, '#title')
    await expect(page.locator('#title')).toHaveAttribute('aria-invalid', 'true')
    await s.scan('/create-activity with errors')
    await s.visit('/attending')
    await s.visit('/attending?type=past')
    await s.visit('/attending?hosting=true')
    await context.close()

    const anonymous = await newVisitor(browser)
    if (jsOff) await anonymous.route('**/*.js', (route) => route.abort())
    const visitor = new Scanner(await anonymous.newPage(), 'en', `signed out, JS ${jsOff ? 'off' : 'on'}`)
    scanners.push(visitor)
    await visitor.visit(`/activities/${attendable}`)
    await visitor.visit('/activities')
    await anonymous.close()
  }
  const [first, ...rest] = scanners
  for (const s of rest) first!.found.push(...s.found)
  first!.report()
})
