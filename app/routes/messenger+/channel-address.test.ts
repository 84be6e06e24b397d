import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { routePages } from '#tests/route-pages.ts'
import * as channelAddress from './$channel.tsx'
import * as messenger from './_index.tsx'
import * as newChannel from './new.tsx'
import * as report from './report.tsx'

/**
 * `/messenger/{channel}`, the mobile app's address of a conversation (spec §2, decision 088): a
 * link from the app's notifications opens the same conversation as `/messenger?channel={id}`.
 */
const pages = routePages([
  { id: 'routes/messenger+/_index', path: 'messenger', index: undefined, module: messenger as never },
  { id: 'routes/messenger+/new', path: 'messenger/new', module: newChannel as never },
  { id: 'routes/messenger+/report', path: 'messenger/report', module: report as never },
  { id: 'routes/messenger+/$channel', path: 'messenger/:channel', module: channelAddress },
])
const { page, text } = pages

async function conversation() {
  const me = await createUser(pages.database.db, { first_name: 'Agnes', last_name: 'Whitfield' })
  const friend = await createUser(pages.database.db, { first_name: 'Bernard', last_name: 'Okafor' })
  const token = await pages.web.api.signToken(friend.id)
  const opened = await pages.web.api.request('POST', 'users/message-channels', { token, body: { user_id: me.id } })
  const channel = (opened.json as { data: [{ id: string }] }).data[0].id
  const sent = await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token, body: { text: 'See you at the river walk on Saturday?' } })
  expect(sent.status).toBe(201)
  return { channel, cookie: await pages.web.signedInCookie(me.id) }
}

describe('/messenger/{channel}', () => {
  it('opens the same conversation as /messenger?channel=, keeping the rest of the address', async () => {
    const { channel, cookie } = await conversation()
    const moved = await page(`/messenger/${channel}?before=2030-01-01T00%3A00%3A00.000Z&channel=other`, cookie)
    expect(moved.status).toBe(302)
    expect(moved.headers.get('location')).toBe(`/messenger?channel=${channel}&before=2030-01-01T00%3A00%3A00.000Z`)

    const plain = await page(`/messenger/${channel}`, cookie)
    expect(plain.headers.get('location')).toBe(`/messenger?channel=${channel}`)
    const opened = await text(plain.headers.get('location')!, cookie)
    expect(opened).toContain('See you at the river walk on Saturday?')
    expect(opened).toContain('<title>Messages with Bernard O. – Circle 55</title>')
  })

  it('behaves as the ?channel= form for a visitor, and for a channel that is unknown or not an id', async () => {
    const { cookie } = await conversation()
    // A visitor: sent to sign in, coming back to the conversation's web address.
    const visitor = await page('/messenger/00000000-0000-4000-8000-000000000000', '')
    expect(visitor.headers.get('location')).toBe('/messenger?channel=00000000-0000-4000-8000-000000000000')
    const signIn = await page(visitor.headers.get('location')!, '')
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get('location')).toMatch(/^\/login\?returnTo=/)

    for (const channel of ['00000000-0000-4000-8000-000000000000', 'not-a-channel']) {
      const moved = await page(`/messenger/${encodeURIComponent(channel)}`, cookie)
      expect(moved.status).toBe(302)
      const target = moved.headers.get('location')!
      expect(target).toBe(`/messenger?channel=${channel}`)
      const viaAlias = await page(target, cookie)
      const direct = await page(`/messenger?channel=${channel}`, cookie)
      expect(viaAlias.status).toBe(direct.status)
      expect(viaAlias.status).toBe(404)
    }
  })

  it('leaves /messenger/new and /messenger/report to their own pages', async () => {
    const { cookie } = await conversation()
    const fresh = await page('/messenger/new', cookie)
    expect(fresh.status).toBe(200)
    expect(await fresh.text()).toContain('<h1>New message</h1>')
    const reporting = await page('/messenger/report', cookie)
    expect(reporting.headers.get('location') ?? '').not.toContain('channel=report')
  })
})
