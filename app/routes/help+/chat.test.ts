import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { navigationHeaders, routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as home from '../_index.tsx'
import * as conversation from '../admin+/support_.$id.tsx'
import * as adminMember from '../admin+/members_.$id.tsx'
import * as helpIndex from './_index.tsx'
import * as chat from './chat.tsx'

/**
 * The help chat without JavaScript (issue 32 §6, decision 083): Help in the header of every page,
 * `/help/chat` with the member's conversation and a form, the team's answer from `/admin/support`
 * read there as from "Circle 55 support", a visitor's ways in; and, with a vendor configured, the
 * widget's signed settings only for the panel's request and never while the team views as the member.
 */
const routes = [
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/help+/_index', path: 'help', index: undefined, module: helpIndex as never },
  { id: 'routes/help+/chat', path: 'help/chat', module: chat as never },
  { id: 'routes/admin+/support_.$id', path: 'admin/support/:id', module: conversation as never },
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: adminMember as never },
]
const pages = routePages(routes, { navigation: true })
const { page, text, post } = pages

async function person(first: string, last: string, overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, last_sign_in_at: new Date(), ...overrides })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

describe('Help, without JavaScript', () => {
  it('is in the header of every page and leads a visitor to sign in or to the support address', async () => {
    const home = await text('/', '')
    expect(home).toContain('<li class="nav-links__everywhere"><a data-discover="true" href="/help/chat">Help</a></li>')
    // `/help` is the help center now (decision 088); the chat links to it.
    expect((await page('/help', '')).status).toBe(200)

    const visitor = await text('/help/chat', '')
    expect(visitor).toContain('<h1>Help: chat with Circle 55 support</h1>')
    expect(visitor).toContain('Circle 55 staff will never ask for your card number, passwords or Medicare number here.')
    expect(visitor).toContain('<a data-discover="true" href="/help">Browse the help articles</a>')
    expect(visitor).toContain('Sign in to chat with us')
    expect(visitor).toContain('href="/login?returnTo=%2Fhelp%2Fchat"')
    const email = pages.web.services.config.supportEmail
    expect(visitor).toContain(`<a href="mailto:${email}">${email}</a>`)
    expect(visitor).not.toContain('name="text"')
    expect(await validationOf(visitor)).toEqual([])
  })

  it('lets a member write to support, keeps what they typed when it is refused, and shows the team’s answer from Circle 55 support', async () => {
    const member = await person('Margaret', 'Kowalczyk')
    const admin = await person('Alice', 'Adminson', { staff_role: 'admin' })

    const empty = await page('/help/chat', member.cookie, { headers: navigationHeaders })
    expect(empty.headers.get('cache-control')).toBe('private, no-store')
    const first = readableHtml(await empty.text())
    expect(first).toContain('You have not written to us yet.')
    expect(first).toContain('<label for="help-text">Your message</label>')
    expect(await validationOf(first)).toEqual([])

    const blank = await post('/help/chat', member.cookie, { text: '   ' })
    expect(blank.response.status).toBe(400)
    expect(blank.html).toContain('Write your message before sending it.')
    expect(blank.html).toContain('href="#help-text"')
    expect(await validationOf(blank.html)).toEqual([])
    const long = await post('/help/chat', member.cookie, { text: 'x'.repeat(2001) })
    expect(long.response.status).toBe(400)
    expect(long.html).toContain('Your message is too long.')
    expect(long.html).toContain('x'.repeat(2001))

    const sent = await post('/help/chat', member.cookie, { text: 'How do I change my email address?' })
    expect(sent.response.status).toBe(302)
    expect(sent.response.headers.get('location')).toMatch(/^\/help\/chat#m-[\w-]+$/)
    const after = await text('/help/chat', withSetCookies(member.cookie, sent.response))
    expect(after).toContain('Your message was sent. We will answer you here.')
    expect(after).toContain('How do I change my email address?')

    // The team answers from /admin/support; the member reads it in the help chat, from Circle 55 support.
    const channel = await pages.database.db.selectFrom('message_channels').select('id').where('direct_key', '=', `support:${member.user.id}`).executeTakeFirstOrThrow()
    const answered = await post(`/admin/support/${channel.id}`, admin.cookie, { intent: 'answer', text: 'Open Account, then Email.' })
    expect(answered.response.status).toBe(302)
    const read = await text('/help/chat', member.cookie)
    expect(read).toContain('Open Account, then Email.')
    expect(read).toMatch(/<span class="message__sender">Circle 55 support<\/span>/)
    expect(read).not.toContain('Alice')
    expect(read).not.toContain('Adminson')
    expect(read).toContain(`href="/messenger?channel=${channel.id}"`)
    expect(await validationOf(read)).toEqual([])
  })

  it('answers the panel’s message with data, not a redirect', async () => {
    const member = await person('Harold', 'Nguyen')
    const sent = await post('/help/chat?panel', member.cookie, { text: 'Is there a phone number?', panel: '1' })
    expect(sent.response.status).toBe(200)
    const stored = await pages.database.db.selectFrom('messages').select('body').where('body', '=', 'Is there a phone number?').execute()
    expect(stored).toHaveLength(1)
  })
})

describe('a vendor widget (Chatwoot)', () => {
  let database: TestDatabase
  let web: WebHarness
  const handle = createDocumentHandler(routes)
  const hmacToken = 'inbox-hmac-token'
  beforeAll(async () => {
    database = await createTestDatabase()
    web = await createWebHarness(database, { CHATWOOT_BASE_URL: 'https://chat.circle55.example', CHATWOOT_WEBSITE_TOKEN: 'website-token', CHATWOOT_HMAC_TOKEN: hmacToken })
  })
  afterAll(async () => {
    await web?.close()
    await database?.drop()
  })
  const get = async (path: string, cookie: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set('cookie', cookie)
    return handle(new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers }), web.newContext())
  }

  it('is signed for the panel’s request only, never for a visitor, and never while the team views Circle 55 as the member', async () => {
    const member = await createUser(database.db, { first_name: 'Edith', last_name: 'Moreau', email: 'edith.moreau@example.com' })
    const cookie = await web.signedInCookie(member.id)
    const hash = createHmac('sha256', hmacToken).update(member.id).digest('hex')

    const panel = await (await get('/help/chat?panel', cookie)).text()
    expect(panel).toContain(hash)
    expect(panel).toContain('edith.moreau@example.com')
    expect(panel).not.toContain(hmacToken)
    // The page (no Help pressed), and a visitor: no widget.
    expect(await (await get('/help/chat', cookie)).text()).not.toContain(hash)
    expect(await (await get('/help/chat?panel', '')).text()).not.toContain('identifier_hash')

    // A support agent views Circle 55 as Edith: no widget, and her conversation still shows.
    const agent = await createUser(database.db, { first_name: 'Sam', last_name: 'Rivera', staff_role: 'support', last_sign_in_at: new Date() })
    const agentCookie = await web.signedInCookie(agent.id)
    const started = await get(`/admin/members/${member.id}`, agentCookie, { method: 'POST', body: new URLSearchParams({ reason: 'She cannot find her messages.' }) })
    expect(started.status).toBe(302)
    const viewing = await get('/help/chat?panel', withSetCookies(agentCookie, started))
    const html = await viewing.text()
    expect(html).toContain('You are viewing Circle 55 as Edith M.')
    expect(html).not.toContain(hash)
    expect(html).not.toContain('identifier_hash')
    // Writing to support as her is refused, next to the form.
    const refused = await get('/help/chat', withSetCookies(agentCookie, started), { method: 'POST', body: new URLSearchParams({ text: 'Hello' }) })
    expect(refused.status).toBe(403)
    expect(readableHtml(await refused.text())).toContain('This cannot be done while viewing Circle 55 as a member.')
  })
})
