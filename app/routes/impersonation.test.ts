import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import * as account from './account+/_index.tsx'
import * as editSection from './account+/edit_.$section.tsx'
import * as accountPayments from './account+/payments.tsx'
import * as activity from './activities+/$id.tsx'
import * as member from './admin+/members_.$id.tsx'
import * as impersonation from './impersonation.tsx'
import * as messenger from './messenger+/_index.tsx'

/**
 * Acting on a member's behalf without JavaScript (issue 32 §2, decision 078): an admin switches to
 * acting with a stated reason and changes what the member asked for; what is the member's alone is
 * still refused through every page's form, said next to it or in a toast, and nothing changes.
 */
const pages = routePages([
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: member as never },
  { id: 'routes/impersonation', path: 'impersonation', module: impersonation as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/account+/edit_.$section', path: 'account/edit/:section', module: editSection as never },
  { id: 'routes/account+/payments', path: 'account/payments', module: accountPayments as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
])
const { post, text } = pages
const refusal = 'This cannot be done while viewing Circle 55 as a member.'

describe('acting on a member’s behalf, without JavaScript', () => {
  it('changes what the member asked for, and still refuses their account, sign-in, cards, the fee’s consent and their messages', async () => {
    const db = pages.database.db
    const admin = await createUser(db, { first_name: 'Diane', last_name: 'Okafor', staff_role: 'admin', last_sign_in_at: new Date() })
    const adminCookie = await pages.web.signedInCookie(admin.id)
    const margaret = await createUser(db, { first_name: 'Margaret', last_name: 'Kowalczyk', city: 'Portland' })
    const host = await createUser(db, { first_name: 'Harold', last_name: 'Nguyen' })
    const feeActivity = await createExperience(db, host.id, { title: 'Morning walk along the river', no_show_fee_cents: 1500, start_at: new Date(Date.now() + 5 * 86_400_000) })

    await post(`/admin/members/${margaret.id}`, adminCookie, { reason: 'She called: she cannot change her name.' })
    const noReason = await post('/impersonation', adminCookie, { intent: 'act', reason: '' })
    expect(noReason.html).toContain('Write why: it is recorded and told to the member.')
    const acting = await post('/impersonation', adminCookie, { intent: 'act', reason: 'She asked me on the phone to use the name she goes by.' })
    expect(acting.response.headers.get('location')).toBe('/impersonation')
    expect(await text('/account', adminCookie)).toContain('You are acting on behalf of Margaret K.')

    // What she asked for is changed, recorded with both ids.
    const renamed = await post('/account/edit/name', adminCookie, { intent: 'name', firstName: 'Maggie', lastName: 'Kowalczyk' })
    expect(renamed.response.status).toBe(302)
    expect((await db.selectFrom('users').select('first_name').where('id', '=', margaret.id).executeTakeFirstOrThrow()).first_name).toBe('Maggie')

    // Deleting the account is neither offered (not even at its own address) nor done.
    const confirm = await text('/account?confirm=delete', adminCookie)
    expect(confirm).not.toContain('name="intent" value="delete-account"')
    expect(await validationOf(confirm)).toEqual([])
    for (const intent of ['delete-account', 'sign-out-everywhere']) {
      const refused = await post('/account', adminCookie, { intent })
      expect(refused.response.headers.get('location'), intent).toBe('/account')
      expect(refused.response.headers.get('set-cookie'), intent).not.toMatch(/__session=;/)
      expect(await text('/account', withSetCookies(adminCookie, refused.response)), intent).toContain(refusal)
    }
    const card = await post('/account/payments', adminCookie, { intent: 'add' })
    expect(card.response.status).toBe(403)
    expect(card.html).toContain(refusal)
    // What speaks for her or pays is left out of the activity's page; the refusal is said all the same if posted.
    const activityPage = await text(`/activities/${feeActivity.id}`, adminCookie)
    expect(activityPage).toContain('Only the member can do this. It is left out while viewing Circle 55 as them.')
    for (const control of ['value="add-card"', 'Contact host', 'Report this activity', 'Write to Circle 55 support']) expect(activityPage, control).not.toContain(control)
    const seat = await post(`/activities/${feeActivity.id}`, adminCookie, { intent: 'attend', feeConsent: 'on' })
    expect(seat.html).toContain(refusal)
    const request = await pages.web.api.request('POST', 'users/message-channels', { token: await pages.web.api.signToken(host.id), body: { user_id: margaret.id } })
    const channel = (request.json as { data: [{ id: string }] }).data[0].id
    const sent = await post(`/messenger?channel=${channel}`, adminCookie, { intent: 'send', channel, text: 'Hello Harold, see you Friday' })
    expect(sent.response.status).toBe(403)
    expect(sent.html).toContain('Messages cannot be sent while viewing Circle 55 as a member.')
    expect(await db.selectFrom('messages').select('id').where('channel_id', '=', channel).execute()).toEqual([])

    const still = await db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', margaret.id).executeTakeFirstOrThrow()
    expect(still).toEqual({ email: margaret.email, deleted_at: null })
    expect(await db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', feeActivity.id).execute()).toEqual([])
    const calls = await db.selectFrom('audit_log').select(['target_id', 'data']).orderBy('id').where('action', '=', 'impersonation.call').where('actor_id', '=', margaret.id).execute()
    // Each attempt is on the record with both ids, the refused ones too.
    const attempts = calls.map((call) => `${(call.target_id ?? '').replace(/[0-9a-f-]{36}/g, '{id}')} ${(call.data as { status: number }).status}`)
    expect(attempts).toEqual([
      'PUT /v1/users/me 200',
      'DELETE /v1/users/{id} 403',
      'DELETE /v1/users/me/sessions 403',
      'POST /v1/payment-methods/setup 403',
      'POST /v1/experiences/{id}/attendees 403',
      'POST /v1/chat/message-channels/{id}/messages 403',
    ])
  })
})
