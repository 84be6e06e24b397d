import type { Browser } from '@playwright/test'
import { demoPassword, flash, member } from './activity-helpers.ts'
import { Scanner, submitWithoutNativeValidation } from './axe.ts'
import { expect, languages, newVisitor, signIn, switchLanguage, test } from './helpers.ts'

/**
 * The post-activity survey without JavaScript (issue 15 §6, decision 046): an attendee of an
 * activity that has ended sees "Did you go?" on the home page, answers Yes, rates it 4 stars with
 * the keyboard and leaves a comment; the host sees the average and the comment. axe on the survey
 * page in en, fr and nl, errors included. The seed's survey activity (api/db/seed.ts `surveyDemo`):
 * member185 hosts, members 186–188 attended; demo members 185–189 are used by no other spec.
 */
const activityTitle = 'Afternoon tea in the rose garden'
const surveyPath = '/activities/0e5e0c46-7d1a-4b6e-9c55-000000000185/survey'

/** axe needs JavaScript in the page: the app's own scripts are refused instead, as without JavaScript. */
async function scanningPage(browser: Browser, email: string) {
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signIn(page, email, demoPassword)
  return page
}

test('an attendee answers the survey from the banner and the host sees the rating and the comment', async ({ browser }) => {
  test.setTimeout(180_000)
  const attendee = await member(browser, 'member186@demo.test')
  await attendee.goto('/')
  const banner = attendee.getByRole('region', { name: `Did you go to “${activityTitle}”?` })
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: 'Yes, I went' }).click()
  await expect(attendee).toHaveURL(/\/activities\/[0-9a-f-]{36}\/survey$/)
  await expect(attendee.getByRole('heading', { level: 1, name: `How was “${activityTitle}”?` })).toBeVisible()
  const activityPath = attendee.url().replace(/\/survey$/, '').replace(/^https?:\/\/[^/]+/, '')

  // Five radio buttons in a group named "Your rating": 5 stars by default, 4 with one arrow key.
  const rating = attendee.getByRole('group', { name: 'Your rating' })
  await expect(rating.getByRole('radio', { name: '5 stars' })).toBeChecked()
  await rating.getByRole('radio', { name: '5 stars' }).focus()
  await attendee.keyboard.press('ArrowLeft')
  await expect(rating.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await attendee.getByLabel('A few words for the host (optional)').fill('Lovely company and the best scones in town.')
  await attendee.getByRole('button', { name: 'Send my answer' }).click()
  await expect(flash(attendee)).toHaveText('Thank you! Your answer has been sent to the host.')
  await attendee.goto('/')
  await expect(attendee.getByText(`Did you go to “${activityTitle}”?`)).toHaveCount(0)
  await attendee.context().close()

  const host = await member(browser, 'member185@demo.test')
  await host.goto(activityPath)
  const results = host.getByRole('region', { name: 'What attendees said' })
  await expect(results.getByText('Average rating: 4 out of 5 · 1 rating')).toBeVisible()
  await expect(results.getByText('Lovely company and the best scones in town.')).toBeVisible()
  await host.context().close()
})

test('accessibility of the survey page in en, fr and nl, errors included', async ({ browser }) => {
  test.setTimeout(240_000)
  const page = await scanningPage(browser, 'member187@demo.test')
  const found: Scanner['found'] = []
  try {
    for (const lng of languages) {
      await page.goto('/')
      if ((await page.locator('html').getAttribute('lang')) !== lng) await switchLanguage(page, lng)
      const scan = new Scanner(page, lng, `survey, ${lng}`)
      await expect(page.getByRole('region', { name: new RegExp(activityTitle) })).toBeVisible()
      await scan.scan('/ (the survey banner)')
      await scan.visit(surveyPath)
      await page.locator('#feedback').fill('x'.repeat(1001))
      await submitWithoutNativeValidation(page, '#feedback')
      await scan.scan(`${surveyPath} (errors)`)
      found.push(...scan.found)
    }
  } finally {
    await page.goto('/account')
    if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')
    await page.context().close()
  }
  const report = new Scanner(page, 'en', 'survey in en, fr and nl')
  report.found.push(...found)
  report.report()
})
