import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as notifications from './notifications.tsx'

/**
 * `/notifications` as a browser without JavaScript gets it (issue 15 §3, decision 043): the list
 * newest first with unread ones marked, the badge on every page, opening one, marking all read.
 */
const handle = createDocumentHandler([{ id: 'routes/notifications', path: 'notifications', module: notifications as never }])

let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

function visit(path: string, cookie: string, form?: Record<string, string>) {
  const init: RequestInit = form
    ? { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) }
    : { headers: { cookie } }
  return handle(new Request(`${TEST_PUBLIC_URL}${path}`, init), web.newContext())
}

async function notification(userId: string, type: string, data: object, minutesAgo: number) {
  const row = await database.db.insertInto('notifications').values({ user_id: userId, type, data: JSON.stringify(data) }).returning('id').executeTakeFirstOrThrow()
  await sql`UPDATE notifications SET created_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${row.id}`.execute(database.db)
  return row.id
}

describe('/notifications without JavaScript', () => {
  it('shows an empty state and the way to the settings', async () => {
    const member = await createUser(database.db)
    const html = readableHtml(await (await visit('/notifications', await web.signedInCookie(member.id))).text())
    expect(html).toContain('Nothing new for now')
    expect(html).toContain('href="/account/notification-settings"')
    expect(html).not.toContain('Mark all as read')
  })

  it('lists them newest first, marks the unread ones, and shows the unread total as the badge', async () => {
    const member = await createUser(database.db)
    const host = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { title: 'Tai chi in the park' })
    await notification(member.id, 'sample', {}, 120)
    const cancelled = await notification(member.id, 'experience.canceled', { experience_id: experience.id, canceled_by: host.id }, 5)
    const cookie = await web.signedInCookie(member.id)

    const response = await visit('/notifications', cookie)
    expect(response.status).toBe(200)
    const html = readableHtml(await response.text())
    expect(html.indexOf('Activity cancelled')).toBeLessThan(html.indexOf('A test notification'))
    expect(html).toContain('“Tai chi in the park” has been cancelled.')
    expect(html).toContain('You have 2 unread notifications.')
    expect(html.match(/notification__tag">Unread</g)).toHaveLength(2)
    expect(html).toContain('5 minutes ago')
    // The header's Notifications item carries the badge, and so does the bottom bar's Account item.
    expect(html).toMatch(/href="\/notifications"[^>]*>Notifications<span class="badge">2<span class="visually-hidden"> 2 unread<\/span>/)
    expect(html).toContain('2 unread notifications</span>')

    const opened = await visit('/notifications', cookie, { intent: 'open', id: cancelled })
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe(`/activities/${experience.id}`)
    const after = readableHtml(await (await visit('/notifications', cookie)).text())
    expect(after).toContain('You have 1 unread notification.')
    expect(after.match(/notification__tag">Unread</g)).toHaveLength(1)
  })

  it('marks all as read with a plain form, and never opens someone else’s', async () => {
    const [member, other] = [await createUser(database.db), await createUser(database.db)]
    await notification(member.id, 'sample', {}, 10)
    const theirs = await notification(other.id, 'sample', {}, 10)
    const cookie = await web.signedInCookie(member.id)

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
    const still = await database.db.selectFrom('notifications').select('seen_at').where('id', '=', theirs).executeTakeFirstOrThrow()
    expect(still.seen_at).toBeNull()
  })

  it('pages older ones, and asks a visitor to sign in', async () => {
    const member = await createUser(database.db)
    for (let index = 0; index < 21; index++) await notification(member.id, 'sample', {}, 30 + index)
    const cookie = await web.signedInCookie(member.id)
    const first = readableHtml(await (await visit('/notifications', cookie)).text())
    expect(first).toContain('Page 1 of 2')
    expect(first).toContain('href="/notifications?page=2"')
    const second = readableHtml(await (await visit('/notifications?page=2', cookie)).text())
    expect(second.match(/class="notification /g)).toHaveLength(1)
    expect(second).toContain('href="/notifications"')

    const anonymous = await handle(new Request(`${TEST_PUBLIC_URL}/notifications`), web.newContext())
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toBe('/login?returnTo=%2Fnotifications')
  })
})
