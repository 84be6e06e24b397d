import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { readableHtml } from '#tests/web-document.ts'
import * as activity from './$id.tsx'
import * as report from './$id_.report.tsx'
import { routePages } from '#tests/route-pages.ts'

/** Reporting an activity (issue 14 §4, decision 041) as a browser without JavaScript does it, over the real API and PostgreSQL. */
const pages = routePages([
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
  { id: 'routes/activities+/$id_.report', path: 'activities/:id/report', module: report as never },
])
const { page, text } = pages

async function member(first: string, last: string) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

const isBlocked = async (blocker: { token: string }, blockedId: string) =>
  ((await pages.web.api.request('GET', `v1/block/${blockedId}`, { token: blocker.token })).json as { is_blocked: boolean }).is_blocked

describe('/activities/{id}/report', () => {
  it('offers to block the host in the same step, names them, and blocks them with the report', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await createExperience(pages.database.db, host.user.id, { title: 'Riverside walk' })
    const form = await text(`/activities/${experience.id}/report`, ann.cookie)
    expect(form).toContain('<label for="block">Also block the host, Walter B.</label>')
    expect(form).toContain('Walter B. is not told.')
    expect(await htmlProblems(form.replace('<link rel="stylesheet" href=""/>', '<link rel="stylesheet" href="/assets/app.css"/>'))).toEqual([])

    // A missing reason: the page again, with what the member chose and wrote still there.
    const empty = await page(`/activities/${experience.id}/report`, ann.cookie, { method: 'POST', body: new URLSearchParams({ details: 'Asked for money up front', block: 'on' }) })
    expect(empty.status).toBe(400)
    const emptyHtml = readableHtml(await empty.text())
    expect(emptyHtml).toContain('Please choose a reason.')
    expect(emptyHtml).toContain('Asked for money up front')
    expect(emptyHtml).toMatch(/<input id="block" type="checkbox" name="block"[^>]* checked=""/)
    expect(await isBlocked(ann, host.user.id)).toBe(false)

    const sent = await page(`/activities/${experience.id}/report`, ann.cookie, {
      method: 'POST',
      body: new URLSearchParams({ reason: 'fake_or_scam', details: 'Asked for money up front', block: 'on' }),
    })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe(`/activities/${experience.id}`)
    expect(await isBlocked(ann, host.user.id)).toBe(true)
    const stored = await pages.database.db.selectFrom('reports').selectAll().where('experience_id', '=', experience.id).execute()
    expect(stored).toMatchObject([{ reporter_id: ann.user.id, reported_user_id: host.user.id, reason: 'fake_or_scam', details: 'Asked for money up front' }])

    // The activity page thanks the member and says the host is blocked.
    const toast = (sent.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    expect(await text(`/activities/${experience.id}`, `${ann.cookie}; ${toast}`)).toContain('Thank you. Our team will look at your report, and you have blocked the host.')
  })

  it('reports without blocking when the box is left empty; offers nothing to block on one’s own activity', async () => {
    const [ann, host] = [await member('Ann', 'Lee'), await member('Walter', 'Brooks')]
    const experience = await createExperience(pages.database.db, host.user.id)
    const sent = await page(`/activities/${experience.id}/report`, ann.cookie, { method: 'POST', body: new URLSearchParams({ reason: 'low_quality_or_spam' }) })
    expect(sent.status).toBe(302)
    expect(await isBlocked(ann, host.user.id)).toBe(false)
    const toast = (sent.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    expect(await text(`/activities/${experience.id}`, `${ann.cookie}; ${toast}`)).toContain('Thank you. Our team will look at your report.')

    const own = await text(`/activities/${experience.id}/report`, host.cookie)
    expect(own).toContain('Report this activity')
    expect(own).not.toContain('Also block')
  })
})
