import { JSDOM } from 'jsdom'
import { describe, expect, it } from 'vitest'
import type { StaffRole } from '#contract/staff.ts'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as audit from './audit.tsx'
import * as adminHome from './_index.tsx'
import * as member from './members_.$id.tsx'

/**
 * `/admin/audit` without JavaScript (issue 32 §2, decision 089): after a support agent viewed
 * Circle 55 as a member and changed her city for her, an admin reads who did it and as whom; the
 * filter form goes round as a plain GET; a member's admin page links to what the team did on her
 * account; older rows are a link away; and only admins read it (the API's 403 for anyone else).
 */
const pages = routePages([
  { id: 'routes/admin+/audit', path: 'admin/audit', module: audit as never },
  { id: 'routes/admin+/_index', path: 'admin', module: adminHome as never },
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: member as never },
])

async function person(first: string, last: string, role: StaffRole | null = null) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, staff_role: role, last_sign_in_at: new Date() })
  const token = await pages.web.api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => pages.web.api.request(method, path, { token, headers, ...(body === undefined ? {} : { body }) })
  return { user, call, cookie: await pages.web.signedInCookie(user.id) }
}

/** The log's table as rows of cell texts, and its caption, headers and filter choices. */
function table(html: string) {
  const { document } = new JSDOM(html).window
  // Each element's text apart from the next (a term from its value), as a screen reader reads them.
  const cells = (row: Element) => [...row.children].map((cell) => cell.innerHTML.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim())
  return {
    caption: document.querySelector('table caption')?.textContent,
    headers: [...document.querySelectorAll('thead th')].map((cell) => cell.textContent),
    rows: [...document.querySelectorAll('tbody tr')].map(cells),
    selected: (id: string) => document.querySelector<HTMLSelectElement>(`select#${id}`)?.value,
    document,
  }
}

describe('/admin/audit', () => {
  it('shows an admin who did what as whom, filters with a plain GET form, and links from a member’s admin page', async () => {
    const admin = await person('Diane', 'Okafor', 'admin')
    const sam = await person('Sam', 'Rivera', 'support')
    const margaret = await person('Margaret', 'Kowalczyk')
    const started = await sam.call('POST', `v1/admin/users/${margaret.user.id}/impersonation`, { reason: 'She says her city is wrong.' })
    const as = { 'x-impersonation': started.json.data[0].id as string }
    expect((await sam.call('POST', 'v1/impersonation/acting', { reason: 'She asked me to change it.' }, as)).status).toBe(200)
    expect((await sam.call('PUT', 'v1/users/me', { city: 'Salem' }, as)).status).toBe(200)
    expect((await sam.call('DELETE', 'v1/impersonation', undefined, as)).status).toBe(204)

    const { response, html } = await pages.get('/admin/audit', admin.cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await validationOf(html)).toEqual([])
    const log = table(html)
    expect(log.caption).toBe('What the team did, newest first')
    expect(log.headers).toEqual(['When', 'Who', 'As whom', 'What', 'Details'])
    const mine = log.rows.filter((row) => row[1] === 'Sam R.')
    expect(mine.map((row) => row.slice(1, 4))).toEqual([
      ['Sam R.', '—', 'Viewing as a member impersonation.stop About: Margaret K.'],
      ['Sam R.', 'Margaret K.', 'Viewing as a member impersonation.call About: request PUT /v1/users/me'],
      ['Sam R.', '—', 'Viewing as a member impersonation.acting About: Margaret K.'],
      ['Sam R.', '—', 'Viewing as a member impersonation.start About: Margaret K.'],
    ])
    expect(mine[1]![4]).toMatch(/^impersonation_id [0-9a-f-]{36} status 200$/)
    expect(mine[3]![4]).toBe('reason She says her city is wrong.')
    expect(html).toContain('<code class="audit-log__line">impersonation.call</code>')

    // The filter form: a plain GET, its choices kept in the page it answers.
    const form = log.document.querySelector('form[method="get"]')!
    expect(form.getAttribute('action')).toBe('/admin/audit')
    expect([...form.querySelectorAll('select')].map((select) => select.name)).toEqual(['staff', 'kind'])
    expect([...form.querySelectorAll('#staff option')].map((option) => option.textContent)).toEqual(expect.arrayContaining(['Anyone', 'Diane Okafor', 'Sam Rivera']))
    const filtered = await pages.text(`/admin/audit?${new URLSearchParams({ staff: sam.user.id, kind: 'impersonation' })}`, admin.cookie)
    const picked = table(filtered)
    expect(picked.selected('staff')).toBe(sam.user.id)
    expect(picked.selected('kind')).toBe('impersonation')
    expect(picked.rows).toHaveLength(4)
    const none = await pages.text(`/admin/audit?${new URLSearchParams({ staff: sam.user.id, kind: 'fee' })}`, admin.cookie)
    expect(none).toContain('Nothing is recorded for these filters.')
    expect(none).not.toContain('<table')
    expect(await validationOf(none)).toEqual([])

    // From the member's admin page (admins only): everything the team did on her account.
    const memberPage = await pages.text(`/admin/members/${margaret.user.id}`, admin.cookie)
    expect(memberPage).toContain(`<a data-discover="true" href="/admin/audit?member=${margaret.user.id}">Everything the team did on this account</a>`)
    expect(await pages.text(`/admin/members/${margaret.user.id}`, sam.cookie)).not.toContain('/admin/audit')
    const about = await pages.text(`/admin/audit?member=${margaret.user.id}`, admin.cookie)
    expect(about).toContain('Only rows about Margaret K. are shown.')
    expect(about).toContain(`<input type="hidden" name="member" value="${margaret.user.id}"/>`)
    expect(table(about).rows.map((row) => row[3]?.split(' ').find((word) => word.includes('.')))).toEqual(['impersonation.stop', 'impersonation.call', 'impersonation.acting', 'impersonation.start'])
    expect(await validationOf(about)).toEqual([])

    // The start page lists the log for admins only.
    expect(await pages.text('/admin', admin.cookie)).toContain('href="/admin/audit"')
    expect(await pages.text('/admin', sam.cookie)).not.toContain('href="/admin/audit"')
  })

  it('pages to older rows and back to the newest', async () => {
    const admin = await person('Diane', 'Okafor', 'admin')
    const busy = await person('Bea', 'Cole', 'admin')
    await pages.database.db
      .insertInto('audit_log')
      .values(Array.from({ length: 55 }, (_, index) => ({ actor_id: busy.user.id, action: 'flag.save', target_type: 'feature_flag', target_id: `flag-${index}`, data: JSON.stringify({ n: index }) })))
      .execute()
    const first = await pages.text(`/admin/audit?staff=${busy.user.id}`, admin.cookie)
    expect(table(first).rows).toHaveLength(50)
    const older = table(first).document.querySelector('a[rel="next"]')?.getAttribute('href')
    expect(table(first).document.querySelector('a[rel="next"]')?.textContent).toBe('Older')
    expect(older).toMatch(new RegExp(`^/admin/audit\\?staff=${busy.user.id}&before=\\d+$`))
    const second = await pages.text(older!, admin.cookie)
    expect(table(second).rows.map((row) => row[3])).toEqual(['Feature flags flag.save About: feature_flag flag-4', 'Feature flags flag.save About: feature_flag flag-3', 'Feature flags flag.save About: feature_flag flag-2', 'Feature flags flag.save About: feature_flag flag-1', 'Feature flags flag.save About: feature_flag flag-0'])
    expect(second).not.toContain('rel="next"')
    expect(second).toContain(`<a data-discover="true" href="/admin/audit?staff=${busy.user.id}">Back to the newest</a>`)
    expect(await validationOf(second)).toEqual([])
  })

  it('is the API’s 403 for the rest of the team and for members', async () => {
    for (const role of ['moderator', 'support', 'finance', null] as const) {
      const someone = await person('Ruth', 'Owens', role)
      expect((await pages.get('/admin/audit', someone.cookie)).response.status, String(role)).toBe(403)
    }
  })
})
