import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { readableHtml } from '#tests/web-document.ts'
import * as home from '../_index.tsx'
import * as activity from './$id.tsx'
import * as survey from './$id_.survey.tsx'
import { routePages } from '#tests/route-pages.ts'

/** The post-activity survey (issue 15 §6, decision 046) as a browser without JavaScript answers it, over the real API and PostgreSQL. */
const pages = routePages([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
  { id: 'routes/activities+/$id_.survey', path: 'activities/:id/survey', module: survey as never },
])
const { page, text } = pages

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  page(path, cookie, { method: 'POST', body: new URLSearchParams(fields) })
const toastOf = (response: Response) =>
  (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''

async function member(first: string, last: string) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

/** An activity of `host` that ended an hour ago, with `attendees` seated. */
async function endedActivity(hostId: string, attendees: string[], title = 'Riverside walk') {
  const experience = await createExperience(pages.database.db, hostId, {
    title,
    start_at: new Date(Date.now() - 3 * 3_600_000),
  })
  for (const userId of attendees)
    await pages.database.db
      .insertInto('experience_attendees')
      .values({ experience_id: experience.id, user_id: userId })
      .execute()
  return experience
}

describe('the "Did you go?" banner', () => {
  it('asks an attendee on the home page; "Yes" leads to the rating, and the banner is gone', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await endedActivity(host.user.id, [ann.user.id], 'Garden tea')
    const homeHtml = await text('/', ann.cookie)
    expect(homeHtml).toContain('Did you go to “Garden tea”?')
    expect(homeHtml).toContain(`action="/activities/${experience.id}/survey"`)
    expect(homeHtml).toMatch(
      /<button type="submit" name="intent" value="attended"[^>]*>Yes, I went<\/button>/,
    )
    expect(await text('/', host.cookie)).not.toContain('Did you go to')

    const yes = await post(`/activities/${experience.id}/survey`, ann.cookie, {
      intent: 'attended',
    })
    expect(yes.status).toBe(302)
    expect(yes.headers.get('location')).toBe(`/activities/${experience.id}/survey`)
    expect(await text('/', ann.cookie)).not.toContain('Did you go to')
    const stored = await pages.database.db
      .selectFrom('surveys')
      .select(['type', 'attended'])
      .where('user_id', '=', ann.user.id)
      .execute()
    expect(stored).toEqual([{ type: 'EXPERIENCE_ATTENDANCE_SURVEY', attended: true }])
  })

  it('"Not now" stops it for good; "No" records that the member did not go', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const first = await endedActivity(host.user.id, [ann.user.id], 'Garden tea')
    const dismissed = await post(`/activities/${first.id}/survey`, ann.cookie, {
      intent: 'dismiss',
    })
    expect(dismissed.headers.get('location')).toBe('/')
    expect(await text('/', `${ann.cookie}; ${toastOf(dismissed)}`)).toContain(
      'All right, we will not ask about this activity again.',
    )
    expect(await text('/', ann.cookie)).not.toContain('Did you go to')

    const second = await endedActivity(host.user.id, [ann.user.id], 'Book club')
    expect(await text('/', ann.cookie)).toContain('Did you go to “Book club”?')
    const no = await post(`/activities/${second.id}/survey`, ann.cookie, { intent: 'not-attended' })
    expect(no.headers.get('location')).toBe('/')
    const answer = await pages.database.db
      .selectFrom('surveys')
      .select('attended')
      .where('user_id', '=', ann.user.id)
      .where('experience_id', '=', second.id)
      .execute()
    expect(answer).toEqual([{ attended: false }])

    expect(
      (await post(`/activities/${second.id}/survey`, ann.cookie, { intent: 'delete-everything' }))
        .status,
    ).toBe(400)
  })
})

describe('/activities/{id}/survey', () => {
  it('rates with five labelled radio buttons (5 by default), keeps what was typed on an error, and the host sees it', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await endedActivity(host.user.id, [ann.user.id])
    const form = await text(`/activities/${experience.id}/survey`, ann.cookie)
    expect(form).toContain('<legend>Your rating</legend>')
    expect(form).toMatch(/<input id="rating-5" type="radio" name="rating" checked="" value="5"\/>/)
    expect(form).toContain('<span class="star-rating__text">4 stars</span>')
    expect(form).toContain('<span class="star-rating__text">1 star</span>')
    expect(
      await htmlProblems(
        form.replace(
          '<link rel="stylesheet" href=""/>',
          '<link rel="stylesheet" href="/assets/app.css"/>',
        ),
      ),
    ).toEqual([])

    const tooLong = await post(`/activities/${experience.id}/survey`, ann.cookie, {
      rating: '4',
      feedback: 'x'.repeat(1001),
    })
    expect(tooLong.status).toBe(400)
    const tooLongHtml = readableHtml(await tooLong.text())
    expect(tooLongHtml).toContain('Please shorten your words to 1,000 characters or fewer.')
    expect(tooLongHtml).toMatch(
      /<input id="rating-4" type="radio" name="rating" checked="" value="4"\/>/,
    )
    expect(tooLongHtml).toContain('x'.repeat(1001))

    const sent = await post(`/activities/${experience.id}/survey`, ann.cookie, {
      rating: '4',
      feedback: 'Lovely walk, thank you!',
    })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe(`/activities/${experience.id}`)
    // What was recorded, in words.
    expect(await text(`/activities/${experience.id}`, `${ann.cookie}; ${toastOf(sent)}`)).toContain(
      'You gave this activity 4 stars, and your words were sent to the host. Thank you.',
    )

    const hostView = await text(`/activities/${experience.id}`, host.cookie)
    expect(hostView).toContain('What attendees said')
    expect(hostView).toContain('Average rating: 4 out of 5 · 1 rating')
    expect(hostView).toContain('Lovely walk, thank you!')
    expect(hostView).not.toMatch(/Ann L\.[^<]*<\/p>\s*<\/li>/)
    // Attendees do not see the results.
    expect(await text(`/activities/${experience.id}`, ann.cookie)).not.toContain(
      'What attendees said',
    )
  })

  it('says plainly which rating will be sent: the 5 chosen to start with, and each other one without JavaScript', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await endedActivity(host.user.id, [ann.user.id])
    const form = await text(`/activities/${experience.id}/survey`, ann.cookie)
    // Without JavaScript all five sentences are in the page and the stylesheet shows the one of
    // the checked star (app.css "Star rating"); the checked one is 5.
    expect(form).toContain('id="rating-summary"')
    for (const [count, sentence] of [
      [5, 'You are giving 5 stars out of 5.'],
      [4, 'You are giving 4 stars out of 5.'],
      [1, 'You are giving 1 star out of 5.'],
    ] as const)
      expect(form).toContain(`<span class="star-rating__giving star-rating__giving--${count}">${sentence}</span>`)
    expect(form).toMatch(/<button type="submit" class="button" aria-describedby="rating-summary">Send my answer<\/button>/)
  })

  it('says what was recorded after sending, and reopens on the member’s own answer, not on 5', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await endedActivity(host.user.id, [ann.user.id])
    const sent = await post(`/activities/${experience.id}/survey`, ann.cookie, { rating: '2' })
    expect(sent.status).toBe(302)
    expect(await text(`/activities/${experience.id}`, `${ann.cookie}; ${toastOf(sent)}`)).toContain(
      'You gave this activity 2 stars. Thank you.',
    )

    const again = await text(`/activities/${experience.id}/survey`, ann.cookie)
    expect(again).toMatch(/<input id="rating-2" type="radio" name="rating" checked="" value="2"\/>/)
    expect(again).not.toMatch(/<input id="rating-5" type="radio" name="rating" checked=""/)
    expect(again).toContain('You already gave this activity 2 stars. You can change your answer below and send it again.')

    // Changed, with words: the page reopens on both.
    await post(`/activities/${experience.id}/survey`, ann.cookie, { rating: '3', feedback: 'A bit rushed.' })
    const third = await text(`/activities/${experience.id}/survey`, ann.cookie)
    expect(third).toMatch(/<input id="rating-3" type="radio" name="rating" checked="" value="3"\/>/)
    expect(third).toMatch(/<textarea[^>]*id="feedback"[^>]*>A bit rushed\.<\/textarea>/)

    // A form sent with no star at all is recorded as 5 (spec §9), and the member is told so.
    const plain = await endedActivity(host.user.id, [ann.user.id], 'Book club')
    const untouched = await post(`/activities/${plain.id}/survey`, ann.cookie, {})
    expect(await text(`/activities/${plain.id}`, `${ann.cookie}; ${toastOf(untouched)}`)).toContain(
      'You gave this activity 5 stars. Thank you.',
    )
  })

  it('answers 403 to someone who did not attend', async () => {
    const [bea, host] = [await member('Bea', 'Stone'), await member('Walter', 'Brooks')]
    const experience = await endedActivity(host.user.id, [])
    expect((await page(`/activities/${experience.id}/survey`, bea.cookie)).status).toBe(403)
    expect(
      (await post(`/activities/${experience.id}/survey`, bea.cookie, { rating: '5' })).status,
    ).toBe(403)
    expect(
      (await post(`/activities/${experience.id}/survey`, bea.cookie, { intent: 'attended' }))
        .status,
    ).toBe(403)
  })
})
