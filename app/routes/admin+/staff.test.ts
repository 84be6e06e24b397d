import { describe, expect, it } from 'vitest'
import type { StaffRole } from '#contract/staff.ts'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as adminHome from './_index.tsx'
import * as staff from './staff.tsx'

/**
 * The team's pages without JavaScript (issue 32 §1, decision 077): `/admin` shows each role its own
 * tools with what waits in them, and an admin gives, changes and takes back roles at `/admin/staff`.
 */
const pages = routePages([
  { id: 'routes/admin+/_index', path: 'admin', module: adminHome as never },
  { id: 'routes/admin+/staff', path: 'admin/staff', module: staff as never },
])
const { get, post, text } = pages

async function person(first: string, last: string, role: StaffRole | null = null, email?: string) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, staff_role: role, ...(email ? { email } : {}) })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

describe('/admin', () => {
  it('shows a moderator reports and identity checks with their counts, finance its fees and partners, and members a 404', async () => {
    const moderator = await person('Maud', 'Lefèvre', 'moderator')
    const home = await text('/admin', moderator.cookie)
    expect(home).toContain('Your role: Moderator.')
    expect(home).toContain('href="/admin/reports">Reports</a>')
    expect(home).toContain('href="/admin/verifications">Identity checks</a>')
    expect(home).not.toContain('href="/admin/payments"')
    expect(home).not.toContain('href="/admin/staff"')
    expect(home).toMatch(/Nothing waiting\.|\d+ reports? to handle/)
    // The header takes every team member there.
    expect(home).toContain('href="/admin">Team</a>')
    expect(await validationOf(home)).toEqual([])

    const finance = await text('/admin', (await person('Femi', 'Adeyemi', 'finance')).cookie)
    expect(finance).toContain('href="/admin/payments">Payments and fees</a>')
    expect(finance).toContain('href="/admin/partners"')
    expect(finance).not.toContain('href="/admin/reports"')

    const member = await person('Marge', 'Kowalski')
    expect((await get('/admin', member.cookie)).response.status).toBe(404)
    expect((await get('/admin/staff', member.cookie)).response.status).toBe(403)
  })
})

describe('/admin/staff', () => {
  it('an admin adds a member by email, changes the role and takes it back; mistakes are said next to the field', async () => {
    const admin = await person('Diane', 'Okafor', 'admin')
    const newcomer = await person('Sinéad', 'Ní Bhriain-Vandenberghe', null, 'sinead@example.com')
    const page = await text('/admin/staff', admin.cookie)
    expect(page).toContain('Moderator')
    expect(page).toContain('Reports, suspensions and identity checks.')
    expect(page).toContain('This is you: ask another admin to change your role.')
    expect(await validationOf(page)).toEqual([])

    const unknown = await post('/admin/staff', admin.cookie, { intent: 'add', email: 'nobody@example.com', role: 'support' })
    expect(unknown.response.status).toBe(422)
    expect(unknown.html).toContain('No member has this email address.')
    expect(unknown.html).toContain('value="nobody@example.com"')

    const added = await post('/admin/staff', admin.cookie, { intent: 'add', email: 'sinead@example.com', role: 'support' })
    expect(added.response.headers.get('location')).toBe('/admin/staff')
    const listed = await text('/admin/staff', admin.cookie)
    expect(listed).toContain('Sinéad Ní Bhriain-Vandenberghe (sinead@example.com)')
    expect(await text('/admin', newcomer.cookie)).toContain('Your role: Support.')

    await post('/admin/staff', admin.cookie, { intent: 'change', id: newcomer.user.id, role: 'finance' })
    expect(await text('/admin', newcomer.cookie)).toContain('Your role: Finance.')
    const removed = await post('/admin/staff', admin.cookie, { intent: 'remove', id: newcomer.user.id, role: 'finance' })
    expect(removed.response.headers.get('location')).toBe('/admin/staff')
    expect((await get('/admin', newcomer.cookie)).response.status).toBe(404)
  })
})
