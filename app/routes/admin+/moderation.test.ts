import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import * as messenger from '../messenger+/_index.tsx'
import * as messengerReport from '../messenger+/report.tsx'
import * as memberReport from '../p+/$slug_.report.tsx'
import * as adminHome from './_index.tsx'
import * as queue from './reports.tsx'
import * as review from './reports_.$id.tsx'
import { routePages, validationOf } from '#tests/route-pages.ts'

/** Reporting from /messenger and the admins' report pages (issue 14 §4–5, decision 037), without JavaScript. */
const pages = routePages([
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
  { id: 'routes/messenger+/report', path: 'messenger/report', module: messengerReport as never },
  { id: 'routes/p+/$slug_.report', path: 'p/:slug/report', module: memberReport as never },
  { id: 'routes/admin+/_index', path: 'admin', module: adminHome as never },
  { id: 'routes/admin+/reports', path: 'admin/reports', module: queue as never },
  { id: 'routes/admin+/reports_.$id', path: 'admin/reports/:id', module: review as never },
])
const { get, post } = pages

async function member(first: string, last: string, admin = false) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, staff_role: admin ? 'admin' : null })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}
type Member = Awaited<ReturnType<typeof member>>

/** `from` writes to `to`: the channel and the message. */
async function conversation(from: Member, to: Member, text: string) {
  const opened = await pages.web.api.request('POST', 'users/message-channels', { token: from.token, body: { user_id: to.user.id } })
  const channel = (opened.json as { data: [{ id: string }] }).data[0].id
  const sent = await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: from.token, body: { text } })
  return { channel, message: (sent.json as { data: [{ id: string }] }).data[0].id }
}

describe('/messenger/report', () => {
  it('offers Report on another member’s message, in the options and in the message request', async () => {
    const [ann, bea] = [await member('Ann', 'Baker'), await member('Bea', 'Cole')]
    const { channel, message } = await conversation(ann, bea, 'Hello Bea')
    const theirs = await get(`/messenger?channel=${channel}`, bea.cookie)
    expect(theirs.html).toContain(`href="/messenger/report?channel=${channel}&message=${message}">Report</a>`)
    expect(theirs.html).toContain(`href="/messenger/report?channel=${channel}">Report this conversation</a>`)
    expect(theirs.html).toMatch(new RegExp(`Decline and leave</a>(<a [^>]*>Block(<span class="visually-hidden">[^<]*</span>)?</a>)?<a [^>]*href="/messenger/report\\?channel=${channel}"[^>]*>Report</a>`))
    const mine = await get(`/messenger?channel=${channel}`, ann.cookie)
    expect(mine.html).not.toContain('&message=')
  })

  it('reports a message with a reason, details and a block, then goes back to the channel', async () => {
    const [ann, bea] = [await member('Ann', 'Baker'), await member('Bea', 'Cole')]
    const { channel, message } = await conversation(ann, bea, 'Please send me a gift card')
    const path = `/messenger/report?channel=${channel}&message=${message}`
    const form = await get(path, bea.cookie)
    expect(form.response.status).toBe(200)
    expect(form.html).toContain('<h1>Report a message</h1>')
    expect(form.html).toContain('Please send me a gift card')
    expect(form.html).toContain('<label for="block">Also block Ann B.</label>')
    expect(await validationOf(form.html)).toEqual([])

    const missing = await post(path, bea.cookie, { details: 'Asked for a gift card.' })
    expect(missing.response.status).toBe(400)
    expect(missing.html).toContain('Please choose a reason.')
    expect(missing.html).toContain('Asked for a gift card.')
    expect(await validationOf(missing.html)).toEqual([])

    const sent = await post(path, bea.cookie, { reason: 'fake_or_scam', details: 'Asked for a gift card.', block: 'on' })
    expect(sent.response.status).toBe(302)
    expect(sent.response.headers.get('location')).toBe(`/messenger?channel=${channel}`)
    const report = await pages.database.db.selectFrom('reports').selectAll().where('reporter_id', '=', bea.user.id).executeTakeFirstOrThrow()
    expect(report).toMatchObject({ message_id: message, reported_user_id: ann.user.id, reason: 'fake_or_scam', details: 'Asked for a gift card.' })
    const block = await pages.database.db.selectFrom('blocks').selectAll().where('blocker_id', '=', bea.user.id).execute()
    expect(block.map((row) => row.blocked_id)).toEqual([ann.user.id])
  })

  it('reports the whole conversation; one’s own message and a stranger’s channel are not found', async () => {
    const [ann, bea, cat] = [await member('Ann', 'Baker'), await member('Bea', 'Cole'), await member('Cat', 'Dunn')]
    const { channel, message } = await conversation(ann, bea, 'Hi')
    const form = await get(`/messenger/report?channel=${channel}`, bea.cookie)
    expect(form.html).toContain('<h1>Report this conversation</h1>')
    expect(form.html).toContain('Is something wrong in your conversation with Ann B.?')
    const sent = await post(`/messenger/report?channel=${channel}`, bea.cookie, { reason: 'something_else' })
    expect(sent.response.status).toBe(302)
    expect((await get(`/messenger/report?channel=${channel}&message=${message}`, ann.cookie)).response.status).toBe(404)
    expect((await get(`/messenger/report?channel=${channel}`, cat.cookie)).response.status).toBe(404)
  })

  it('finds a message beyond the newest page of the conversation', async () => {
    const [ann, bea] = [await member('Ann', 'Baker'), await member('Bea', 'Cole')]
    const { channel, message } = await conversation(ann, bea, 'An early message')
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/accept`, { token: bea.token })
    for (let index = 0; index < 31; index++) {
      await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: ann.token, body: { text: `Later ${index}` } })
    }
    const form = await get(`/messenger/report?channel=${channel}&message=${message}`, bea.cookie)
    expect(form.response.status).toBe(200)
    expect(form.html).toContain('An early message')
  })

  it('adds "Also block" to a member’s report page', async () => {
    const [ann, bea] = [await member('Ann', 'Baker'), await member('Bea', 'Cole')]
    const form = await get(`/p/${ann.user.slug}/report`, bea.cookie)
    expect(form.html).toContain('<label for="block">Also block Ann B.</label>')
    const sent = await post(`/p/${ann.user.slug}/report`, bea.cookie, { reason: 'something_else', block: 'on' })
    expect(sent.response.status).toBe(302)
    expect(await pages.database.db.selectFrom('blocks').select('blocked_id').where('blocker_id', '=', bea.user.id).execute()).toEqual([{ blocked_id: ann.user.id }])
  })
})

describe('/admin/reports', () => {
  it('is for admins: members get 404 at /admin and 403 at the queue', async () => {
    const someone = await member('Sid', 'Ray')
    expect((await get('/admin', someone.cookie)).response.status).toBe(404)
    expect((await get('/admin/reports', someone.cookie)).response.status).toBe(403)
    const admin = await member('Ada', 'Admin', true)
    const home = await get('/admin', admin.cookie)
    expect(home.html).toContain('href="/admin/reports">Reports</a>')
    expect(home.html).toContain('href="/admin/verifications">Identity checks</a>')
    expect(await validationOf(home.html)).toEqual([])
  })

  it('shows the queue with snapshots, one report with the member’s history, and removes the message with a reason', async () => {
    const admin = await member('Ada', 'Admin', true)
    const [ann, bea] = [await member('Vic', 'Crane'), await member('Bea', 'Cole')]
    const { channel, message } = await conversation(ann, bea, 'Wire me the money today')
    await post(`/messenger/report?channel=${channel}&message=${message}`, bea.cookie, { reason: 'fake_or_scam', details: 'Money again.' })
    const report = await pages.database.db.selectFrom('reports').select('id').where('reporter_id', '=', bea.user.id).executeTakeFirstOrThrow()

    const list = await get('/admin/reports', admin.cookie)
    expect(list.response.status).toBe(200)
    expect(list.html).toContain(`href="/admin/reports/${report.id}">Report about Vic C.</a>`)
    expect(list.html).toContain('Wire me the money today')
    expect(list.html).toContain('Money again.')
    expect(await validationOf(list.html)).toEqual([])

    const path = `/admin/reports/${report.id}`
    const detail = await get(path, admin.cookie)
    expect(detail.html).toContain('<h1>Report about Vic C.</h1>')
    expect(detail.html).toContain('Not verified')
    expect(detail.html).toContain('No earlier reports.')
    expect(detail.html).toContain('Remove the message')
    expect(await validationOf(detail.html)).toEqual([])

    const noReason = await post(path, admin.cookie, { intent: 'remove_message', reason: ' ' })
    expect(noReason.response.status).toBe(400)
    expect(noReason.html).toContain('Please say why.')
    expect(noReason.html).toContain('<title>Error: ')
    expect(await validationOf(noReason.html)).toEqual([])

    const past = await post(path, admin.cookie, { intent: 'suspend', reason: 'Scam.', until: '2020-01-01' })
    expect(past.response.status).toBe(400)
    expect(past.html).toContain('Please choose a date after today.')
    expect(past.html).toContain('Scam.')

    const done = await post(path, admin.cookie, { intent: 'remove_message', reason: 'Asks for money.' })
    expect(done.response.status).toBe(302)
    expect(done.response.headers.get('location')).toBe('/admin/reports')
    const row = await pages.database.db.selectFrom('messages').select('deleted_at').where('id', '=', message).executeTakeFirstOrThrow()
    expect(row.deleted_at).toBeInstanceOf(Date)

    const handled = await get(path, admin.cookie)
    expect(handled.html).toContain('message removed')
    expect(handled.html).toContain('This message has since been removed.')
    expect(handled.html).not.toContain('<h2 id="actions-title">')
  })
})
