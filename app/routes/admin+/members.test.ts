import { describe, expect, it } from 'vitest'
import type { StaffRole } from '#contract/staff.ts'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as account from '../account+/_index.tsx'
import * as accountEmail from '../account+/email.tsx'
import * as accountFees from '../account+/fees.tsx'
import * as accountPayments from '../account+/payments.tsx'
import * as accountPhone from '../account+/phone.tsx'
import * as accountSubscription from '../account+/subscription.tsx'
import * as accountVerification from '../account+/verification.tsx'
import * as editSection from '../account+/edit_.$section.tsx'
import * as home from '../_index.tsx'
import * as impersonation from '../impersonation.tsx'
import * as members from './members.tsx'
import * as member from './members_.$id.tsx'

/**
 * Viewing Circle 55 as a member without JavaScript (issue 32 §2, decision 078): the team finds the
 * member, starts with a reason, every page carries the banner, a change is refused next to the
 * form, and "Stop" brings the staff member back to the member's admin page; the member is told.
 */
const pages = routePages([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/admin+/members', path: 'admin/members', module: members as never },
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: member as never },
  { id: 'routes/impersonation', path: 'impersonation', module: impersonation as never },
  { id: 'routes/account+/edit_.$section', path: 'account/edit/:section', module: editSection as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/account+/email', path: 'account/email', module: accountEmail as never },
  { id: 'routes/account+/phone', path: 'account/phone', module: accountPhone as never },
  { id: 'routes/account+/payments', path: 'account/payments', module: accountPayments as never },
  { id: 'routes/account+/fees', path: 'account/fees', module: accountFees as never },
  { id: 'routes/account+/subscription', path: 'account/subscription', module: accountSubscription as never },
  { id: 'routes/account+/verification', path: 'account/verification', module: accountVerification as never },
])
const { get, post, text } = pages

async function person(first: string, last: string, role: StaffRole | null = null, overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, staff_role: role, last_sign_in_at: new Date(), ...overrides })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

describe('viewing Circle 55 as a member, without JavaScript', () => {
  it('finds the member, starts with a reason, shows the banner on every page, refuses a change, and stops', async () => {
    const support = await person('Sam', 'Rivera', 'support')
    const margaret = await person('Margaret', 'Kowalczyk-Nørgaard', null, { email: 'margaret.kn@example.com' })
    const found = await text('/admin/members?q=Kowalczyk', support.cookie)
    expect(found).toContain(`href="/admin/members/${margaret.user.id}">Margaret Kowalczyk-Nørgaard</a>`)
    expect(await validationOf(found)).toEqual([])
    const page = await text(`/admin/members/${margaret.user.id}`, support.cookie)
    expect(page).toContain('View Circle 55 as Margaret K.')
    expect(await validationOf(page)).toEqual([])

    const noReason = await post(`/admin/members/${margaret.user.id}`, support.cookie, { reason: ' ' })
    expect(noReason.response.status).toBe(400)
    expect(noReason.html).toContain('Write why you need to view Circle 55 as them')
    const started = await post(`/admin/members/${margaret.user.id}`, support.cookie, { reason: 'She says her activities page is empty.' })
    expect(started.response.headers.get('location')).toBe('/')

    const viewed = await text('/', support.cookie)
    expect(viewed).toContain('You are viewing Circle 55 as Margaret K.')
    expect(viewed.indexOf('data-testid="impersonation-banner"')).toBeLessThan(viewed.indexOf('class="skip-link"'))
    expect(await validationOf(viewed)).toEqual([])
    // What only the member may do is not offered: their email, phone, cards, sign-in, deleting the account.
    const theirAccount = await text('/account', support.cookie)
    expect(theirAccount).toContain('their email, phone, cards, sign-in and account deletion are left out')
    for (const href of ['/account/email', '/account/phone', '/account/payments', '/account?confirm=delete']) expect(theirAccount).not.toContain(`href="${href}"`)
    // Reached by an address all the same, those pages say so and offer no control (the API refuses them anyway).
    for (const path of ['/account/email', '/account/phone', '/account/payments', '/account/fees', '/account/subscription', '/account/verification']) {
      const shown = await text(path, support.cookie)
      expect(shown, path).toContain('Only the member can do this. It is left out while viewing Circle 55 as them.')
      expect(shown.match(/<form method="post"(?! action="\/(logout|impersonation|api\/localize)")/g), path).toBeNull()
      expect(await validationOf(shown), path).toEqual([])
    }
    const refused = await post('/account/edit/name', support.cookie, { intent: 'name', firstName: 'Maggie', lastName: 'K' })
    expect(refused.html).toContain('This cannot be done while viewing Circle 55 as a member.')
    expect(await text('/impersonation', support.cookie)).toContain('She says her activities page is empty.')

    const stopped = await post('/impersonation', support.cookie, { intent: 'stop' })
    expect(stopped.response.headers.get('location')).toBe(`/admin/members/${margaret.user.id}`)
    const back = await text(`/admin/members/${margaret.user.id}`, support.cookie)
    expect(back).not.toContain('impersonation-banner')
    // The team's own record of it, on the member's admin page.
    expect(back).toContain('When the team viewed Circle 55 as this member')
    expect(back).toMatch(/Sam R\., [A-Z][a-z]+ \d{1,2}, \d{4}.*: “She says her activities page is empty\.”\./)
    expect(await validationOf(back)).toEqual([])
    const told = await pages.database.db.selectFrom('notifications').select('type').where('user_id', '=', margaret.user.id).execute()
    expect(told).toEqual([{ type: 'account.viewed' }])
  })

  it('sends a staff member who signed in long ago through sign-in again, keeping the reason', async () => {
    const admin = await person('Diane', 'Okafor', 'admin', { last_sign_in_at: new Date(Date.now() - 60 * 60_000) })
    const ruth = await person('Ruth', 'Owens')
    const answer = await post(`/admin/members/${ruth.user.id}`, admin.cookie, { reason: 'Checking a report about her page' })
    const location = answer.response.headers.get('location') ?? ''
    expect(location.startsWith('/login?fresh=1&returnTo=')).toBe(true)
    expect(decodeURIComponent(decodeURIComponent(location))).toContain(`/admin/members/${ruth.user.id}?reason=Checking a report about her page`)
    const back = await text(`/admin/members/${ruth.user.id}?reason=${encodeURIComponent('Checking a report about her page')}`, admin.cookie)
    expect(back).toContain('>Checking a report about her page</textarea>')
    expect((await get('/admin/members', (await person('Bea', 'Cole')).cookie)).response.status).toBe(403)
  })
})
