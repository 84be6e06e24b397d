import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as explorePage from './_index.tsx'

/**
 * Issue 29 §4: Explore says which days a date filter covers, offers the next days when nothing
 * is left, and takes the member to the results after a search (without JavaScript, the form's
 * address ends with #results). As a browser without JavaScript gets it, over the real API.
 */
const pages = routePages([{ id: 'routes/activities+/_index', path: 'activities', module: explorePage as never }], { navigation: true })
const { text } = pages

const weekday = String.raw`(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}`
const shown = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, '')
const words = (html: string) => shown(html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('Explore’s date filters', () => {
  it('"This week" says the days it covers (to Sunday), and when nothing is left offers next week', async () => {
    const member = await createUser(pages.database.db)
    const cookie = await pages.web.signedInCookie(member.id)
    // Nobody hosts anything in this file's database: this week is empty, whatever day it is.
    const html = await text('/activities?date=this-week&distance=25&place=us-or-portland', cookie)
    expect(words(html)).toMatch(new RegExp(`This week: (${weekday} – )?Sun, \\w{3} \\d{1,2}`))
    expect(words(html)).toContain('Nothing left this week')
    expect(html).toContain('href="/activities?date=next-week&distance=25&place=us-or-portland#results">See next week</a>')
    expect(await validationOf(html)).toEqual([])
  })

  it('"Today" names the day; nothing left today offers tomorrow; "Any day" names no range', async () => {
    const html = await text('/activities?date=today&distance=25&place=us-or-portland', '')
    expect(words(html)).toMatch(new RegExp(`Today: ${weekday}\\b`))
    expect(words(html)).toContain('Nothing left today')
    expect(html).toContain('href="/activities?date=tomorrow&distance=25&place=us-or-portland#results">See tomorrow</a>')
    const any = words(await text('/activities?date=any-day&distance=25&place=us-or-portland', ''))
    expect(any).not.toMatch(new RegExp(`Any day: ${weekday}`))
  })

  it('lists what the range holds, without the "nothing left" offer', async () => {
    const host = await createUser(pages.database.db)
    await createExperience(pages.database.db, host.id, { title: 'Tomorrow’s walk', start_at: new Date(Date.now() + 30 * 3_600_000) })
    const html = await text('/activities?date=any-day&distance=25&place=us-or-portland', '')
    expect(html).toContain('Tomorrow’s walk')
    expect(words(html)).not.toContain('Nothing left')
  })
})

describe('after a search without JavaScript', () => {
  it('the page opens at the results: the form’s address ends with #results, which the results heading carries', async () => {
    const html = await text('/activities?q=Portland%2C+OR&date=any-day&distance=25', '')
    expect(html).toMatch(/<form method="get" action="\/activities#results"[^>]*class="filters"/)
    expect(html).toMatch(/<h2 id="results" tabindex="-1"[^>]*>[^<]*activit(y|ies) near Portland, OR/)
    // Paging keeps the member at the results too.
    expect(await validationOf(html)).toEqual([])
  })
})
