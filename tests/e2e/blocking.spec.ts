import type { Browser, Page } from '@playwright/test'
import { activityWithAttendee, flash, freshPair, member } from './activity-helpers.ts'
import { publishedActivity } from './factories.ts'
import { Scanner } from './axe.ts'
import { baseURL, expect, newVisitor, signInOverHttp, test } from './helpers.ts'

/**
 * Blocking without JavaScript (issue 14 §4, decision 034): a member blocks another from their
 * profile, both see what it changes, and the member unblocks; axe on the block page and
 * `/messenger/new` in English (French and Dutch in the page catalogue). Demo members 110 and 111
 * are used by no other spec; the scan's members are fresh.
 */

/** The activity's group, opened the way the activity page's button will (as messenger.spec.ts does). */
async function openGroup(page: Page, id: string) {
  const response = await page.request.post('/messenger/new', { form: { experience_id: id }, headers: { Origin: baseURL }, maxRedirects: 0 })
  expect(response.status()).toBe(302)
  await page.goto(response.headers().location ?? '')
}

async function send(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.locator('.message').last()).toContainText(text)
}

/** On the activity page (its host's view), the first attendee's profile link: its address and the name shown. */
async function attendeeProfile(page: Page, id: string) {
  await page.goto(`/activities/${id}`)
  const link = page.locator('.attendee-list a[href^="/p/"]:not([href*="/block"])').first()
  return { path: (await link.getAttribute('href')) ?? '', name: ((await link.textContent()) ?? '').trim() }
}

test.describe('without JavaScript', () => {
  test('a member blocks another from their profile, both see the effects, then unblocks', async ({ browser }) => {
    test.setTimeout(180_000)
    const ann = await member(browser, 'member110@demo.test')
    const id = await publishedActivity(ann, { title: 'Morning tai chi' })
    const bob = await member(browser, 'member111@demo.test')
    await bob.goto(`/activities/${id}`)
    await bob.getByRole('button', { name: 'Save my seat' }).click()
    await expect(flash(bob)).toHaveText('Your seat is saved.')

    // Ann writes to Bob from his profile; Bob accepts and answers, and writes in the activity's group.
    const bobProfile = await attendeeProfile(ann, id)
    await ann.goto(bobProfile.path)
    await ann.getByRole('button', { name: 'Message' }).click()
    await expect(ann).toHaveURL(/\/messenger\?channel=[\w-]+$/)
    const direct = new URL(ann.url()).pathname + new URL(ann.url()).search
    await send(ann, 'Hello Bob, shall we walk together?')
    await bob.goto(direct)
    await bob.getByRole('button', { name: 'Accept' }).click()
    await send(bob, 'Gladly!')
    const annProfile = (await bob.locator('.channel a[href^="/p/"]').first().getAttribute('href')) ?? ''
    await openGroup(bob, id)
    await send(bob, 'Is anyone bringing tea?')
    await openGroup(ann, id)
    await expect(ann.locator('.messages').getByText('Is anyone bringing tea?')).toBeVisible()

    // Ann blocks Bob from his profile: a page that says what will happen.
    await ann.goto(bobProfile.path)
    await ann.getByRole('link', { name: `Block ${bobProfile.name}` }).click()
    await expect(ann.getByRole('heading', { level: 1, name: `Block ${bobProfile.name}?` })).toBeVisible()
    await expect(ann.getByText('Neither of you can send the other a message.')).toBeVisible()
    await expect(ann.getByText(`${bobProfile.name} is not told that you blocked them.`)).toBeVisible()
    await ann.getByRole('button', { name: `Block ${bobProfile.name}` }).click()
    await expect(flash(ann)).toHaveText('You blocked this member.')
    // Back on the profile (by its slug: the attendee list links by id).
    await expect(ann).toHaveURL(/\/p\/[\w-]+$/)
    await expect(ann.getByRole('link', { name: `Unblock ${bobProfile.name}` })).toBeVisible()
    await expect(ann.getByRole('button', { name: 'Message' })).toHaveCount(0)

    // Ann: the conversation closed; Bob's messages in the group hidden, with a way to show them.
    await ann.goto(direct)
    await expect(ann.getByText('You can no longer write to each other in this conversation.')).toBeVisible()
    await expect(ann.getByLabel('Your message')).toHaveCount(0)
    await openGroup(ann, id)
    await expect(ann.getByText('Is anyone bringing tea?')).toHaveCount(0)
    await expect(ann.getByText('1 message from someone you blocked is hidden')).toBeVisible()
    await ann.getByRole('link', { name: 'Show it' }).click()
    await expect(ann.locator('.message--blocked')).toContainText('Is anyone bringing tea?')
    await expect(ann.locator('.message--blocked')).toContainText('From someone you blocked')

    // Bob cannot message Ann, and is not told why: her profile is not there, the conversation is "not available".
    await bob.goto(direct)
    await expect(bob.getByText('This member’s account is not available, so you cannot write to them.')).toBeVisible()
    await expect(bob.getByLabel('Your message')).toHaveCount(0)
    await expect(bob.locator('main')).not.toContainText(/block/i)
    const gone = await bob.goto(annProfile)
    expect(gone?.status()).toBe(404)

    // Ann unblocks: the page says what unblocking does.
    await ann.goto(bobProfile.path)
    await ann.getByRole('link', { name: `Unblock ${bobProfile.name}` }).click()
    await expect(ann.getByText('You can write to each other again, and your private conversation opens again.')).toBeVisible()
    await ann.getByRole('button', { name: `Unblock ${bobProfile.name}` }).click()
    await expect(flash(ann)).toHaveText('You unblocked this member.')
    await expect(ann.getByRole('link', { name: `Block ${bobProfile.name}` })).toBeVisible()
    await openGroup(ann, id)
    await expect(ann.locator('.messages').getByText('Is anyone bringing tea?')).toBeVisible()
    await bob.goto(direct)
    await expect(bob.getByLabel('Your message')).toBeVisible()
    await ann.context().close()
    await bob.context().close()
  })
})

/** A member to block: the seat-holder of a new activity hosted by `hostEmail`, as the host sees them. */
async function someoneToBlock(browser: Browser, hostEmail: string, attendeeEmail: string, title: string) {
  const { host, attendee, id } = await activityWithAttendee(browser, hostEmail, attendeeEmail, title)
  const profile = await attendeeProfile(host, id)
  await host.context().close()
  await attendee.context().close()
  return profile.path
}

/**
 * axe in English, JavaScript off (the page's own scripts blocked, as in messenger.spec.ts). French
 * and Dutch, the same markup with other words, are checked for their wording over the same page
 * states in the catalogue (app/routes/page-catalogue.test.ts).
 */
test('accessibility in en: the block and unblock pages, /messenger/new', async ({ browser }) => {
  test.setTimeout(240_000)
  const { hostEmail, attendeeEmail } = await freshPair({ first_name: 'Rosa', last_name: 'Delgado' }, { first_name: 'Joost', last_name: 'de Vries' })
  const profile = await someoneToBlock(browser, hostEmail, attendeeEmail, 'Chess')
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signInOverHttp(context, hostEmail)
  const s = new Scanner(page, 'en', 'the host, JS off')
  await s.visit(`${profile}/block`)
  await page.locator('button[name="intent"][value="block"]').click()
  await expect(flash(page)).toBeVisible()
  await s.visit(`${profile}/block`)
  await page.locator('button[name="intent"][value="unblock"]').click()
  await expect(flash(page)).toBeVisible()
  await s.visit('/messenger/new')
  await s.visit('/messenger/new?name=zzz')
  await context.close()
  s.report()
})
