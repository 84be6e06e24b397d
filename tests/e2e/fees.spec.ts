import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { assessFees, chargeDueFees } from '../../api/fees/service.ts'
import { createLogger } from '../../api/logger.ts'
import { createNotifier } from '../../api/notifications/service.ts'
import { createBuiltinPayments } from '../../api/providers/payments/builtin.ts'
import { createExperience } from '../factories.ts'
import { flash, member } from './activity-helpers.ts'
import { db, freshMember, savedCard, signedInPage } from './factories.ts'
import { baseURL, expect, test, untilHydrated } from './helpers.ts'

/**
 * The no-show fee (issue 31 §3, decision 075), moving only by links and buttons from the first
 * page. Without JavaScript on a desktop: a member with a saved card agrees to the $15 fee next to
 * "Save my seat" (the box left unticked is refused first), the host marks them "Did not come",
 * they are told a day later, say it is wrong from "My fees", and the team waives it with a reason
 * (refused without one). With JavaScript on a phone: the seat saved with the box ticked, the fee
 * charged two days after the notice, the receipt among the notifications and in "My fees"; and a
 * card whose bank wants the member to confirm: "Pay $15 now" from the notice, the hosted page,
 * "Yes, it's me", and back on "My fees" with the thanks.
 * The days between the steps pass in the database: each test builds its scene there (an activity
 * in three days, a Visa •••• 4242 the built-in bank charges), moves the activity's start and the
 * host's confirmation into the past, and runs the fee sweep's steps (`assessFees`, `chargeDueFees`)
 * itself against the server's database, with the real notifier, so the notices show on the pages.
 * The sweep's steps take every due fee in the database: the two tests run one after the other.
 */
test.describe.configure({ mode: 'default' })

const phone = { width: 390, height: 844 }
const HOUR = 3_600_000
const consentText = 'I agree to a $15 fee if I cancel less than 12 hours before the start or do not come. It would be charged to Visa •••• 4242, and I would be told first.'


/** The fee sweep's steps as the server runs them: the real notifier (its deliveries not queued) and the built-in bank. */
function feeDeps() {
  return {
    db: db(),
    notify: createNotifier({ db: db(), queue: { send: async () => {} } }),
    payments: createBuiltinPayments({ db: db(), publicUrl: baseURL }),
    logger: createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'development' }),
  }
}

/** A host's activity in three days with a $15 no-show fee, and a member with a saved card who has not saved a seat yet. */
async function feeScene(guest: { first_name: string; last_name: string }, last4 = '4242') {
  const title = `Morning walk by the river ${randomBytes(3).toString('hex')}`
  const host = await freshMember({ first_name: 'Walter', last_name: 'Brooks' })
  const attendee = await freshMember(guest)
  await savedCard(attendee.id, last4)
  const start = new Date(Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR)
  const experience = await createExperience(db(), host.id, { title, no_show_fee_cents: 1500, max_attendees: 10, start_at: start, end_at: new Date(start.getTime() + 2 * HOUR) })
  return { host, attendee, id: experience.id, title }
}

/** The activity has happened: it began an hour and a half ago. */
async function happened(id: string) {
  await db()
    .updateTable('experiences')
    .set({ start_at: new Date(Date.now() - 90 * 60_000), end_at: new Date(Date.now() - 30 * 60_000) })
    .where('id', '=', id)
    .execute()
}

/** A day has passed since the host said who came. */
async function aDayAfterTheHostsList(id: string) {
  await db().updateTable('experiences').set({ attendance_confirmed_at: new Date(Date.now() - 25 * HOUR) }).where('id', '=', id).execute()
}

/** A link of the site's navigation (the header, or the bar at the bottom on a phone). */
function navLink(page: Page, name: RegExp) {
  return page.locator('header nav, nav.bottom-nav').getByRole('link', { name }).filter({ visible: true }).first()
}

/** From any page: Account, then "My fees". */
async function openMyFees(page: Page) {
  await navLink(page, /^Account/).click()
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible()
  await page.getByRole('link', { name: 'My fees' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'My fees' })).toBeVisible()
}

/** From any page: the notifications, the newest first. */
async function openNotifications(page: Page) {
  await navLink(page, /^Notifications/).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
}

test('without JavaScript: the box to tick, the host’s “Did not come”, the notice, “This is wrong”, and the team waives it with a reason', async ({ browser }) => {
  const scene = await feeScene({ first_name: 'Dorothy', last_name: 'Kowalski' })
  const page = await member(browser, scene.attendee.email)
  await page.goto(`/activities/${scene.id}`)
  await expect(page.getByRole('heading', { level: 1, name: scene.title })).toBeVisible()
  await expect(page.getByText('This activity has a $15 no-show fee: it is charged only if you cancel less than 12 hours before the start or do not come, and you are always told first.')).toBeVisible()

  // The box starts unticked; saving without it, the page says what to do in the member's language.
  const consent = page.getByLabel(consentText)
  await expect(consent).not.toBeChecked()
  await page.getByRole('button', { name: 'Save my seat' }).click()
  await expect(page.getByRole('alert')).toContainText('Tick the box to agree to the no-show fee before saving your seat.')
  await expect(page.getByLabel(consentText)).not.toBeChecked()
  await page.getByLabel(consentText).check()
  await page.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(page)).toHaveText('Your seat is saved.')
  await expect(page.getByText('You are going. See you there!')).toBeVisible()

  // The activity happens; the host says who came.
  await happened(scene.id)
  const host = await signedInPage(browser, scene.host.email)
  await host.goto(`/activities/${scene.id}`)
  await host.getByRole('link', { name: 'Say who came' }).click()
  await expect(host.getByRole('heading', { level: 1, name: 'Who came?' })).toBeVisible()
  const dorothy = host.getByRole('group', { name: 'Dorothy K. — agreed to the $15 fee' })
  await expect(dorothy.getByRole('radio', { name: 'Came' })).not.toBeChecked()
  await expect(dorothy.getByRole('radio', { name: 'Did not come' })).not.toBeChecked()
  await dorothy.getByRole('radio', { name: 'Did not come' }).check()
  await host.getByRole('button', { name: 'Save who came' }).click()
  await expect(flash(host)).toHaveText('Thank you. Who came is saved.')
  await host.context().close()

  // A day later the fees are worked out: the member is told before anything is charged.
  await aDayAfterTheHostsList(scene.id)
  await assessFees(feeDeps())
  await openNotifications(page)
  const notice = page.locator('.notification-list > li').filter({ hasText: scene.title }).first()
  await expect(notice).toContainText(`A $15 no-show fee for “${scene.title}”`)
  await expect(notice).toContainText(/You will be charged \$15 on \w+ \d{1,2}, \d{4} — tell us if this is wrong\./)

  // "This is wrong", with a few words.
  await openMyFees(page)
  const fee = page.getByTestId('fee').filter({ hasText: scene.title })
  await expect(fee).toContainText('$15: the host marked you as not there.')
  await expect(fee).toContainText(/To be charged on \w+ \d{1,2}, \d{4}, unless you tell us it is wrong\./)
  await fee.getByLabel('What went wrong? (optional)').fill('I was there, I arrived a little late.')
  await fee.getByRole('button', { name: 'This is wrong: do not charge me yet' }).click()
  await expect(flash(page)).toHaveText('Thank you. We will look at it before anything is charged, and tell you what we decide.')
  await expect(page.getByTestId('fee').filter({ hasText: scene.title })).toContainText(
    'You told us it is wrong. Someone on the Circle 55 team is looking at it; nothing is charged meanwhile.',
  )
  await expect(page.getByRole('button', { name: 'This is wrong: do not charge me yet' })).toHaveCount(0)

  // The team reads what the member said and waives it, a reason required.
  const admin = await signedInPage(browser, (await freshMember({ staff_role: 'admin', first_name: 'Diane' })).email)
  await admin.goto('/admin')
  await admin.getByRole('link', { name: 'Payments and fees' }).click()
  await expect(admin.getByRole('heading', { level: 1, name: 'Payments and fees' })).toBeVisible()
  const queued = admin.getByTestId('team-fee').filter({ hasText: scene.title })
  await expect(queued).toContainText(`Dorothy Kowalski (${scene.attendee.email})`)
  await expect(queued.locator('blockquote')).toHaveText('I was there, I arrived a little late.')
  await expect(queued.getByRole('button', { name: 'Charge it after all' })).toBeVisible()
  await queued.getByRole('button', { name: 'Waive this fee' }).click()
  await expect(admin.getByTestId('team-fee').filter({ hasText: scene.title }).getByRole('alert')).toHaveText('Write why the fee is waived: it is recorded.')
  const again = admin.getByTestId('team-fee').filter({ hasText: scene.title })
  await again.getByLabel('Reason for waiving (recorded)').fill('The host confirmed she arrived late.')
  await again.getByRole('button', { name: 'Waive this fee' }).click()
  await expect(flash(admin)).toHaveText('The fee is waived and the member is told.')
  await expect(admin.getByTestId('team-fee').filter({ hasText: scene.title })).toContainText('No fee: the Circle 55 team dropped it.')
  await expect(admin.getByTestId('team-fee').filter({ hasText: scene.title }).getByRole('button')).toHaveCount(0)
  await admin.context().close()

  await openMyFees(page)
  await expect(page.getByTestId('fee').filter({ hasText: scene.title })).toContainText('No fee: the Circle 55 team dropped it.')
  await page.context().close()
})

test('with JavaScript on a phone: the seat saved with the box ticked, and two days after the notice the receipt', async ({ browser }) => {
  const scene = await feeScene({ first_name: 'Harold', last_name: 'Nguyen' })
  const page = await member(browser, scene.attendee.email, { js: true, viewport: phone })
  await page.goto(`/activities/${scene.id}`)
  await expect(page.getByRole('heading', { level: 1, name: scene.title })).toBeVisible()
  await untilHydrated(page, '#fee-consent')
  await expect(page.getByLabel(consentText)).not.toBeChecked()
  await page.getByLabel(consentText).check()
  await page.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(page)).toHaveText('Your seat is saved.')
  await expect(page.getByText('You are going. See you there!')).toBeVisible()

  // The activity happens, the host marks the member absent (their page is the other test's),
  // a day passes, the fees are worked out, and two days after the notice the card is charged.
  await happened(scene.id)
  await db().insertInto('attendance_marks').values({ experience_id: scene.id, user_id: scene.attendee.id, present: false, marked_by: scene.host.id }).execute()
  await aDayAfterTheHostsList(scene.id)
  await assessFees(feeDeps())
  await chargeDueFees(feeDeps(), new Date(Date.now() + 80 * HOUR))

  await openNotifications(page)
  const receipt = page.locator('.notification-list > li').filter({ hasText: 'Receipt: $15 no-show fee' }).first()
  await expect(receipt).toContainText(`We charged $15 to Visa •••• 4242 for “${scene.title}” (the host marked you as not there).`)
  await openMyFees(page)
  const fee = page.getByTestId('fee').filter({ hasText: scene.title })
  await expect(fee).toContainText('$15: the host marked you as not there.')
  await expect(fee).toContainText(/Charged on \w+ \d{1,2}, \d{4} to Visa •••• 4242\. A receipt was emailed to you\./)
  await expect(fee.getByRole('button')).toHaveCount(0)
  await page.context().close()
})

test('with JavaScript: the bank wants the member to confirm, so they pay it themselves from the notice', async ({ browser }) => {
  const scene = await feeScene({ first_name: 'Margarethe', last_name: 'Van den Berghe-Lefèvre' }, '3184')
  await db().insertInto('experience_attendees').values({ experience_id: scene.id, user_id: scene.attendee.id, fee_consent_id: await agreed(scene) }).execute()
  await happened(scene.id)
  await db().insertInto('attendance_marks').values({ experience_id: scene.id, user_id: scene.attendee.id, present: false, marked_by: scene.host.id }).execute()
  await aDayAfterTheHostsList(scene.id)
  await assessFees(feeDeps())
  await chargeDueFees(feeDeps(), new Date(Date.now() + 80 * HOUR))

  const page = await member(browser, scene.attendee.email, { js: true })
  await page.goto('/')
  await untilHydrated(page, 'header nav')
  await openNotifications(page)
  const asked = page.locator('.notification-list > li').filter({ hasText: 'Your bank did not let us charge a fee' }).first()
  await expect(asked).toContainText('You can pay it on your fees page.')
  await asked.getByRole('button').first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'My fees' })).toBeVisible()
  const fee = page.getByTestId('fee').filter({ hasText: scene.title })
  await expect(fee).toContainText('Your bank wants you to confirm this payment yourself: you can pay it now.')
  await fee.getByRole('button', { name: 'Pay $15 now' }).click()

  // The payment page (the built-in provider's, standing in for Stripe Checkout).
  await expect(page.getByRole('heading', { level: 1, name: 'Pay by card' })).toBeVisible()
  await page.getByLabel('Card number').fill('4000 0027 6000 3184')
  await page.getByLabel('Expiry date').fill('12/40')
  await page.getByLabel('Security code').fill('123')
  await page.getByLabel('ZIP code').fill('97201')
  await page.getByRole('button', { name: 'Pay $15' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your bank asks you to confirm' })).toBeVisible()
  await expect(page.getByText('Your bank wants to make sure it is you who is paying with Visa •••• 3184.')).toBeVisible()
  await page.getByRole('button', { name: 'Yes, it’s me' }).click()

  await expect(page.getByRole('heading', { level: 1, name: 'My fees' })).toBeVisible()
  await expect(page.getByTestId('fee-paid')).toHaveText('Thank you: the fee is paid. A receipt was emailed to you.')
  await expect(fee).toContainText(/Charged on \w+ \d{1,2}, \d{4} to Visa •••• 3184\./)
  await expect(fee.getByRole('button')).toHaveCount(0)
  await page.context().close()
})

/** The member agreed to the fee with their card, as "Save my seat" records it (the other tests walk that box). */
async function agreed(scene: Awaited<ReturnType<typeof feeScene>>) {
  const card = await db().selectFrom('payment_methods').select('id').where('user_id', '=', scene.attendee.id).executeTakeFirstOrThrow()
  const consent = await db()
    .insertInto('fee_consents')
    .values({ user_id: scene.attendee.id, experience_id: scene.id, amount_cents: 1500, policy_version: 'e2e', text_shown: consentText, language: 'en', payment_method_id: card.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  return consent.id
}
