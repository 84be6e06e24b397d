import { flash } from './activity-helpers.ts'
import { signedInPage, surveyScene } from './factories.ts'
import { Scanner, submitWithoutNativeValidation, scanningPage } from './axe.ts'
import { expect, test, untilHydrated } from './helpers.ts'

/**
 * The post-activity survey without JavaScript (issue 15 §6, decision 046): an attendee of an
 * activity that has ended sees "Did you go?" on the home page, answers Yes, rates it 4 stars with
 * the keyboard and leaves a comment; the host sees the average and the comment. axe on the survey
 * page in English, errors included (French and Dutch in the page catalogue). With JavaScript (issue 29 §4) the sentence saying which
 * rating will be sent follows the choice, and the page after sending says what was recorded.
 * Each test has its own activity that ended two hours ago (`surveyScene`).
 */
const activityTitle = 'Afternoon tea in the rose garden'

test('an attendee answers the survey from the banner and the host sees the rating and the comment', async ({ browser }) => {
  test.setTimeout(180_000)
  const scene = await surveyScene(activityTitle)
  const surveyPath = `/activities/${scene.id}/survey`
  const attendee = await signedInPage(browser, scene.attendee.email)
  await attendee.goto('/')
  const banner = attendee.getByRole('region', { name: `Did you go to “${activityTitle}”?` })
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: 'Yes, I went' }).click()
  await expect(attendee).toHaveURL(/\/activities\/[0-9a-f-]{36}\/survey$/)
  await expect(attendee.getByRole('heading', { level: 1, name: `How was “${activityTitle}”?` })).toBeVisible()
  const activityPath = attendee.url().replace(/\/survey$/, '').replace(/^https?:\/\/[^/]+/, '')

  // Five radio buttons in a group named "Your rating": 5 stars by default, 4 with one arrow key.
  // The page says plainly which rating will be sent, without JavaScript too (issue 29 §4).
  const rating = attendee.getByRole('group', { name: 'Your rating' })
  await expect(rating.getByRole('radio', { name: '5 stars' })).toBeChecked()
  await expect(rating.getByText('You are giving 5 stars out of 5.')).toBeVisible()
  await rating.getByRole('radio', { name: '5 stars' }).focus()
  await attendee.keyboard.press('ArrowLeft')
  await expect(rating.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await expect(rating.getByText('You are giving 4 stars out of 5.')).toBeVisible()
  await expect(rating.getByText('You are giving 5 stars out of 5.')).toBeHidden()
  await attendee.getByLabel('A few words for the host (optional)').fill('Lovely company and the best scones in town.')
  await attendee.getByRole('button', { name: 'Send my answer' }).click()
  await expect(flash(attendee)).toHaveText('You gave this activity 4 stars, and your words were sent to the host. Thank you.')
  await attendee.goto('/')
  await expect(attendee.getByText(`Did you go to “${activityTitle}”?`)).toHaveCount(0)
  // Reopened, the survey shows the member's own answer, not 5.
  await attendee.goto(surveyPath)
  await expect(attendee.getByText('You already gave this activity 4 stars.')).toBeVisible()
  await expect(rating.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await expect(rating.getByText('You are giving 4 stars out of 5.')).toBeVisible()
  await expect(attendee.getByLabel('A few words for the host (optional)')).toHaveValue('Lovely company and the best scones in town.')
  await attendee.context().close()

  const host = await signedInPage(browser, scene.host.email)
  await host.goto(activityPath)
  const results = host.getByRole('region', { name: 'What attendees said' })
  await expect(results.getByText('Average rating: 4 out of 5 · 1 rating')).toBeVisible()
  await expect(results.getByText('Lovely company and the best scones in town.')).toBeVisible()
  await host.context().close()
})

test('with JavaScript: the rating to be sent follows the member’s choice, and what was recorded is said after sending', async ({ browser }) => {
  test.setTimeout(180_000)
  const scene = await surveyScene(activityTitle)
  const surveyPath = `/activities/${scene.id}/survey`
  const attendee = await signedInPage(browser, scene.attendee.email, { js: true })
  await attendee.goto('/')
  await untilHydrated(attendee, 'main')
  const banner = attendee.getByRole('region', { name: `Did you go to “${activityTitle}”?` })
  await banner.getByRole('button', { name: 'Yes, I went' }).click()
  await expect(attendee).toHaveURL(new RegExp(`${surveyPath}$`))
  const rating = attendee.getByRole('group', { name: 'Your rating' })
  const summary = attendee.locator('#rating-summary')
  await expect(summary).toHaveText('You are giving 5 stars out of 5.')
  await rating.getByText('3 stars').click()
  await expect(rating.getByRole('radio', { name: '3 stars' })).toBeChecked()
  await expect(summary).toHaveText('You are giving 3 stars out of 5.')
  await attendee.getByRole('button', { name: 'Send my answer' }).click()
  await expect(flash(attendee)).toHaveText('You gave this activity 3 stars. Thank you.')
  await expect(attendee.locator('.toast-region')).toContainText('You gave this activity 3 stars. Thank you.')

  // Back to the survey: the member's own 3, not 5.
  await attendee.goto(surveyPath)
  await untilHydrated(attendee, '#rating-3')
  await expect(rating.getByRole('radio', { name: '3 stars' })).toBeChecked()
  await expect(summary).toHaveText('You are giving 3 stars out of 5.')
  await attendee.context().close()
})

test('accessibility of the survey page in en, errors included', async ({ browser }) => {
  // French and Dutch, the same markup with other words: their wording is checked over the same
  // states in the catalogue (app/routes/page-catalogue.test.ts), the banner on Home included.
  const scene = await surveyScene(activityTitle)
  const surveyPath = `/activities/${scene.id}/survey`
  const page = await scanningPage(browser, scene.attendee.email)
  const scan = new Scanner(page, 'en', 'survey')
  try {
    await page.goto('/')
    await expect(page.getByRole('region', { name: new RegExp(activityTitle) })).toBeVisible()
    await scan.scan('/ (the survey banner)')
    await scan.visit(surveyPath)
    await page.locator('#feedback').fill('x'.repeat(1001))
    await submitWithoutNativeValidation(page, '#feedback')
    await scan.scan(`${surveyPath} (errors)`)
  } finally {
    await page.context().close()
  }
  scan.report()
})
