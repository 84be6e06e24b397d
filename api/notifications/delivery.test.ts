import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createApiHarness, createExperience, createUser, testDeliveryDeps, testNotifier, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { NOTIFICATION_LATER_JOB, deliverLater, deliverNotification, type PushPayload, type SmsChannel } from './delivery.ts'
import type { NotificationEvent, Notify } from './service.ts'

/**
 * Delivery by the member's settings (issue 15 §1, §3, §4; decision 047): each event reaches
 * in-app, email, push and text as the member's switches say; emails about a topic carry RFC
 * 8058's one-click unsubscribe, which works without signing in; push and texts wait out quiet hours.
 */

let database: TestDatabase
let api: ApiHarness
let notify: Notify

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  notify = testNotifier(database.db).notify
})

afterAll(async () => {
  await database?.drop()
})

/** A member in Chicago (so quiet hours are Chicago's). */
const member = (overrides: Partial<NewUser> = {}) => createUser(database.db, { lat: 41.88, long: -87.63, ...overrides })

/** Push and texts, recorded instead of sent (their providers are tested on their own). */
function channels() {
  const pushes: { userId: string; payload: PushPayload }[] = []
  const texts: Parameters<SmsChannel['send']>[0][] = []
  return {
    pushes,
    texts,
    push: { queue: async (_trx: unknown, userId: string, payload: PushPayload) => void pushes.push({ userId, payload }) },
    sms: { send: async (message: Parameters<SmsChannel['send']>[0]) => (texts.push(message), true) },
  }
}

/** Noon in Chicago (UTC−6 in winter), and 23:00. */
const noon = () => new Date('2026-11-24T18:00:00Z')
const lateEvening = () => new Date('2026-11-25T05:00:00Z')

async function tell(user: User, event: Omit<NotificationEvent, 'to'> = { type: 'sample', data: {} }) {
  const [id] = await notify({ ...event, to: [user.id] } as NotificationEvent)
  return id!
}

const emailsTo = (user: User) =>
  database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', user.email!).orderBy('created_at').execute()

async function setting(user: User, body: unknown, which: 'global' | 'workflow' = 'workflow') {
  const token = await api.signToken(user.id)
  const response = await api.request('PUT', `v1/notifications/settings/${which}`, { token, body })
  expect(response.status).toBe(200)
}

describe('delivery by the member’s settings', () => {
  it('emails by default, with a one-click unsubscribe for the topic (RFC 8058), and never pushes or texts unasked', async () => {
    const ann = await member({ first_name: 'Ann' })
    const sent = channels()
    const result = await deliverNotification(testDeliveryDeps(database.db, { ...sent, now: noon }), await tell(ann))
    expect(result?.sent).toEqual(['email'])
    expect(sent.pushes).toEqual([])
    expect(sent.texts).toEqual([])
    const [email] = await emailsTo(ann)
    expect(email?.subject).toBe('A test notification')
    expect(email?.text_body).toMatch(/^Hello Ann,/)
    expect(email?.text_body).toContain('“News from Circle 55” is switched on')
    const link = /\/unsubscribe\/([\w.-]+)/.exec(email!.text_body)![1]!
    expect(email?.headers).toEqual({
      'List-Unsubscribe': `<${TEST_PUBLIC_URL}/unsubscribe/${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    })
  })

  it('unsubscribes with the mail program’s one-click POST, without signing in, from that topic’s emails only', async () => {
    const bea = await member()
    const deps = testDeliveryDeps(database.db, { now: noon })
    await deliverNotification(deps, await tell(bea))
    const [email] = await emailsTo(bea)
    // The header's page forwards to this endpoint (app/routes/unsubscribe.test.ts).
    const link = /\/unsubscribe\/([\w.-]+)>/.exec(email!.headers!['List-Unsubscribe']!)![1]!
    const url = new URL(`${TEST_PUBLIC_URL}/api/v1/notifications/unsubscribe/${link}`)

    const info = await api.request('GET', url.pathname)
    expect(info.json).toEqual({ data: [{ topic: 'product_updates' }] })
    const oneClick = await api.request('POST', url.pathname, { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(oneClick.status).toBe(200)
    expect(oneClick.json).toEqual({ data: [{ topic: 'product_updates' }] })
    // Twice is fine (mail programs retry).
    expect((await api.request('POST', url.pathname)).status).toBe(200)

    expect((await deliverNotification(deps, await tell(bea)))?.sent).toEqual([])
    expect(await emailsTo(bea)).toHaveLength(1)
    // The member's settings say so, and the other topics still email.
    const token = await api.signToken(bea.id)
    const workflow = await api.request('GET', 'v1/notifications/settings/workflow', { token })
    const topics = workflow.json.workflow.settings as { template_id: string; preference: { channels: Record<string, boolean> } }[]
    expect(topics.find((topic) => topic.template_id === 'product_updates')?.preference.channels.email).toBe(false)
    expect(topics.find((topic) => topic.template_id === 'hosting')?.preference.channels.email).toBe(true)
  })

  it('refuses a link that was not made by us, or was changed', async () => {
    const cat = await member()
    await deliverNotification(testDeliveryDeps(database.db, { now: noon }), await tell(cat))
    const [email] = await emailsTo(cat)
    const token = /\/unsubscribe\/([\w.-]+)/.exec(email!.text_body)![1]!
    const [payload, signature] = token.split('.')
    const otherTopic = Buffer.from(`${cat.id}:hosting`).toString('base64url')
    for (const forged of [`${otherTopic}.${signature}`, `${payload}.AAAA`, 'nonsense'])
      expect((await api.request('POST', `v1/notifications/unsubscribe/${forged}`)).status).toBe(404)
  })

  it('keeps a notification out of the list when the member turned in-app off for its topic', async () => {
    const dan = await member()
    await setting(dan, { settings: [{ template_id: 'product_updates', preference: { channels: { in_app: false } } }] })
    await tell(dan)
    await tell(dan, { type: 'report.handled', data: { report_id: crypto.randomUUID() } })
    const list = await api.request('GET', 'users/notifications', { token: await api.signToken(dan.id) })
    expect(list.json.data.map((n: { type: string }) => n.type)).toEqual(['report.handled'])
  })

  it('pushes once the member has a device, and texts once the member turns texts on', async () => {
    const eve = await member()
    await database.db.insertInto('devices').values({ user_id: eve.id, kind: 'web_push', token: `https://push.example/${crypto.randomUUID()}` }).execute()
    await setting(eve, { preferences: [{ type: 'sms', enabled: true }] }, 'global')
    const sent = channels()
    const id = await tell(eve, { type: 'report.handled', data: { report_id: crypto.randomUUID() } })
    // Account notices have no topic: in-app and email only.
    expect((await deliverNotification(testDeliveryDeps(database.db, { ...sent, now: noon }), id))?.sent).toEqual(['email'])

    await setting(eve, { settings: [{ template_id: 'product_updates', preference: { channels: { sms: true } } }] })
    const result = await deliverNotification(testDeliveryDeps(database.db, { ...sent, now: noon }), await tell(eve))
    expect(result?.sent).toEqual(['email', 'sms'])
    expect(sent.texts).toEqual([expect.objectContaining({ userId: eve.id, kind: 'sample', locale: 'en', text: expect.stringContaining(`${TEST_PUBLIC_URL}/notifications`) })])
    // Push is off by default for product news; the member can turn it on.
    await setting(eve, { settings: [{ template_id: 'product_updates', preference: { channels: { push: true } } }] })
    const pushed = await deliverNotification(testDeliveryDeps(database.db, { ...sent, now: noon }), await tell(eve))
    expect(pushed?.sent).toEqual(['email', 'push', 'sms'])
    expect(sent.pushes).toEqual([{ userId: eve.id, payload: { title: 'A test notification', body: expect.any(String), url: `${TEST_PUBLIC_URL}/notifications`, tag: expect.any(String) } }])
  })

  it('names the activity on a text only when it offers "reply C to cancel"', async () => {
    const host = await member()
    const hal = await member()
    await setting(hal, { preferences: [{ type: 'sms', enabled: true }] }, 'global')
    const walk = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 3 * 86_400_000) })
    await database.db.insertInto('experience_attendees').values({ experience_id: walk.id, user_id: hal.id }).execute()
    const sent = channels()
    const deps = testDeliveryDeps(database.db, { ...sent, now: noon })
    await deliverNotification(deps, await tell(hal, { type: 'experience.changed', data: { experience_id: walk.id, changes: ['place'] } }))
    await deliverNotification(deps, await tell(hal, { type: 'experience.reminder', data: { experience_id: walk.id, slot: '24h', start_at: walk.start_at!.toISOString() } }))
    expect(sent.texts.map((text) => [text.kind, text.experienceId, text.text.includes('Reply C')])).toEqual([
      ['experience.changed', undefined, false],
      ['experience.reminder', walk.id, true],
    ])
  })

  it('holds push and texts back during quiet hours and sends them at 08:00; email goes at once', async () => {
    const fay = await member()
    await setting(fay, { preferences: [{ type: 'sms', enabled: true }] }, 'global')
    await setting(fay, { settings: [{ template_id: 'product_updates', preference: { channels: { sms: true } } }] })
    const sent = channels()
    const deps = testDeliveryDeps(database.db, { ...sent, now: lateEvening })
    const id = await tell(fay)
    expect((await deliverNotification(deps, id))?.sent).toEqual(['email'])
    expect(sent.texts).toEqual([])
    expect(deps.later).toEqual([{ name: NOTIFICATION_LATER_JOB, data: { id, channels: ['sms'] }, startAfter: new Date('2026-11-25T14:00:00Z') }])
    expect(await deliverLater(deps, { id, channels: ['sms'] })).toEqual(['sms'])
    expect(sent.texts).toHaveLength(1)
    // Texts turned off overnight: the held-back text is not sent.
    const later = await tell(fay)
    await deliverNotification(deps, later)
    await setting(fay, { preferences: [{ type: 'sms', enabled: false }] }, 'global')
    expect(await deliverLater(deps, { id: later, channels: ['sms'] })).toEqual([])
    expect(sent.texts).toHaveLength(1)
  })

  it('tells nobody who is suspended or deleted since, and does it once', async () => {
    const gil = await member()
    const id = await tell(gil)
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', gil.id).execute()
    const deps = testDeliveryDeps(database.db, { now: noon })
    expect((await deliverNotification(deps, id))?.sent).toEqual([])
    expect(await deliverNotification(deps, id)).toBeNull()
    expect(await emailsTo(gil)).toEqual([])
  })

  it('sends each event type by its topic’s switches: every channel when all are on, none of a topic turned off', async () => {
    const host = await member()
    const fan = await member()
    await database.db.insertInto('devices').values({ user_id: fan.id, kind: 'web_push', token: `https://push.example/${crypto.randomUUID()}` }).execute()
    await setting(fan, { preferences: [{ type: 'sms', enabled: true }] }, 'global')
    const everything = { in_app: true, email: true, push: true, sms: true }
    const topics = ['activity_updates', 'hosting', 'feedback', 'recommendations', 'product_updates', 'reminders', 'direct_messages'] as const
    await setting(fan, { settings: topics.map((template_id) => ({ template_id, preference: { channels: everything } })) })
    const cancelled = await createExperience(database.db, host.id, { canceled_at: new Date() })
    const ended = await createExperience(database.db, host.id, { start_at: new Date(Date.now() - 86_400_000) })
    const upcoming = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + 5 * 86_400_000) })
    const events: Omit<NotificationEvent, 'to'>[] = [
      { type: 'sample', data: {} },
      { type: 'experience.canceled', data: { experience_id: cancelled.id, canceled_by: host.id } },
      { type: 'experience.attendee_left', data: { experience_id: ended.id, attendee_id: host.id } },
      { type: 'experience.attendance_survey', data: { experience_id: ended.id } },
      { type: 'experience.recommended', data: { experience_ids: [upcoming.id] } },
      { type: 'report.handled', data: { report_id: crypto.randomUUID() } },
    ]
    const sent = channels()
    const deps = testDeliveryDeps(database.db, { ...sent, now: noon })
    const outcome = async () => {
      const result: Record<string, string[]> = {}
      for (const event of events) result[event.type] = (await deliverNotification(deps, await tell(fan, event)))?.sent ?? []
      return result
    }
    expect(await outcome()).toEqual({
      sample: ['email', 'push', 'sms'],
      'experience.canceled': ['email', 'push', 'sms'],
      'experience.attendee_left': ['email', 'push', 'sms'],
      'experience.attendance_survey': ['email', 'push', 'sms'],
      'experience.recommended': ['email', 'push', 'sms'],
      // An account notice: in-app and email, whatever the topics say.
      'report.handled': ['email'],
    })
    const nothing = { in_app: false, email: false, push: false, sms: false }
    await setting(fan, { settings: topics.map((template_id) => ({ template_id, preference: { channels: nothing } })) })
    expect(Object.values(await outcome())).toEqual([[], [], [], [], [], ['email']])
    // And in-app: only what came while in-app was on, plus the account notices.
    const list = await api.request('GET', 'users/notifications?per_page=50', { token: await api.signToken(fan.id) })
    expect(list.json.metadata.total_count).toBe(events.length + 1)
  })
})
