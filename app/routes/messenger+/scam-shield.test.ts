import { describe, expect, it } from 'vitest'
import { newConversationsPerDay } from '#contract/limits.ts'
import { createMember } from '#tests/api-harness.ts'
import * as profile from '../p+/$slug.tsx'
import * as messenger from './_index.tsx'
import * as newChannel from './new.tsx'
import { routePages, validationOf } from '#tests/route-pages.ts'

/** The scam shield on `/messenger` (issue 14 §6, decision 038) as a browser without JavaScript gets it, over the real API. */
const pages = routePages([
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
  { id: 'routes/messenger+/new', path: 'messenger/new', module: newChannel as never },
  { id: 'routes/p+/$slug', path: 'p/:slug', module: profile as never },
], { navigation: true })
const { text, post } = pages

const warning = 'Never send money to someone you have not met. Report anything that feels wrong.'
const reminder = 'Sharing your phone number or email? Only share it with people you have met and trust.'
/** A member: new and unverified unless `trusted` (a year old and verified). */
async function member(first: string, last: string, trusted = false) {
  const user = await createMember(pages.database.db, { first_name: first, last_name: last, ageDays: trusted ? 365 : 1, verified: trusted })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

type Member = Awaited<ReturnType<typeof member>>

async function directChannel(from: Member, to: Member) {
  const answer = await pages.web.api.request('POST', 'users/message-channels', { token: from.token, body: { user_id: to.user.id } })
  expect(answer.status).toBe(201)
  return (answer.json as { data: [{ id: string }] }).data[0].id
}

async function say(from: Member, channel: string, words: string) {
  const answer = await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: from.token, body: { text: words } })
  expect(answer.status).toBe(201)
  return (answer.json as { data: [{ id: string }] }).data[0].id
}

describe('the warning under a message', () => {
  it('shows the recipient a calm warning with Report under a money request, never the sender, never on ordinary messages', async () => {
    const sender = await member('Rex', 'Hale', true)
    const me = await member('Joan', 'Pike')
    const channel = await directChannel(sender, me)
    const asking = await say(sender, channel, 'Could you send me $500 in gift cards? I’ll pay you back')
    const ordinary = await say(sender, channel, 'Lovely weather for the walk on Sunday.')

    const html = await text(`/messenger?channel=${channel}`, me.cookie)
    // Inside the message's own list item, as a note, with the report link of that message.
    const item = new RegExp(`<li id="m-${asking}"[^>]*>[\\s\\S]*?</li>`).exec(html)?.[0] ?? ''
    expect(item).toContain('<p class="scam-warning" role="note">')
    expect(item).toContain(warning)
    expect(item).toContain(`href="/messenger/report?channel=${channel}&message=${asking}"`)
    expect(item).toContain('Report this message</a>')
    const plain = new RegExp(`<li id="m-${ordinary}"[^>]*>[\\s\\S]*?</li>`).exec(html)?.[0] ?? ''
    expect(plain).toContain('Lovely weather')
    expect(plain).not.toContain('scam-warning')
    expect(html.split('class="scam-warning"')).toHaveLength(2)
    expect(await validationOf(html)).toEqual([])

    const own = await text(`/messenger?channel=${channel}`, sender.cookie)
    expect(own).toContain('Could you send me $500 in gift cards?')
    expect(own).not.toContain(warning)
  })

  it('is in the reader’s language', async () => {
    const sender = await member('Rex', 'Vale', true)
    const me = await member('Anne', 'Roy')
    await pages.database.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', me.user.id).execute()
    const channel = await directChannel(sender, me)
    await say(sender, channel, 'Add me on WhatsApp, it is easier')
    const html = await text(`/messenger?channel=${channel}&lng=fr`, `${me.cookie}; lng=fr`)
    expect(html).toMatch(/N(’|'|&#x27;)envoyez jamais d(’|'|&#x27;)argent/)
    expect(html).toContain('Signaler ce message')
  })
})

describe('the send form', () => {
  it('stops a first message with a phone number once: the reminder next to the field, the text kept, then Send anyway sends it', async () => {
    const me = await member('Nora', 'Bell', true)
    const ann = await member('Ann', 'Webb')
    const channel = await directChannel(me, ann)
    const typed = 'Lovely to meet you! Call me on 503 555 0142.'

    const reminded = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: typed })
    expect(reminded.response.status).toBe(409)
    expect(reminded.html).toContain(`>${typed}</textarea>`)
    expect(reminded.html).toMatch(/<div id="message-text-reminder" class="notice contact-reminder"><input type="hidden" name="acknowledge_contact_reminder" value="true"\/><p>Sharing your phone number/)
    expect(reminded.html).toContain(reminder)
    expect(reminded.html).toMatch(/aria-describedby="message-text-hint message-text-reminder"/)
    expect(reminded.html).toContain('>Send anyway</button>')
    expect(reminded.html).not.toContain('aria-invalid="true"')
    expect(await validationOf(reminded.html)).toEqual([])
    expect(await pages.database.db.selectFrom('messages').select('id').where('channel_id', '=', channel).execute()).toEqual([])

    const sent = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: typed, acknowledge_contact_reminder: 'true' })
    expect(sent.response.status).toBe(302)
    const stored = await pages.database.db.selectFrom('messages').select(['id', 'body']).where('channel_id', '=', channel).executeTakeFirstOrThrow()
    expect(stored.body).toBe(typed)
    expect(sent.response.headers.get('location')).toBe(`/messenger?channel=${channel}#m-${stored.id}`)

    // Once: the next first message with an email goes straight through.
    const bob = await member('Bob', 'Webb')
    const next = await directChannel(me, bob)
    const again = await post(`/messenger?index&channel=${next}`, me.cookie, { intent: 'send', channel: next, text: 'My email is nora@example.com' })
    expect(again.response.status).toBe(302)
  })

  it('refuses a new member’s link in a first message next to the field, keeping the text', async () => {
    const me = await member('Tom', 'Reed')
    const ann = await member('Ann', 'Moor', true)
    const channel = await directChannel(me, ann)
    const typed = 'Hello! See you at https://example.org/river.'
    const refused = await post(`/messenger?index&channel=${channel}`, me.cookie, { intent: 'send', channel, text: typed })
    expect(refused.response.status).toBe(400)
    expect(refused.html).toMatch(/id="message-text-error"[^>]*>[\s\S]{0,120}For everyone’s safety, links can be shared once the other member has accepted your message request\./)
    expect(refused.html).toContain(`>${typed}</textarea>`)
    expect(refused.html).toContain('<title>Error: ')
    expect(await validationOf(refused.html)).toEqual([])
  })
})

describe('Message on a public profile', () => {
  it(`says so, on the profile, when a new member has started ${newConversationsPerDay} conversations today`, async () => {
    const me = await member('Ivy', 'Lamb')
    for (let n = 0; n < newConversationsPerDay; n++) await directChannel(me, await member('Ann', `Tate${n}`))
    const other = await member('Harold', 'Cole')
    const refused = await post('/messenger/new', me.cookie, { user_id: other.user.id, slug: other.user.slug })
    expect(refused.response.status).toBe(302)
    expect(refused.response.headers.get('location')).toBe(`/p/${other.user.slug}`)
    const toast = (refused.response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    const html = await text(`/p/${other.user.slug}`, `${me.cookie}; ${toast}`)
    expect(html).toContain('You can start 5 new conversations a day while your account is new or not yet verified.')
  })
})
