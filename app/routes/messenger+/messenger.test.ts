import { describe, expect, it } from 'vitest'
import { messagesPerChannelPerMinute } from '#contract/limits.ts'
import { createExperience, createUser } from '#tests/api-harness.ts'
import * as profile from '../p+/$slug.tsx'
import * as messenger from './_index.tsx'
import * as newChannel from './new.tsx'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'

/** `/messenger` (issue 14 §1–2, decision 033) as a browser without JavaScript gets it, over the real API and PostgreSQL. */
const pages = routePages([
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
  { id: 'routes/messenger+/new', path: 'messenger/new', module: newChannel as never },
  { id: 'routes/p+/$slug', path: 'p/:slug', module: profile as never },
], { navigation: true })
const { page, text, post } = pages

async function member(first: string, last: string) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

type Member = Awaited<ReturnType<typeof member>>

async function directChannel(from: Member, to: Member) {
  const answer = await pages.web.api.request('POST', 'users/message-channels', { token: from.token, body: { user_id: to.user.id } })
  return (answer.json as { data: [{ id: string }] }).data[0].id
}

async function say(from: Member, channel: string, words: string) {
  const answer = await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: from.token, body: { text: words } })
  expect(answer.status).toBe(201)
  return (answer.json as { data: [{ id: string }] }).data[0].id
}

const unread = async (who: Member) =>
  ((await pages.web.api.request('GET', 'v1/chat/message-channels', { token: who.token })).json as { metadata: { total_unread: number } }).metadata.total_unread

describe('/messenger', () => {
  it('lists the channels newest first with names, last messages, time ago and the unread badge (9+)', async () => {
    const me = await member('Mary', 'Jones')
    const ann = await member('Ann', 'Baker')
    const bob = await member('Bob', 'Carter')
    const older = await directChannel(ann, me)
    await say(ann, older, 'Hello from Ann')
    const newer = await directChannel(me, bob)
    await say(me, newer, 'Hi Bob')
    await pages.web.api.request('POST', `v1/chat/message-channels/${older}/accept`, { token: me.token })
    for (let index = 0; index < 10; index++) await say(ann, older, `Message ${index} see https://example.org/x.`)
    await say(bob, newer, 'Hello Mary')

    const html = await text('/messenger', me.cookie)
    expect(html).toContain('<h1>Messages</h1>')
    expect(html.indexOf('Bob C.')).toBeLessThan(html.indexOf('Ann B.'))
    expect(html).toContain('Message 9 see https://example.org/x.')
    // 5 messages per channel (spec §9).
    expect(html).not.toContain('Message 4 see')
    expect(html).toContain('Message 5 see')
    expect(html).toMatch(/<span class="badge">9\+<span class="visually-hidden"> 11 unread messages<\/span>/)
    expect(html).toContain('Just now')
    // The Messages item of the header and the bottom navigation, with the unread total: in the bar
    // beside the icon, the count said once after the name (issue 29 §4).
    expect(html).toMatch(/href="\/messenger"[^>]*>Messages<span class="badge"><span aria-hidden="true">9\+<\/span><span class="visually-hidden"> \d+ unread<\/span>/)
    expect(html).toMatch(/<span class="badge" aria-hidden="true">9\+<\/span><\/span><span class="bottom-nav__label">Messages<\/span><span class="visually-hidden"> \d+ unread<\/span>/)
    expect(await validationOf(html)).toEqual([])
  })

  it('opens a channel: oldest at the top, newest at the bottom, links safe, read once opened by the member', async () => {
    const me = await member('Iris', 'Moss')
    const ann = await member('Ann', 'Lee')
    const channel = await directChannel(me, ann)
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/accept`, { token: ann.token })
    await say(ann, channel, 'First <b>bold</b>')
    await say(ann, channel, 'Second https://example.org/page')
    // A prefetch does not mark it read.
    await text(`/messenger?channel=${channel}`, me.cookie, { 'sec-purpose': 'prefetch', 'sec-fetch-dest': 'document' })
    expect(await unread(me)).toBe(2)

    const html = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(html).toContain('<h1 id="channel-title">Ann L.</h1>')
    expect(html.indexOf('First')).toBeLessThan(html.indexOf('Second'))
    expect(html).toContain('First &lt;b&gt;bold&lt;/b&gt;')
    expect(html).toContain('<a href="https://example.org/page" rel="noopener noreferrer nofollow ugc" class="message__link">https://example.org/page</a>')
    expect(html).toContain('Back to messages')
    expect(html).toContain('<label for="message-text">Your message</label>')
    expect(await unread(me)).toBe(0)
    expect(await validationOf(html)).toEqual([])
  })

  it('sends a message and goes back to it; an empty or too long one comes back with the error and what was typed', async () => {
    const me = await member('Hugh', 'Grant')
    const ann = await member('Ann', 'Page')
    const channel = await directChannel(me, ann)

    const empty = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: '   ' })
    expect(empty.response.status).toBe(400)
    expect(empty.html).toContain('Write your message before sending it.')
    // The summary comes first, right under the channel's heading, and links to the field.
    expect(empty.html).toMatch(/<h1 id="channel-title">Ann P\.<\/h1><div class="error-summary"[\s\S]*?href="#message-text"/)
    expect(empty.html).toContain('<title>Error: ')
    expect(await validationOf(empty.html)).toEqual([])

    const long = 'a'.repeat(2001)
    const tooLong = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: long })
    expect(tooLong.response.status).toBe(400)
    expect(tooLong.html).toMatch(/id="message-text-error"[^>]*>[\s\S]{0,120}Your message is too long/)
    expect(tooLong.html).toContain(`>${long}</textarea>`)
    expect(tooLong.html).toContain('aria-invalid="true"')

    const sent = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: 'Hello Ann' })
    expect(sent.response.status).toBe(302)
    const stored = await pages.database.db.selectFrom('messages').select('id').where('channel_id', '=', channel).executeTakeFirstOrThrow()
    expect(sent.response.headers.get('location')).toBe(`/messenger?channel=${channel}#m-${stored.id}`)
    const html = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(html).toContain(`id="m-${stored.id}"`)
    expect(html).toContain('Hello Ann')
  })

  it(`says next to the field when ${messagesPerChannelPerMinute} messages were sent in a minute, keeps what was typed, and sends it once the minute has passed`, async () => {
    const me = await member('Ida', 'Marsh')
    const ann = await member('Ann', 'Lowe')
    const channel = await directChannel(ann, me)
    await say(ann, channel, 'Hello Ida!')
    for (let n = 0; n < messagesPerChannelPerMinute; n++) await say(me, channel, `Quick note ${n}`)
    const typed = 'One more thing: the café opens at 9.'
    const refused = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: typed })
    expect(refused.response.status).toBe(429)
    expect(refused.html).toMatch(/id="message-text-error"[^>]*>[\s\S]{0,120}You have sent a lot of messages in a short time\. Please wait a few minutes, then send this one again: what you wrote is still here\./)
    expect(refused.html).toContain(`>${typed}</textarea>`)
    expect(refused.html).toContain('aria-invalid="true"')
    expect(refused.html).toContain('<title>Error: ')
    expect(await validationOf(refused.html)).toEqual([])

    await pages.database.db.updateTable('rate_limits').set({ window_start: new Date(Date.now() - 61_000) }).where('key', 'like', `messages-%${me.user.id}%`).execute()
    const sent = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: typed })
    expect(sent.response.status).toBe(302)
  })

  it('shows the sender of a request that they wait, with the limit of 2 messages; the recipient accepts', async () => {
    const me = await member('Sam', 'Hall')
    const ann = await member('Ann', 'Ross')
    const channel = await directChannel(me, ann)
    await say(me, channel, 'One')
    await say(me, channel, 'Two')
    const waiting = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(waiting).toContain('Waiting for Ann R. to accept your message request.')
    expect(waiting).toContain('you can send at most 2 messages')
    expect(waiting).toContain('You have sent 2 messages. You can write again when Ann R. accepts your message request.')
    expect(waiting).not.toContain('id="message-text"')

    const request = await text(`/messenger?channel=${channel}`, ann.cookie)
    expect(request).toContain('Sam H. would like to talk with you.')
    expect(await validationOf(request)).toEqual([])
    const accepted = await post('/messenger?index', ann.cookie, { intent: 'accept', channel })
    expect(accepted.response.status).toBe(302)
    expect(accepted.response.headers.get('location')).toBe(`/messenger?channel=${channel}`)
    expect(await text(`/messenger?channel=${channel}`, me.cookie)).toContain('id="message-text"')
  })

  it('waits for an answer only once something is written (issue 29 §4)', async () => {
    const me = await member('Sam', 'Hall')
    const ann = await member('Margaret', 'Evans')
    const channel = await directChannel(me, ann)
    const before = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(before).not.toContain('Waiting for')
    expect(before).toContain('Your first message to Margaret E. is a message request: they can accept it or not.')
    expect(before).toContain('Until they accept, you can send at most 2 messages.')
    expect(before).not.toContain('Waiting for an answer')
    await say(me, channel, 'Hello Margaret')
    const after = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(after).toContain('Waiting for Margaret E. to accept your message request.')
    expect(after).not.toContain('Your first message to')
    expect(after).toContain('Waiting for an answer')
  })

  it('a deleted member’s conversation does not link to their profile, which is gone (issue 29 §4)', async () => {
    const me = await member('Iris', 'Moss')
    const gone = await member('Ruth', 'Owens')
    const channel = await directChannel(gone, me)
    await say(gone, channel, 'Lovely to meet you')
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/accept`, { token: me.token })
    expect(await text(`/messenger?channel=${channel}`, me.cookie)).toContain(`href="/p/${gone.user.slug}"`)
    expect((await pages.web.api.request('DELETE', `v1/users/${gone.user.id}`, { token: gone.token })).status).toBe(204)
    const html = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(html).toContain('Lovely to meet you')
    // No link to any profile page (the account's slug may have been changed when it was erased).
    const section = html.slice(html.indexOf('<section aria-labelledby="channel-title"'))
    expect(section).not.toMatch(/href="\/p\/[^"]+"/)
  })

  it('leaves after a confirmation on its own view', async () => {
    const me = await member('Lea', 'Vos')
    const ann = await member('Ann', 'Kay')
    const channel = await directChannel(ann, me)
    await say(ann, channel, 'Hello')
    // "Leave this conversation" on the conversation's own page opens the confirmation.
    const open = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(open).toMatch(new RegExp(`<a [^>]*href="/messenger\\?channel=${channel}&confirm=leave"[^>]*>Leave this conversation</a>`))
    const confirm = await text(`/messenger?channel=${channel}&confirm=leave`, me.cookie)
    expect(confirm).toContain('Leave the conversation with Ann K.?')
    expect(await validationOf(confirm)).toEqual([])
    const left = await post('/messenger?index', me.cookie, { intent: 'leave', channel })
    expect(left.response.status).toBe(302)
    expect(left.response.headers.get('location')).toBe('/messenger')
    const after = await text('/messenger', withSetCookies(me.cookie, left.response))
    expect(after).toContain('You left the conversation.')
    expect(after).toContain('You have no messages yet.')
  })

  it('loads older messages with a plain link', async () => {
    const me = await member('Olga', 'Berg')
    const ann = await member('Ann', 'Fox')
    const channel = await directChannel(me, ann)
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/accept`, { token: ann.token })
    for (let index = 0; index < 32; index++) await say(index % 2 ? ann : me, channel, `Number ${String(index).padStart(2, '0')}`)
    const newest = await text(`/messenger?channel=${channel}`, me.cookie)
    expect(newest).not.toContain('Number 01')
    expect(newest).toContain('Number 31')
    const link = /<a [^>]*href="(\/messenger\?channel=[^"]+&before=[^"]+)"[^>]*>Load older messages<\/a>/.exec(newest)?.[1]
    expect(link).toBeDefined()
    const older = await text(link!, me.cookie)
    expect(older).toContain('Number 00')
    expect(older).toContain('Number 01')
    expect(older).toContain('Go to the newest messages')
  })

  it('shows an activity chat with product messages styled apart', async () => {
    const host = await member('Hana', 'Ito')
    const guest = await member('Gus', 'Ray')
    const experience = await createExperience(pages.database.db, host.user.id, { title: 'Chess in the park' })
    await pages.database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.user.id }).execute()
    const joined = await pages.web.api.request('PUT', `experiences/${experience.id}/message-channels/join`, { token: host.token })
    const channel = (joined.json as { data: [{ id: string }] }).data[0].id
    await pages.web.api.request('PUT', `experiences/${experience.id}/message-channels/join`, { token: guest.token })
    await say(host, channel, 'Welcome all')
    const html = await text(`/messenger?channel=${channel}`, guest.cookie)
    expect(html).toContain('<h1 id="channel-title">Chess in the park</h1>')
    expect(html).toContain('Welcome all')
    expect(html).toContain('Hana I.')
  })
})

describe('Message on a public profile', () => {
  it('opens the conversation, and says why when the member cannot be written to', async () => {
    const me = await member('Vera', 'Nash')
    const other = await member('Harold', 'Li')
    const profilePage = await text(`/p/${other.user.slug}`, me.cookie)
    expect(profilePage).toContain('action="/messenger/new"')
    expect(profilePage).toContain('>Message</button>')
    const opened = await post('/messenger/new', me.cookie, { user_id: other.user.id, slug: other.user.slug })
    expect(opened.response.status).toBe(302)
    expect(opened.response.headers.get('location')).toMatch(/^\/messenger\?channel=[\w-]+$/)
    // Nothing is written yet: nothing to accept, so nothing waits (issue 29 §4).
    const opening = await text(opened.response.headers.get('location')!, me.cookie)
    expect(opening).not.toContain('Waiting for')
    expect(opening).toContain('Your first message to Harold Li is a message request: they can accept it or not.')

    const suspended = await createUser(pages.database.db, { first_name: 'Sid', is_suspended: true })
    const refused = await post('/messenger/new', me.cookie, { user_id: suspended.id, slug: suspended.slug })
    expect(refused.response.status).toBe(302)
    expect(refused.response.headers.get('location')).toBe(`/p/${suspended.slug}`)
    expect(refused.response.headers.get('set-cookie')).toContain('toast')
    expect(await text(`/p/${me.user.slug}`, me.cookie)).not.toContain('>Message</button>')

    // A member one blocked: no button (and the API refuses the conversation anyway).
    const blocked = await member('Bea', 'Stone')
    await pages.web.api.request('PUT', `v1/block/${blocked.user.id}`, { token: me.token })
    expect(await text(`/p/${blocked.user.slug}`, me.cookie)).not.toContain('>Message</button>')
    const refusedBlocked = await post('/messenger/new', me.cookie, { user_id: blocked.user.id, slug: blocked.user.slug })
    expect(refusedBlocked.response.headers.get('location')).toBe(`/p/${blocked.user.slug}`)
    // The member who was blocked finds no profile to message from (decision 027), as for anyone missing.
    expect((await page(`/p/${me.user.slug}`, blocked.cookie)).status).toBe(404)
  })
})
