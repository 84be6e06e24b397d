import { JSDOM } from 'jsdom'
import { describe, expect, it } from 'vitest'
import { weekStarts } from '#api/dashboards/service.ts'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as analytics from './analytics.tsx'
import * as adminHome from './_index.tsx'

/**
 * `/admin/analytics` without JavaScript (issue 32 §5, decision 082): the team's charts, each an
 * SVG image named by its caption with its numbers in a table; every team role reads it, members
 * get the API's 403; never kept by a cache.
 */
const pages = routePages([
  { id: 'routes/admin+/analytics', path: 'admin/analytics', module: analytics as never },
  { id: 'routes/admin+/_index', path: 'admin', module: adminHome as never },
])

const long = new Date(Date.now() - 400 * 86_400_000)
const weeks = weekStarts(new Date(), 12)
const wednesday = (index: number, hour = 12) => new Date(Date.parse(`${weeks[index]}T00:00:00Z`) + 2 * 86_400_000 + hour * 3_600_000)

/** A figure's table as rows of cells, and its SVG image's accessible name. */
function figure(html: string, id: string) {
  const { document } = new JSDOM(html).window
  const element = document.getElementById(id)
  if (!element) throw new Error(`no figure ${id}`)
  const svg = element.querySelector('svg[role="img"]')
  return {
    caption: element.querySelector('figcaption')?.textContent,
    name: svg?.getAttribute('aria-labelledby')?.split(' ').map((name) => document.getElementById(name)?.textContent).join(' '),
    rows: [...element.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent)),
  }
}

describe('/admin/analytics', () => {
  it('shows the team the weeks in charts with their tables: sign-ups, who came, reports', async () => {
    const db = pages.database.db
    const admin = await createUser(db, { staff_role: 'admin', created_at: long })
    const host = await createUser(db, { created_at: long })
    for (const hour of [9, 10, 11, 12]) await createUser(db, { created_at: wednesday(10, hour), onboarding_step: hour === 9 ? 'done' : 'location' })
    const walk = await createExperience(db, host.id, { start_at: wednesday(9), created_at: wednesday(8), attendance_confirmed_at: wednesday(9, 15) })
    for (const present of [true, true, true, false]) {
      const attendee = await createUser(db, { created_at: long })
      await db.insertInto('experience_attendees').values({ experience_id: walk.id, user_id: attendee.id }).execute()
      await db.insertInto('attendance_marks').values({ experience_id: walk.id, user_id: attendee.id, present, marked_by: host.id }).execute()
    }
    await db.insertInto('reports').values({ reporter_id: admin.id, reported_user_id: host.id, reason: 'something_else', created_at: wednesday(9) }).execute()

    const cookie = await pages.web.signedInCookie(admin.id)
    const { response, html } = await pages.get('/admin/analytics', cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await validationOf(html)).toEqual([])
    expect(html).toContain('<h1>Circle 55 in numbers</h1>')

    const signUps = figure(html, 'sign-ups')
    expect(signUps.caption).toBe('Sign-ups by week')
    const day = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${weeks[10]}T00:00:00Z`))
    expect(signUps.name).toBe(`Sign-ups by week Signed up: highest 4, week of ${day}.`)
    expect(signUps.rows.map(([, count]) => count)).toEqual(['0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '4', '0'])
    expect(signUps.rows.at(-1)?.[0]).toBe('this week, so far')

    const onboarding = figure(html, 'onboarding')
    expect(onboarding.rows).toEqual([
      ['Signed up', '4'],
      ['Reached home city', '4'],
      ['Reached notifications', '1'],
      ['Reached profile photo', '1'],
      ['Reached premium', '1'],
      ['Reached identity check', '1'],
      ['Reached Medicare calls', '1'],
      ['Finished', '1'],
    ])
    expect(figure(html, 'attendance').rows[9]?.slice(1)).toEqual(['3', '1'])
    expect(figure(html, 'no-show-rate').rows[9]?.[1]).toBe('25%')
    expect(figure(html, 'reports').rows[9]?.slice(1)).toEqual(['1', '0'])
    expect(figure(html, 'response-time').rows[9]?.[1]).toBe('not shown')
    expect(html).toContain('1 report waits for the team now.')
    // No seat came from a notify list: the chart says so instead of drawing nothing.
    expect(figure(html, 'notify-list-fills').name).toBeUndefined()
    expect(html).toContain('<p id="notify-list-fills-summary" class="chart__summary">Nothing to show for these weeks yet.</p>')

    // The start page leads there; another team role reads it too, in French.
    expect(await pages.text('/admin', cookie)).toContain('href="/admin/analytics"')
    const finance = await createUser(db, { staff_role: 'finance', locale: 'fr' })
    const french = await pages.text('/admin/analytics', await pages.web.signedInCookie(finance.id))
    expect(french).toContain('Circle 55 en chiffres')
    expect(figure(french, 'no-show-rate').rows[9]?.[1]).toBe('25 %')
  })

  it('is the API’s 403 for a member', async () => {
    const member = await createUser(pages.database.db)
    expect((await pages.get('/admin/analytics', await pages.web.signedInCookie(member.id))).response.status).toBe(403)
  })
})
