import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import {
  deviceListSchema,
  globalSettingsSchema,
  workflowSettingsSchema,
  type WorkflowSettings,
} from '#contract/notification-settings.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { channelsFor } from './preferences.ts'

/** Notification settings (issue 15 §4, decision 044) as an API client and delivery see them. */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

async function as(user: User) {
  const token = await api.signToken(user.id)
  return (method: string, path: string, body?: unknown) =>
    api.request(method, path, { token, body })
}

const topic = (json: WorkflowSettings, id: string) =>
  json.workflow.settings.find((setting) => setting.template_id === id)!.preference.channels

describe('GET and PUT /api/v1/notifications/settings/global', () => {
  it('starts with in-app and email on, push and texts off', async () => {
    const call = await as(await createUser(database.db))
    const response = await call('GET', 'v1/notifications/settings/global')
    expect(response.status).toBe(200)
    expect(globalSettingsSchema.parse(response.json)).toEqual({
      global: { channels: { in_app: true, email: true, push: false, sms: false } },
    })
  })

  it('turns push on by default once the member allowed it on a device', async () => {
    const user = await createUser(database.db)
    await database.db
      .insertInto('devices')
      .values({ user_id: user.id, kind: 'web_push', token: `https://push.test/${user.id}` })
      .execute()
    const call = await as(user)
    expect((await call('GET', 'v1/notifications/settings/global')).json.global.channels.push).toBe(
      true,
    )
  })

  it('changes only the channels sent and keeps them', async () => {
    const call = await as(await createUser(database.db))
    const changed = await call('PUT', 'v1/notifications/settings/global', {
      preferences: [
        { type: 'email', enabled: false },
        { type: 'sms', enabled: true },
      ],
    })
    expect(changed.status).toBe(200)
    expect(changed.json.global.channels).toEqual({
      in_app: true,
      email: false,
      push: false,
      sms: true,
    })
    expect((await call('GET', 'v1/notifications/settings/global')).json).toEqual(changed.json)
    const back = await call('PUT', 'v1/notifications/settings/global', {
      preferences: [{ type: 'email', enabled: true }],
    })
    expect(back.json.global.channels).toEqual({ in_app: true, email: true, push: false, sms: true })
  })

  it('refuses an unknown channel, a repeated one, an empty list and a non-boolean, with the field', async () => {
    const call = await as(await createUser(database.db))
    const unknown = await call('PUT', 'v1/notifications/settings/global', {
      preferences: [{ type: 'fax', enabled: true }],
    })
    expect(unknown.status).toBe(422)
    expect(Object.keys(unknown.json.error.fields)).toEqual(['preferences.0.type'])
    const twice = await call('PUT', 'v1/notifications/settings/global', {
      preferences: [
        { type: 'sms', enabled: true },
        { type: 'sms', enabled: false },
      ],
    })
    expect(twice.json.error.fields).toEqual({ preferences: ['duplicate_type'] })
    expect(
      (await call('PUT', 'v1/notifications/settings/global', { preferences: [] })).json.error
        .fields,
    ).toEqual({ preferences: ['preferences_required'] })
    expect(
      (
        await call('PUT', 'v1/notifications/settings/global', {
          preferences: [{ type: 'sms', enabled: 'yes' }],
        })
      ).status,
    ).toBe(422)
    expect((await call('GET', 'v1/notifications/settings/global')).json.global.channels.sms).toBe(
      false,
    )
  })

  it('asks for a signed-in member', async () => {
    expect((await api.request('GET', 'v1/notifications/settings/global')).status).toBe(401)
    expect(
      (
        await api.request('PUT', 'v1/notifications/settings/global', {
          body: { preferences: [{ type: 'sms', enabled: true }] },
        })
      ).status,
    ).toBe(401)
  })
})

describe('GET and PUT /api/v1/notifications/settings/workflow', () => {
  it('lists every topic with its trigger and defaults: suggestions off until asked', async () => {
    const call = await as(await createUser(database.db))
    const response = await call('GET', 'v1/notifications/settings/workflow')
    expect(response.status).toBe(200)
    const settings = workflowSettingsSchema.parse(response.json).workflow.settings
    expect(settings.map((setting) => setting.template_id)).toEqual([
      'activity_updates',
      'reminders',
      'direct_messages',
      'hosting',
      'feedback',
      'recommendations',
      'distance',
      'out_of_state',
      'product_updates',
    ])
    expect(settings.find((setting) => setting.template_id === 'direct_messages')?.trigger).toBe(
      'message.new',
    )
    expect(topic(response.json, 'reminders')).toEqual({
      in_app: true,
      email: true,
      push: true,
      sms: true,
    })
    expect(topic(response.json, 'recommendations')).toEqual({
      in_app: false,
      email: false,
      push: false,
      sms: false,
    })
  })

  it('changes the channels sent for the topics sent, and nothing else', async () => {
    const call = await as(await createUser(database.db))
    const changed = await call('PUT', 'v1/notifications/settings/workflow', {
      settings: [
        { template_id: 'recommendations', preference: { channels: { in_app: true, email: true } } },
        { template_id: 'direct_messages', preference: { channels: { email: false } } },
      ],
    })
    expect(changed.status).toBe(200)
    expect(topic(changed.json, 'recommendations')).toEqual({
      in_app: true,
      email: true,
      push: false,
      sms: false,
    })
    expect(topic(changed.json, 'direct_messages')).toEqual({
      in_app: true,
      email: false,
      push: true,
      sms: false,
    })
    expect(topic(changed.json, 'hosting')).toEqual({
      in_app: true,
      email: true,
      push: true,
      sms: false,
    })
    expect((await call('GET', 'v1/notifications/settings/workflow')).json).toEqual(changed.json)
  })

  it('refuses an unknown topic or channel and a repeated topic', async () => {
    const call = await as(await createUser(database.db))
    const unknownTopic = await call('PUT', 'v1/notifications/settings/workflow', {
      settings: [{ template_id: 'weather', preference: { channels: { email: true } } }],
    })
    expect(unknownTopic.status).toBe(422)
    expect(Object.keys(unknownTopic.json.error.fields)).toEqual(['settings.0.template_id'])
    const unknownChannel = await call('PUT', 'v1/notifications/settings/workflow', {
      settings: [{ template_id: 'hosting', preference: { channels: { fax: true } } }],
    })
    expect(unknownChannel.status).toBe(422)
    const twice = await call('PUT', 'v1/notifications/settings/workflow', {
      settings: [
        { template_id: 'hosting', preference: { channels: { email: true } } },
        { template_id: 'hosting', preference: { channels: { email: false } } },
      ],
    })
    expect(twice.json.error.fields).toEqual({ settings: ['duplicate_template_id'] })
  })

  it('only ever touches the caller’s own settings', async () => {
    const [ann, bob] = [await createUser(database.db), await createUser(database.db)]
    const annCall = await as(ann)
    await annCall('PUT', 'v1/notifications/settings/workflow', {
      settings: [{ template_id: 'hosting', preference: { channels: { email: false } } }],
    })
    await annCall('PUT', 'v1/notifications/settings/global', {
      preferences: [{ type: 'in_app', enabled: false }],
    })
    const bobCall = await as(bob)
    expect(
      topic((await bobCall('GET', 'v1/notifications/settings/workflow')).json, 'hosting').email,
    ).toBe(true)
    expect(
      (await bobCall('GET', 'v1/notifications/settings/global')).json.global.channels.in_app,
    ).toBe(true)
  })
})

describe('GET /api/v1/notifications/devices', () => {
  it('lists the caller’s own phones and computers that receive alerts, without their push addresses', async () => {
    const [user, other] = [await createUser(database.db), await createUser(database.db)]
    const call = await as(user)
    const none = await call('GET', 'v1/notifications/devices')
    expect(none.status).toBe(200)
    expect(deviceListSchema.parse(none.json)).toEqual({ data: [] })
    for (const owner of [user, other])
      await database.db
        .insertInto('devices')
        .values({ user_id: owner.id, kind: 'web_push', token: `https://push.test/${owner.id}` })
        .execute()
    const listed = await call('GET', 'v1/notifications/devices')
    expect(listed.json).toEqual({
      data: [{ id: expect.any(String), kind: 'web_push', last_seen_at: expect.any(String) }],
    })
    expect(JSON.stringify(listed.json)).not.toContain('push.test')
    expect((await api.request('GET', 'v1/notifications/devices')).status).toBe(401)
  })
})

describe('channelsFor (what delivery asks)', () => {
  it('answers the defaults: in-app and email; push once a device is allowed; nothing for suggestions', async () => {
    const user = await createUser(database.db)
    expect(await channelsFor(database.db, user.id, 'reminders')).toEqual(['in_app', 'email'])
    expect(await channelsFor(database.db, user.id, 'recommendations')).toEqual([])
    await database.db
      .insertInto('devices')
      .values({ user_id: user.id, kind: 'web_push', token: `https://push.test/d/${user.id}` })
      .execute()
    expect(await channelsFor(database.db, user.id, 'reminders')).toEqual([
      'in_app',
      'email',
      'push',
    ])
  })

  it('needs both the topic’s channel and the global switch', async () => {
    const user = await createUser(database.db)
    const call = await as(user)
    await call('PUT', 'v1/notifications/settings/global', {
      preferences: [
        { type: 'sms', enabled: true },
        { type: 'email', enabled: false },
      ],
    })
    // Texts are on globally: reminders text (on by default for reminders), messages do not.
    expect(await channelsFor(database.db, user.id, 'reminders')).toEqual(['in_app', 'sms'])
    expect(await channelsFor(database.db, user.id, 'direct_messages')).toEqual(['in_app'])
    // Email on for the topic is not enough while the email subscription is off.
    await call('PUT', 'v1/notifications/settings/workflow', {
      settings: [
        { template_id: 'recommendations', preference: { channels: { email: true, in_app: true } } },
      ],
    })
    expect(await channelsFor(database.db, user.id, 'recommendations')).toEqual(['in_app'])
    await call('PUT', 'v1/notifications/settings/global', {
      preferences: [{ type: 'email', enabled: true }],
    })
    expect(await channelsFor(database.db, user.id, 'recommendations')).toEqual(['in_app', 'email'])
  })

  it('keeps an explicit "push off" after a device is registered', async () => {
    const user = await createUser(database.db)
    await (
      await as(user)
    )('PUT', 'v1/notifications/settings/global', {
      preferences: [{ type: 'push', enabled: false }],
    })
    await database.db
      .insertInto('devices')
      .values({ user_id: user.id, kind: 'web_push', token: `https://push.test/k/${user.id}` })
      .execute()
    expect(await channelsFor(database.db, user.id, 'activity_updates')).toEqual(['in_app', 'email'])
  })
})
