import { JSDOM } from 'jsdom'
import { describe, expect, it } from 'vitest'
import { weekStarts } from '#api/dashboards/service.ts'
import { hostNumbersFlag } from '#contract/dashboards.ts'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { changeFlag } from '#tests/flags.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as attending from './attending.tsx'
import * as numbers from './attending_.numbers.tsx'

/**
 * A host sees their dashboard (issue 32 §5, decision 082): My activities (hosting) says the
 * totals in words and leads to `/attending/numbers`, where each week is a chart with its table.
 * Small counts of "did not come" and of ratings are not shown; another member sees only their own.
 */
const pages = routePages([
  { id: 'routes/attending', path: 'attending', module: attending as never },
  { id: 'routes/attending_.numbers', path: 'attending/numbers', module: numbers as never },
])

const long = new Date(Date.now() - 400 * 86_400_000)
const weeks = weekStarts(new Date(), 12)
/** Wednesday of week `index`, noon UTC: the same week in Portland. */
const wednesday = (index: number) => new Date(Date.parse(`${weeks[index]}T00:00:00Z`) + 2 * 86_400_000 + 12 * 3_600_000)

function tableOf(html: string, id: string) {
  const { document } = new JSDOM(html).window
  const figure = document.getElementById(id)
  if (!figure) throw new Error(`no figure ${id}`)
  expect(figure.querySelector('svg[role="img"]')?.getAttribute('aria-labelledby')).toBe(`${id}-caption ${id}-summary`)
  return [...figure.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))
}

function totalsOf(html: string) {
  const { document } = new JSDOM(html).window
  return [...document.querySelectorAll('dl.dashboard-totals dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent])
}

describe('a host’s activities in numbers', () => {
  it('Walter sees his weeks: places booked and who came, “did not come” and ratings under 5 not shown', async () => {
    const db = pages.database.db
    const walter = await createUser(db, { first_name: 'Walter', last_name: 'Brooks', created_at: long })
    // Week 9: a walk, 8 seats, the host marked 2 who did not come; 3 ratings.
    const walk = await createExperience(db, walter.id, { title: 'Riverside walk', start_at: wednesday(9), attendance_confirmed_at: wednesday(9) })
    // Week 10: a book club, 6 seats, 5 ratings (4.6 on average).
    const club = await createExperience(db, walter.id, { title: 'Book club', start_at: wednesday(10) })
    const seat = async (experienceId: string, options: { present?: boolean; rating?: number } = {}) => {
      const attendee = await createUser(db, { created_at: long })
      await db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: attendee.id }).execute()
      if (options.present !== undefined) await db.insertInto('attendance_marks').values({ experience_id: experienceId, user_id: attendee.id, present: options.present, marked_by: walter.id }).execute()
      if (options.rating) await db.insertInto('surveys').values({ user_id: attendee.id, type: 'POST_EXPERIENCE_SURVEY', experience_id: experienceId, attended: true, rating: options.rating }).execute()
    }
    for (const present of [false, false, true, true, true]) await seat(walk.id, { present })
    for (const rating of [5, 4, 4]) await seat(walk.id, { rating })
    for (const rating of [4, 5, 5, 4, 5]) await seat(club.id, { rating })
    await seat(club.id)

    const cookie = await pages.web.signedInCookie(walter.id)
    // My activities, hosting: the totals in words and the way to the charts.
    const hosting = await pages.text('/attending?hosting=true', cookie)
    expect(hosting).toContain('<h2 id="hosting-numbers">Your activities in numbers</h2>')
    expect(hosting).toContain('href="/attending/numbers"')
    expect(totalsOf(hosting)).toEqual([
      ['Activities held', '2'],
      ['Places booked', '14'],
      ['People who came', '12'],
      // 8 ratings in all, 3 of them in a week not shown: no total that would tell that week's.
      ['Average rating', 'Not enough ratings yet to show an average'],
    ])
    expect(await validationOf(hosting)).toEqual([])

    const { response, html } = await pages.get('/attending/numbers', cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await validationOf(html)).toEqual([])
    expect(html).toContain('<h1>Your activities in numbers</h1>')
    expect(totalsOf(html)).toContainEqual(['Did not come', 'fewer than 5'])

    const none = ['0', '0']
    expect(tableOf(html, 'hosting-attendance')).toEqual([...Array(9).fill(none), ['8', '6'], ['6', '6'], none])
    expect(tableOf(html, 'hosting-did-not-come').slice(8)).toEqual([['0'], ['fewer than 5'], ['0'], ['0']])
    expect(tableOf(html, 'hosting-rating').slice(8)).toEqual([['fewer than 5'], ['fewer than 5'], ['4.6'], ['fewer than 5']])
    expect(html).toContain('Dashed outline: fewer than 5, not shown exactly')
    // Nobody is named, and "did not come" is said without blame.
    expect(html).toContain('Plans change: this is not a score.')
    for (const title of ['Riverside walk', 'Book club']) expect(html).not.toContain(title)
  })

  it('shows another member none of it: their own, and here they have none', async () => {
    const margaret = await createUser(pages.database.db, { first_name: 'Margaret' })
    const cookie = await pages.web.signedInCookie(margaret.id)
    expect(await pages.text('/attending/numbers', cookie)).toContain('None of your activities took place in these weeks yet.')
    expect(await pages.text('/attending?hosting=true', cookie)).not.toContain('hosting-numbers')
    expect(await pages.text('/attending', cookie)).not.toContain('hosting-numbers')
  })

  it('with the host-numbers flag off for hosts, shows neither the summary nor the page, and the API answers 404', async () => {
    const db = pages.database.db
    const host = await createUser(db, { first_name: 'Walter', created_at: long })
    await createExperience(db, host.id, { title: 'Riverside walk', start_at: wednesday(10) })
    const cookie = await pages.web.signedInCookie(host.id)
    expect(await pages.text('/attending?hosting=true', cookie)).toContain('hosting-numbers')
    const restore = await changeFlag(pages.web.api, hostNumbersFlag, { enabled: false })
    try {
      // The list stands, without the numbers.
      const hosting = await pages.get('/attending?type=past&hosting=true', cookie)
      expect(hosting.response.status).toBe(200)
      expect(hosting.html).toContain('Riverside walk')
      expect(hosting.html).not.toContain('hosting-numbers')
      expect((await pages.get('/attending/numbers', cookie)).response.status).toBe(404)
      const api = await pages.web.api.request('GET', 'v1/users/me/hosting/dashboard', { token: await pages.web.api.signToken(host.id) })
      expect(api.status).toBe(404)
    } finally {
      await restore()
    }
    expect((await pages.get('/attending/numbers', cookie)).response.status).toBe(200)
  })
})
