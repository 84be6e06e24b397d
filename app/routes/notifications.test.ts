import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages } from '#tests/route-pages.ts'
import { readableHtml } from '#tests/web-document.ts'
import * as notifications from './notifications.tsx'

/**
 * `/notifications` as a browser without JavaScript gets it (issue 15 §3, decision 043): the list
 * newest first with unread ones marked, the badge on every page, opening one, marking all read.
 */
const pages = routePages([{ id: 'routes/notifications', path: 'notifications', module: notifications as never }])

function visit(path: string, cookie: string, form?: Record<string, string>) {
  return pages.page(path, cookie, form ? { method: 'POST', body: new URLSearchParams(form) } : {})
}

async function notification(userId: string, type: string, data: object, minutesAgo: number) {
  const row = await pages.database.db.insertInto('notifications').values({ user_id: userId, type, data: JSON.stringify(data) }).returning('id').executeTakeFirstOrThrow()
  await sql`UPDATE notifications SET created_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${row.id}`.execute(pages.database.db)
  return row.id
}

describe('/notifications without JavaScript', () => {
  it('shows an empty state and the way to the settings', async () => {
    const member = await createUser(pages.database.db)
    const html = readableHtml(await (await visit('/notifications', await pages.web.signedInCookie(member.id))).text())
    expect(html).toContain('Nothing new for now')
    expect(html).toContain('href="/account/notification-settings"')
    expect(html).not.toContain('Mark all as read')
  })

  it('lists them newest first, marks the unread ones, and shows the unread total as the badge', async () => {
    const member = await createUser(pages.database.db)
    const host = await createUser(pages.database.db)
    const experience = await createExperience(pages.database.db, host.id, { title: 'Tai chi in the park' })
    await notification(member.id, 'sample', {}, 120)
    const cancelled = await notification(member.id, 'experience.canceled', { experience_id: experience.id, canceled_by: host.id }, 5)
    const cookie = await pages.web.signedInCookie(member.id)

    const response = await visit('/notifications', cookie)
    expect(response.status).toBe(200)
    const html = readableHtml(await response.text())
    expect(html.indexOf('Activity canceled')).toBeLessThan(html.indexOf('A test notification'))
    expect(html).toContain('“Tai chi in the park” has been canceled.')
    expect(html).toContain('You have 2 unread notifications.')
    expect(html.match(/notification__tag">Unread</g)).toHaveLength(2)
    expect(html).toContain('5 minutes ago')
    // The header's Notifications item carries the badge (on a phone too: it stays in the header,
    // issue 29 §4); a screen reader hears the count once. Account carries no number.
    expect(html).toMatch(/href="\/notifications"[^>]*>Notifications<span class="badge"><span aria-hidden="true">2<\/span><span class="visually-hidden"> 2 unread<\/span><\/span>/)
    expect(html).toMatch(/<li class="nav-links__everywhere"><a [^>]*href="\/notifications"/)
    expect(html).toMatch(/href="\/account">Account<\/a>/)

    const opened = await visit('/notifications', cookie, { intent: 'open', id: cancelled })
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe(`/activities/${experience.id}`)
    const after = readableHtml(await (await visit('/notifications', cookie)).text())
    expect(after).toContain('You have 1 unread notification.')
    expect(after.match(/notification__tag">Unread</g)).toHaveLength(1)
  })

  it('marks all as read with a plain form, and never opens someone else’s', async () => {
    const [member, other] = [await createUser(pages.database.db), await createUser(pages.database.db)]
    await notification(member.id, 'sample', {}, 10)
    const theirs = await notification(other.id, 'sample', {}, 10)
    const cookie = await pages.web.signedInCookie(member.id)

    const notMine = await visit('/notifications', cookie, { intent: 'open', id: theirs })
    expect(notMine.status).toBe(302)
    expect(notMine.headers.get('location')).toBe('/notifications')
    expect(notMine.headers.get('set-cookie')).toMatch(/toast=/)

    const marked = await visit('/notifications', cookie, { intent: 'mark-all' })
    expect(marked.status).toBe(302)
    expect(marked.headers.get('location')).toBe('/notifications')
    expect(marked.headers.get('set-cookie')).toMatch(/toast=/)
    const html = readableHtml(await (await visit('/notifications', cookie)).text())
    expect(html).toContain('You have read all your notifications.')
    expect(html).not.toContain('class="badge"')
    const still = await pages.database.db.selectFrom('notifications').select('seen_at').where('id', '=', theirs).executeTakeFirstOrThrow()
    expect(still.seen_at).toBeNull()
  })

  it('pages older ones, and asks a visitor to sign in', async () => {
    const member = await createUser(pages.database.db)
    for (let index = 0; index < 21; index++) await notification(member.id, 'sample', {}, 30 + index)
    const cookie = await pages.web.signedInCookie(member.id)
    const first = readableHtml(await (await visit('/notifications', cookie)).text())
    expect(first).toContain('Page 1 of 2')
    expect(first).toContain('href="/notifications?page=2"')
    const second = readableHtml(await (await visit('/notifications?page=2', cookie)).text())
    expect(second.match(/class="notification /g)).toHaveLength(1)
    expect(second).toContain('href="/notifications"')

    const anonymous = await pages.page('/notifications', '')
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toBe('/login?returnTo=%2Fnotifications')
  })

  it('carries only what the header shows of the member: never their email, phone or birth date (decision 053)', async () => {
    const member = await createUser(pages.database.db, { first_name: 'Walter', last_name: 'Hughes', phone: '+15035550123', dob: '1951-03-14' })
    await notification(member.id, 'sample', {}, 3)
    const response = await visit('/notifications', await pages.web.signedInCookie(member.id))
    const html = await response.text()
    expect(readableHtml(html)).toContain('Walter H.')
    expect(html).toContain('A test notification')
    for (const privateValue of [member.email!, '5035550123', '1951-03-14', 'Hughes']) expect(html).not.toContain(privateValue)
  })
})
