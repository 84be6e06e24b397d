import { describe, expect, it } from 'vitest'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import * as activity from '../activities+/$id.tsx'
import * as messenger from '../messenger+/_index.tsx'
import * as newChannel from '../messenger+/new.tsx'
import * as inbox from './support.tsx'
import * as conversation from './support_.$id.tsx'
import { navigationHeaders as navigation, routePages, validationOf } from '#tests/route-pages.ts'

/**
 * "Contact the product", "Contact host" and the activity's group button, and the admins'
 * support inbox (issue 14 §1, decision 039), as a browser without JavaScript gets them, over the
 * real API and PostgreSQL.
 */
const pages = routePages([
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
  { id: 'routes/messenger+/new', path: 'messenger/new', module: newChannel as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
  { id: 'routes/admin+/support', path: 'admin/support', module: inbox as never },
  { id: 'routes/admin+/support_.$id', path: 'admin/support/:id', module: conversation as never },
], { navigation: true })
const { page, text, post } = pages

async function member(first: string, last: string, isAdmin = false) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, staff_role: isAdmin ? 'admin' : null })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

describe('contacting Circle 55 support', () => {
  it('opens the member’s support conversation from the Messenger; an admin answers in /admin/support; the member reads it from support', async () => {
    const me = await member('Mary', 'Jones')
    const admin = await member('Alice', 'Adminson', true)

    expect(await text('/messenger', me.cookie)).toContain('Write to Circle 55 support')
    const opened = await post('/messenger/new', me.cookie, { to: 'support' })
    expect(opened.response.status).toBe(302)
    const location = opened.response.headers.get('location') ?? ''
    expect(location).toMatch(/^\/messenger\?channel=[\w-]+$/)
    const channel = new URL(location, TEST_PUBLIC_URL).searchParams.get('channel') ?? ''
    const view = await text(location, me.cookie)
    expect(view).toContain('<h1 id="channel-title">Circle 55 support</h1>')
    expect(view).toContain('A person from our team reads every message')
    expect(view).not.toContain('Leave this conversation')
    expect(await validationOf(view)).toEqual([])

    const sent = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: 'How do I change my email?' })
    expect(sent.response.status).toBe(302)

    // The inbox, waiting first.
    const list = await text('/admin/support', admin.cookie)
    expect(list).toContain('<h1>Support messages</h1>')
    expect(list).toContain('Read the conversation with Mary J.')
    expect(list).toContain('Waiting for an answer')
    expect(await validationOf(list)).toEqual([])

    const thread = await text(`/admin/support/${channel}`, admin.cookie)
    expect(thread).toContain('How do I change my email?')
    expect(thread).toContain('Mark as done')
    expect(await validationOf(thread)).toEqual([])

    // An empty answer: 400, the error beside the field and in the summary.
    const empty = await post(`/admin/support/${channel}`, admin.cookie, { intent: 'answer', text: '  ' })
    expect(empty.response.status).toBe(400)
    expect(empty.html).toContain('Write your answer before sending it.')
    expect(await validationOf(empty.html)).toEqual([])

    const answered = await post(`/admin/support/${channel}`, admin.cookie, { intent: 'answer', text: 'Open Account, then Email.' })
    expect(answered.response.status).toBe(302)
    expect(answered.response.headers.get('location')).toMatch(new RegExp(`^/admin/support/${channel}#m-[\\w-]+$`))
    expect(await text(`/admin/support/${channel}`, admin.cookie)).toContain('Circle 55 support (Alice A.)')

    const read = await text(location, me.cookie)
    expect(read).toContain('Open Account, then Email.')
    expect(read).toContain('Circle 55 support')
    expect(read).not.toContain('Alice')
    expect(read).not.toContain('Adminson')

    const done = await post(`/admin/support/${channel}`, admin.cookie, { intent: 'done' })
    expect(done.response.headers.get('location')).toBe('/admin/support')
  })

  it('is refused to members who are not admins (403), and an unknown intent is a 400', async () => {
    const me = await member('Ruth', 'Owens')
    const admin = await member('Alan', 'Admin', true)
    const opened = await post('/messenger/new', me.cookie, { to: 'support' })
    const channel = new URL(opened.response.headers.get('location') ?? '', TEST_PUBLIC_URL).searchParams.get('channel') ?? ''
    expect((await page('/admin/support', me.cookie, { headers: navigation })).status).toBe(403)
    expect((await page(`/admin/support/${channel}`, me.cookie, { headers: navigation })).status).toBe(403)
    expect((await post(`/admin/support/${channel}`, me.cookie, { intent: 'answer', text: 'I am support' })).response.status).toBe(403)
    expect((await post(`/admin/support/${channel}`, admin.cookie, { intent: 'other' })).response.status).toBe(400)
  })
})

describe('the activity page’s conversations', () => {
  it('offers Contact host to other members, the group chat to the host and attendees, and support to all', async () => {
    const host = await member('Walter', 'Brooks')
    const guest = await member('Margaret', 'Hughes')
    const visitor = await member('Peter', 'Grey')
    const experience = await createExperience(pages.database.db, host.user.id, { start_at: new Date(Date.now() + 5 * 86_400_000), max_attendees: 10 })
    await pages.database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.user.id }).execute()

    const asVisitor = await text(`/activities/${experience.id}`, visitor.cookie)
    expect(asVisitor).toContain('Contact host')
    expect(asVisitor).not.toContain('Group chat')
    expect(asVisitor).toContain('Write to Circle 55 support')
    expect(await validationOf(asVisitor)).toEqual([])

    const asHost = await text(`/activities/${experience.id}`, host.cookie)
    expect(asHost).toContain('Group chat')
    expect(asHost).not.toContain('Contact host')

    const asGuest = await text(`/activities/${experience.id}`, guest.cookie)
    expect(asGuest).toContain('Group chat')
    expect(asGuest).toContain('Contact host')

    // Contact host opens the direct channel with the host.
    const contacted = await post('/messenger/new', visitor.cookie, { user_id: host.user.id, from_activity: experience.id })
    expect(contacted.response.headers.get('location')).toMatch(/^\/messenger\?channel=[\w-]+$/)
    expect(await text(contacted.response.headers.get('location')!, visitor.cookie)).toContain('Your first message to Walter B. is a message request')
    // The group button opens the activity's chat.
    const group = await post('/messenger/new', guest.cookie, { experience_id: experience.id })
    expect(await text(group.response.headers.get('location')!, guest.cookie)).toContain('See the activity')

    // A host who blocked the member: the button is gone (the API says they cannot message).
    await pages.web.api.request('PUT', `v1/block/${visitor.user.id}`, { token: host.token })
    expect(await text(`/activities/${experience.id}`, visitor.cookie)).not.toContain('Contact host')
    // And refused if posted anyway, back to the activity with a toast.
    const refused = await post('/messenger/new', visitor.cookie, { user_id: host.user.id, from_activity: experience.id })
    expect(refused.response.headers.get('location')).toBe(`/activities/${experience.id}`)
    expect(refused.response.headers.get('set-cookie')).toContain('toast')
  })
})
