import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import type { Channel, ChannelWithMessages } from '#contract/chat.ts'
import { moderationReportSchema, type ModerationReport, type ModerationReportDetail } from '#contract/moderation.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/** Reporting messages and channels, and the admins' moderation queue (issue 14 §4–5, decision 037). */

let database: TestDatabase
let api: ApiHarness
let admin: User

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  admin = await createUser(database.db, { first_name: 'Ada', last_name: 'Admin', staff_role: 'admin' })
})

afterAll(async () => {
  await database?.drop()
})

const DAY = 86_400_000

function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User | null, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: user ? await api.signToken(user.id) : undefined, body })
}

/** A direct conversation: `from` writes to `to`; answers the channel and the message's id. */
async function conversation(from: User, to: User, text = 'Hello, could you lend me some money?') {
  const opened = await as(from, 'POST', 'users/message-channels', { user_id: to.id })
  const channel = opened.json.data[0] as Channel
  const sent = await as(from, 'POST', `v1/chat/message-channels/${channel.id}/messages`, { text })
  expect(sent.status).toBe(201)
  return { channelId: channel.id, messageId: sent.json.data[0].id as string }
}

async function report(by: User, body: Record<string, unknown>) {
  return as(by, 'POST', 'v1/reported-contents', { reason: 'fake_or_scam', details: 'Asked me for money.', ...body })
}

async function messagesOf(user: User, channelId: string) {
  const response = await as(user, 'GET', `message-channels/${channelId}`)
  expect(response.status).toBe(200)
  return (response.json.data[0] as ChannelWithMessages).messages
}

async function productMessages(user: User) {
  return database.db
    .selectFrom('messages')
    .innerJoin('message_channels', 'message_channels.id', 'messages.channel_id')
    .select(['messages.product_key'])
    .where('message_channels.direct_key', '=', `product:${user.id}`)
    .execute()
}

async function act(reportId: string, body: Record<string, unknown>, by: User = admin) {
  return as(by, 'POST', `v1/admin/reports/${reportId}/actions`, { reason: 'Asked several members for money.', ...body })
}

describe('reporting a message or a channel', () => {
  it('keeps a snapshot of the message that survives its deletion', async () => {
    const [sender, reader] = [await member({ first_name: 'Victor', last_name: 'Crane' }), await member()]
    const { channelId, messageId } = await conversation(sender, reader, 'Send me a gift card, please.')
    const response = await report(reader, { message_id: messageId })
    expect(response.status).toBe(201)
    await database.db.deleteFrom('messages').where('id', '=', messageId).execute()

    const detail = await as(admin, 'GET', `v1/admin/reports/${response.json.data[0].id}`)
    expect(detail.status).toBe(200)
    const item = detail.json.data[0] as ModerationReportDetail
    expect(item).toMatchObject({
      target: 'message',
      reason: 'fake_or_scam',
      details: 'Asked me for money.',
      message_removed: true,
      reported_member: { id: sender.id, display_name: 'Victor C.' },
      snapshot: {
        kind: 'message',
        channel_id: channelId,
        message: { id: messageId, body: 'Send me a gift card, please.', sender: { id: sender.id, display_name: 'Victor C.' } },
      },
    })
  })

  it('keeps the last messages of a reported channel with their senders', async () => {
    const [sender, reader] = [await member({ first_name: 'Victor', last_name: 'Crane' }), await member({ first_name: 'Rose', last_name: 'Hall' })]
    const { channelId } = await conversation(sender, reader, 'First')
    await as(reader, 'POST', `v1/chat/message-channels/${channelId}/accept`)
    await as(reader, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Who are you?' })
    const response = await report(reader, { channel_id: channelId })
    expect(response.status).toBe(201)
    const row = await database.db.selectFrom('reports').selectAll().where('id', '=', response.json.data[0].id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ channel_id: channelId, reported_user_id: sender.id, message_id: null })
    expect(row.snapshot).toMatchObject({
      kind: 'channel',
      channel_kind: 'direct',
      messages: [
        { body: 'First', sender: { id: sender.id, display_name: 'Victor C.' } },
        { body: 'Who are you?', sender: { id: reader.id, display_name: 'Rose H.' } },
      ],
    })
  })

  it('reports and blocks in one step', async () => {
    const [sender, reader] = [await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader)
    const response = await report(reader, { message_id: messageId, block: true })
    expect(response.status).toBe(201)
    const block = await as(reader, 'GET', `v1/block/${sender.id}`)
    expect(block.json.is_blocked).toBe(true)
    const reply = await as(reader, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'No.' })
    expect(reply.status).toBe(403)
  })

  it('blocks nobody and records nothing when there is no member to block', async () => {
    const host = await member()
    const guest = await member()
    const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * DAY) })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
    const joined = await as(guest, 'PUT', `experiences/${experience.id}/message-channels/join`)
    const channelId = joined.json.data[0].id as string
    const response = await report(guest, { channel_id: channelId, block: true })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toEqual({ block: ['nothing_to_block'] })
    expect(await database.db.selectFrom('reports').select('id').where('reporter_id', '=', guest.id).execute()).toEqual([])
  })

  it('answers 404 for a message or channel the caller cannot read, and never records it', async () => {
    const [sender, reader, outsider] = [await member(), await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader)
    const host = await member()
    const experience = await createExperience(database.db, host.id)
    const hostJoined = await as(host, 'PUT', `experiences/${experience.id}/message-channels/join`)
    const activityChannel = hostJoined.json.data[0].id as string
    for (const body of [{ message_id: messageId }, { channel_id: channelId }, { channel_id: activityChannel }]) {
      const response = await report(outsider, body)
      expect(response.status, JSON.stringify(body)).toBe(404)
      expect(response.json.error.code).toBe('not_found')
    }
    expect(await database.db.selectFrom('reports').select('id').where('reporter_id', '=', outsider.id).execute()).toEqual([])
  })

  it('refuses reporting one’s own message, and two targets at once', async () => {
    const [sender, reader] = [await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader)
    expect((await report(sender, { message_id: messageId })).json.error.fields).toEqual({ message_id: ['cannot_report_self'] })
    const both = await report(reader, { message_id: messageId, channel_id: channelId })
    expect(both.status).toBe(422)
    expect(both.json.error.fields).toEqual({ target: ['target_ambiguous'] })
  })
})

describe('the moderation queue', () => {
  it('answers 401 to anonymous callers and 403 to members', async () => {
    const someone = await member()
    for (const [method, path] of [
      ['GET', 'v1/admin/reports'],
      ['GET', `v1/admin/reports/${crypto.randomUUID()}`],
      ['POST', `v1/admin/reports/${crypto.randomUUID()}/actions`],
    ] as const) {
      const body = method === 'POST' ? { action: 'dismiss', reason: 'x' } : undefined
      expect((await as(null, method, path, body)).status).toBe(401)
      expect((await as(someone, method, path, body)).status).toBe(403)
    }
    expect((await as(admin, 'GET', `v1/admin/reports/${crypto.randomUUID()}`)).status).toBe(404)
  })

  it('lists open reports, most-reported member first, then newest', async () => {
    const [often, once, r1, r2, r3] = [await member(), await member(), await member(), await member(), await member()]
    const first = await report(r1, { user_id: often.id })
    const single = await report(r1, { user_id: once.id })
    const second = await report(r2, { user_id: often.id })
    const third = await report(r3, { user_id: often.id })
    const response = await as(admin, 'GET', 'v1/admin/reports?per_page=50')
    expect(response.status).toBe(200)
    const ids = (response.json.data as ModerationReport[]).map((item) => item.id)
    const mine = [first, single, second, third].map((r) => r.json.data[0].id as string)
    expect(ids.filter((id) => mine.includes(id))).toEqual([mine[3], mine[2], mine[0], mine[1]])
    const top = (response.json.data as ModerationReport[]).find((item) => item.id === mine[3])
    expect(top).toMatchObject({ open_reports: 3, target: 'member', reported_member: { id: often.id, verification: 'not_verified', banned: false } })
  })

  it('lists a report made before snapshots were kept (its snapshot `{}`) as the web reads it, found by its columns', async () => {
    const [reporter, reported] = [await member(), await member()]
    const { id } = await database.db.insertInto('reports').values({ reporter_id: reporter.id, reported_user_id: reported.id, reason: 'fake_or_scam', details: 'Asked for gift cards.' }).returning('id').executeTakeFirstOrThrow()
    const response = await as(admin, 'GET', 'v1/admin/reports?per_page=50')
    expect(response.status).toBe(200)
    const listed = (response.json.data as unknown[]).map((item) => moderationReportSchema.parse(item))
    expect(listed.find((item) => item.id === id)).toMatchObject({ target: 'member', snapshot: { kind: 'none' }, message_removed: false, reported_member: { id: reported.id } })
  })
})

describe('acting on a report', () => {
  it('removes the message from every list, resolves its reports, writes the audit log and tells each reporter', async () => {
    const [sender, reader] = [await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader, 'Wire me 500 dollars.')
    const reportId = (await report(reader, { message_id: messageId })).json.data[0].id as string

    const response = await act(reportId, { action: 'remove_message' })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toEqual({ outcome: 'message_removed', resolved_reports: 1 })
    expect((await messagesOf(reader, channelId)).map((m) => m.body)).not.toContain('Wire me 500 dollars.')
    expect((await messagesOf(sender, channelId)).map((m) => m.body)).not.toContain('Wire me 500 dollars.')
    const row = await database.db.selectFrom('reports').selectAll().where('id', '=', reportId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ resolved_by: admin.id, outcome: 'message_removed' })
    expect(row.resolved_at).toBeInstanceOf(Date)
    const audit = await database.db.selectFrom('audit_log').selectAll().where('action', '=', 'report.remove_message').where('target_id', '=', messageId).executeTakeFirstOrThrow()
    expect(audit).toMatchObject({ actor_id: admin.id, target_type: 'message' })
    expect(audit.data).toMatchObject({ reason: 'Asked several members for money.', report_id: reportId, user_id: sender.id })
    expect(await productMessages(reader)).toEqual([{ product_key: 'reportHandled' }])
    expect(await productMessages(sender)).toEqual([])
    // The reporter reads it in their product channel, in their language.
    const channels = await as(reader, 'GET', 'v1/chat/message-channels')
    const bodies = (channels.json.data as Channel[]).flatMap((channel) => channel.last_messages.map((m) => m.body))
    expect(bodies).toContain('Thank you for your report. Our team has looked into it and taken care of it.')

    const again = await act(reportId, { action: 'dismiss' })
    expect(again.status).toBe(409)
    expect(again.json.error.code).toBe('report_resolved')
  })

  it('dismisses one report only, and requires a reason', async () => {
    const [someone, r1, r2] = [await member(), await member(), await member()]
    const a = (await report(r1, { user_id: someone.id })).json.data[0].id as string
    const b = (await report(r2, { user_id: someone.id })).json.data[0].id as string
    const noReason = await as(admin, 'POST', `v1/admin/reports/${a}/actions`, { action: 'dismiss', reason: '  ' })
    expect(noReason.status).toBe(422)
    expect(noReason.json.error.fields).toEqual({ reason: ['reason_required'] })
    expect((await act(a, { action: 'dismiss' })).json.data[0]).toEqual({ outcome: 'dismissed', resolved_reports: 1 })
    const other = await database.db.selectFrom('reports').select('resolved_at').where('id', '=', b).executeTakeFirstOrThrow()
    expect(other.resolved_at).toBeNull()
    expect(await productMessages(r1)).toEqual([{ product_key: 'reportHandled' }])
  })

  it('warns the member with a product message', async () => {
    const [someone, reporter] = [await member(), await member()]
    const reportId = (await report(reporter, { user_id: someone.id })).json.data[0].id as string
    expect((await act(reportId, { action: 'warn' })).json.data[0].outcome).toBe('warned')
    expect(await productMessages(someone)).toEqual([{ product_key: 'moderationWarning' }])
    const detail = await as(admin, 'GET', `v1/admin/reports/${reportId}`)
    expect(detail.json.data[0]).toMatchObject({ outcome: 'warned', resolved_at: expect.any(String) })
  })

  it('suspends until a date in the future: sessions end, the token is refused, messages are hidden, the history shows it', async () => {
    const [sender, reader, other] = [await member(), await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader, 'Call me on my other phone.')
    const first = (await report(other, { user_id: sender.id })).json.data[0].id as string
    const reportId = (await report(reader, { message_id: messageId })).json.data[0].id as string
    await database.db.insertInto('web_sessions').values({ id: `s-${sender.id}`, user_id: sender.id, expires_at: new Date(Date.now() + DAY) }).execute()

    const today = new Date().toISOString().slice(0, 10)
    const past = await act(reportId, { action: 'suspend', suspended_until: today })
    expect(past.status).toBe(422)
    expect(past.json.error.fields).toEqual({ suspended_until: ['suspended_until_past'] })
    expect((await act(reportId, { action: 'suspend' })).json.error.fields).toEqual({ suspended_until: ['suspended_until_required'] })

    const until = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10)
    const response = await act(reportId, { action: 'suspend', suspended_until: until })
    expect(response.json.data[0]).toEqual({ outcome: 'suspended', resolved_reports: 2 })
    const user = await database.db.selectFrom('users').selectAll().where('id', '=', sender.id).executeTakeFirstOrThrow()
    expect(user).toMatchObject({ is_suspended: true, suspended_until: new Date(`${until}T00:00:00Z`) })
    expect(await database.db.selectFrom('web_sessions').select('id').where('user_id', '=', sender.id).execute()).toEqual([])
    expect((await as(sender, 'GET', 'v1/users/me')).json.error.code).toBe('user_suspended')
    expect((await messagesOf(reader, channelId)).map((m) => m.body)).not.toContain('Call me on my other phone.')
    const audit = await database.db.selectFrom('audit_log').selectAll().where('action', '=', 'report.suspend').where('target_id', '=', sender.id).executeTakeFirstOrThrow()
    expect(audit.data).toMatchObject({ suspended_until: `${until}T00:00:00.000Z`, resolved_report_ids: expect.arrayContaining([first, reportId]) })

    // The history of a later report shows both earlier ones and their outcome.
    const later = (await report(other, { user_id: sender.id, reason: 'something_else' })).json.data[0].id as string
    const detail = (await as(admin, 'GET', `v1/admin/reports/${later}`)).json.data[0] as ModerationReportDetail
    expect(detail.reported_member).toMatchObject({ is_suspended: true, suspended_until: `${until}T00:00:00.000Z` })
    expect(detail.history.map((item) => [item.id, item.outcome]).sort()).toEqual([[first, 'suspended'], [reportId, 'suspended']].sort())
  })

  it('lifts a suspension whose end date has passed when the member comes back', async () => {
    const someone = await member({ is_suspended: true, suspended_until: new Date(Date.now() - 1000) })
    const me = await as(someone, 'GET', 'v1/users/me')
    expect(me.status).toBe(200)
    const user = await database.db.selectFrom('users').selectAll().where('id', '=', someone.id).executeTakeFirstOrThrow()
    expect(user).toMatchObject({ is_suspended: false, suspended_until: null })
  })

  it('bans the member: token refused, messages hidden', async () => {
    const [sender, reader] = [await member(), await member()]
    const { channelId, messageId } = await conversation(sender, reader, 'Download this app to talk.')
    const reportId = (await report(reader, { message_id: messageId })).json.data[0].id as string
    expect((await act(reportId, { action: 'ban' })).json.data[0].outcome).toBe('banned')
    expect((await database.db.selectFrom('users').select('banned').where('id', '=', sender.id).executeTakeFirstOrThrow()).banned).toBe(true)
    expect((await as(sender, 'GET', 'v1/users/me')).json.error.code).toBe('user_suspended')
    expect((await messagesOf(reader, channelId)).map((m) => m.body)).not.toContain('Download this app to talk.')
    expect(await database.db.selectFrom('audit_log').select('actor_id').where('action', '=', 'report.ban').where('target_id', '=', sender.id).execute()).toEqual([
      { actor_id: admin.id },
    ])
  })

  it('refuses removing the message of a report that is not about a message', async () => {
    const [someone, reporter] = [await member(), await member()]
    const reportId = (await report(reporter, { user_id: someone.id })).json.data[0].id as string
    const response = await act(reportId, { action: 'remove_message' })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toEqual({ action: ['no_message'] })
  })
})
