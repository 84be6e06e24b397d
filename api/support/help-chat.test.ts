import { createHmac } from 'node:crypto'
import { jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import type { HelpChat } from '#contract/help-chat.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The help chat (issue 32 §6, spec §7, decision 083) as API clients see it: the member's support
 * conversation as they read it, answers from "Circle 55 support" without the admin's name, and,
 * with a vendor configured, its widget with the member's identity signed on the server — never
 * while a staff member views Circle 55 as the member, never for a visitor.
 */
let database: TestDatabase
let builtin: ApiHarness
let chatwoot: ApiHarness
let intercom: ApiHarness
const chatwootEnv = { CHATWOOT_BASE_URL: 'https://chat.circle55.example/', CHATWOOT_WEBSITE_TOKEN: 'website-token-1', CHATWOOT_HMAC_TOKEN: 'hmac-token-of-the-inbox' }
const intercomEnv = { INTERCOM_APP_ID: 'abc12345', INTERCOM_IDENTITY_SECRET: 'messenger-security-secret' }

beforeAll(async () => {
  database = await createTestDatabase()
  builtin = await createApiHarness(database.db)
  chatwoot = await createApiHarness(database.db, chatwootEnv)
  intercom = await createApiHarness(database.db, intercomEnv)
})

afterAll(async () => {
  await database?.drop()
})

async function person(api: ApiHarness, overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, { last_sign_in_at: new Date(), ...overrides })
  const token = await api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => api.request(method, path, { token, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) })
  return { user, call }
}

const helpChatOf = async (call: (method: string, path: string) => Promise<{ status: number; json: { data: HelpChat[] } }>) => {
  const answer = await call('GET', 'v1/support/help-chat')
  expect(answer.status).toBe(200)
  return answer.json.data[0] as HelpChat
}

describe('the built-in help chat', () => {
  it('shows the member’s conversation, answers from Circle 55 support without the admin’s name; a visitor is asked to sign in', async () => {
    const member = await person(builtin, { first_name: 'Margaret', last_name: 'Kowalczyk' })
    const admin = await person(builtin, { first_name: 'Alice', last_name: 'Adminson', staff_role: 'admin' })

    expect(await helpChatOf(member.call)).toEqual({ channel_id: null, messages: [], widget: null })
    expect((await builtin.request('GET', 'v1/support/help-chat')).status).toBe(401)

    const opened = await member.call('POST', 'v1/support/message-channel')
    const channel = opened.json.data[0].id as string
    expect((await member.call('POST', `v1/chat/message-channels/${channel}/messages`, { text: 'How do I change my email?' })).status).toBe(201)
    expect((await admin.call('POST', `v1/admin/support/${channel}/messages`, { text: 'Open Account, then Email.' })).status).toBe(201)

    const chat = await helpChatOf(member.call)
    expect(chat.channel_id).toBe(channel)
    expect(chat.messages.map(({ body, from_support }) => ({ body, from_support }))).toEqual([
      { body: 'How do I change my email?', from_support: false },
      { body: 'Open Account, then Email.', from_support: true },
    ])
    expect(JSON.stringify(chat)).not.toContain('Alice')
    expect(JSON.stringify(chat)).not.toContain(admin.user.id)
    // Another member's help chat is their own.
    expect((await helpChatOf((await person(builtin)).call)).messages).toEqual([])
  })
})

describe('a vendor widget', () => {
  it('Chatwoot: the member’s name, email, id, joining date and photo, the identifier signed with the HMAC token', async () => {
    const member = await person(chatwoot, { first_name: 'Harold', last_name: 'Nguyen', email: 'harold.nguyen@example.com', created_at: new Date('2024-03-05T10:00:00Z') })
    const { widget } = await helpChatOf(member.call)
    expect(widget).toEqual({
      provider: 'chatwoot',
      base_url: 'https://chat.circle55.example',
      website_token: 'website-token-1',
      identifier: member.user.id,
      identifier_hash: createHmac('sha256', 'hmac-token-of-the-inbox').update(member.user.id).digest('hex'),
      name: 'Harold N.',
      email: 'harold.nguyen@example.com',
      avatar_url: null,
      created_at: '2024-03-05T10:00:00.000Z',
    })
    expect(JSON.stringify(widget)).not.toContain('hmac-token-of-the-inbox')
  })

  it('Intercom: a JWT signed with the Messenger secret carries the id and the email; the rest goes beside it', async () => {
    const member = await person(intercom, { first_name: 'Ruth', last_name: 'Okafor', email: 'ruth.okafor@example.com', created_at: new Date('2023-12-01T00:00:00Z') })
    const { widget } = await helpChatOf(member.call)
    if (widget?.provider !== 'intercom') throw new Error('expected the Intercom widget')
    expect(widget).toMatchObject({ app_id: 'abc12345', name: 'Ruth O.', avatar_url: null, created_at: Date.parse('2023-12-01T00:00:00Z') / 1000 })
    const { payload, protectedHeader } = await jwtVerify(widget.user_jwt, new TextEncoder().encode('messenger-security-secret'))
    expect(protectedHeader.alg).toBe('HS256')
    expect(payload).toMatchObject({ user_id: member.user.id, email: 'ruth.okafor@example.com' })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600)
    await expect(jwtVerify(widget.user_jwt, new TextEncoder().encode('another secret'))).rejects.toThrow()
  })

  it('is absent while a staff member views Circle 55 as the member, who still sees the conversation', async () => {
    const member = await person(chatwoot, { first_name: 'Edith', last_name: 'Moreau' })
    await member.call('POST', 'v1/support/message-channel').then(async (opened) => member.call('POST', `v1/chat/message-channels/${opened.json.data[0].id as string}/messages`, { text: 'My activities page is empty' }))
    const support = await person(chatwoot, { staff_role: 'support' })
    const started = await support.call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: 'She says her activities page is empty.' })
    expect(started.status).toBe(200)
    const viewing = (method: string, path: string) => support.call(method, path, undefined, { 'x-impersonation': started.json.data[0].id as string })
    const chat = await helpChatOf(viewing)
    expect(chat.widget).toBeNull()
    expect(chat.messages.map((message) => message.body)).toEqual(['My activities page is empty'])
    // Still there for the member themself.
    expect((await helpChatOf(member.call)).widget?.provider).toBe('chatwoot')
  })

  it('is absent for the members the `help-chat` flag leaves out', async () => {
    const member = await person(chatwoot)
    const admin = await person(chatwoot, { staff_role: 'admin' })
    const flag = (await admin.call('GET', 'v1/admin/flags')).json.data.find((item: { key: string }) => item.key === 'help-chat')
    expect(flag).toMatchObject({ enabled: true, rollout_percent: 100 })
    const { key: _key, updated_at: _updated, ...change } = flag
    expect((await admin.call('PUT', 'v1/admin/flags/help-chat', { ...change, enabled: false })).status).toBe(200)
    try {
      expect((await helpChatOf(member.call)).widget).toBeNull()
    } finally {
      expect((await admin.call('PUT', 'v1/admin/flags/help-chat', change)).status).toBe(200)
    }
    expect((await helpChatOf(member.call)).widget?.provider).toBe('chatwoot')
  })
})

describe('errors of the API', () => {
  it('reach error reporting with the request id, the method and the path, not the query', async () => {
    const reported: Array<{ error: unknown; context: Record<string, unknown> }> = []
    const broken = await createApiHarness(database.db, {}, {
      reportError: (error, context) => void reported.push({ error, context }),
      places: {
        search: () => {
          throw new Error('The gazetteer broke')
        },
      } as never,
    })
    const answer = await broken.request('GET', 'v1/places?query=portland&email=margaret%40example.com', { headers: { 'x-request-id': 'req-help-chat-1' } })
    expect(answer.status).toBe(500)
    expect(reported).toHaveLength(1)
    expect(reported[0]?.context).toEqual({ requestId: 'req-help-chat-1', method: 'GET', path: '/api/v1/places' })
    expect((reported[0]?.error as Error).message).toBe('The gazetteer broke')
  })
})
