import { PREMIUM_TERMS_VERSION } from '#contract/subscriptions.ts'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createDatabase } from '#api/db/database.ts'
import { gazetteerRows } from '#api/providers/maps/gazetteer.ts'
import { signStripePayload } from '#api/providers/verification/stripe.ts'
import { unsubscribeToken } from '#api/notifications/unsubscribe.ts'
import { assessFees, chargeDueFees } from '#api/fees/service.ts'
import { createLogger } from '#api/logger.ts'
import { createBuiltinPayments } from '#api/providers/payments/builtin.ts'
import { TEST_UNSUBSCRIBE_SECRET, createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The OpenAPI document against the API itself (decision 011): the document is valid OpenAPI 3.1
 * (a real parser), every route the API serves is in it, and every answer below (each endpoint's
 * success and its main errors, driven through the real app and database) has a documented status,
 * a documented media type and, for JSON, a body that matches the documented schema. The schemas
 * are checked strictly: a field the document does not name fails too.
 */

type Json = Record<string, any>
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>
}

let database: TestDatabase
let api: ApiHarness
let document: Json
let strictDocument: Json
const ajv = new Ajv2020({ strict: false, allErrors: true })
// ajv-formats is CommonJS: its default export arrives as the module, whose `default` is the plugin.
addFormats.default(ajv)
ajv.addFormat('binary', true)
const validators = new Map<string, ValidateFunction>()
/** `METHOD /template status` of every answer checked. */
const answered = new Set<string>()

beforeAll(async () => {
  database = await createTestDatabase()
  // The places the built-in provider answers for (the whole gazetteer is not needed here).
  const cities = new Set(['us-or-portland', 'us-or-beaverton'])
  await database.db.insertInto('places').values(gazetteerRows().filter((row) => cities.has(row.id))).execute()
  api = await createApiHarness(database.db)
  const response = await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/openapi.json`))
  document = (await response.json()) as Json
  strictDocument = strict(structuredClone(document))
})

afterAll(async () => {
  await database?.drop()
})

/** Every object schema that does not say otherwise refuses fields it does not name. */
function strict(node: unknown): Json {
  if (Array.isArray(node)) node.forEach(strict)
  else if (node && typeof node === 'object') {
    const schema = node as Json
    if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false
    Object.values(schema).forEach(strict)
  }
  return node as Json
}

/**
 * The documented path template a concrete path and method fall under (literal segments first).
 * Reading an activity is documented under `{idOrSlug}`, changing it under `{id}`: the method decides.
 */
function templateOf(method: string, pathname: string) {
  const path = pathname.replace(/^\/api/, '')
  const templates = Object.keys(document.paths as Json).sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
  return templates.find((template) => {
    const pattern = template
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      // A media key holds slashes; any other parameter is one segment.
      .replace(/\{key\}$/, '(.+)')
      .replace(/\{\w+\}/g, '([^/]+)')
    return new RegExp(`^${pattern}$`).test(path) && method.toLowerCase() in (document.paths as Json)[template]
  })
}

function validatorFor(key: string, schema: Json) {
  let validate = validators.get(key)
  if (!validate) {
    validate = ajv.compile({ ...schema, components: strictDocument.components })
    validators.set(key, validate)
  }
  return validate
}

interface CallOptions {
  token?: string
  body?: unknown
  form?: FormData
  headers?: Record<string, string>
  /** Another app to ask (one whose database is down); the answer is checked against this document. */
  app?: ApiHarness['app']
}

/**
 * One request to the API; its answer is checked against the document before the test reads it.
 * Paths are relative to the API base (`v1/users/me`) or absolute (a media `url`).
 */
async function call(method: string, path: string, options: CallOptions = {}) {
  const headers = new Headers(options.headers)
  if (options.token) headers.set('authorization', `Bearer ${options.token}`)
  let body: BodyInit | undefined
  if (options.form) body = options.form
  else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    headers.set('content-type', 'application/json')
  }
  const url = new URL(path.startsWith('/') ? path : `/api/${path}`, api.env.PUBLIC_URL)
  const response = await (options.app ?? api.app).fetch(new Request(url, { method, headers, body }))
  const bytes = new Uint8Array(await response.arrayBuffer())
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
  const json = mediaType === 'application/json' ? (JSON.parse(new TextDecoder().decode(bytes)) as Json) : null

  const template = templateOf(method, url.pathname)
  const where = `${method} ${url.pathname}${url.search} → ${response.status}`
  expect(template, `${where}: no documented path`).toBeDefined()
  const operation = (document.paths as Record<string, Record<string, Operation>>)[template ?? '']?.[method.toLowerCase()]
  expect(operation, `${where}: ${method} ${template} is not documented`).toBeDefined()
  const documented = operation?.responses[String(response.status)]
  expect(documented, `${where}: status not documented for ${method} ${template}`).toBeDefined()
  if (bytes.byteLength === 0) {
    expect(documented?.content, `${where}: documented with a body, answered none`).toBeUndefined()
  } else {
    const content = documented?.content?.[mediaType]
    expect(content, `${where}: ${mediaType} not documented (${Object.keys(documented?.content ?? {}).join(', ')})`).toBeDefined()
    if (json !== null && content?.schema) {
      const validate = validatorFor(`${method} ${template} ${response.status} ${mediaType}`, strictDocument.paths[template ?? ''][method.toLowerCase()].responses[String(response.status)].content[mediaType].schema)
      const valid = validate(json)
      expect(valid, `${where}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(json).slice(0, 500)}`).toBe(true)
    }
  }
  answered.add(`${method} ${template} ${response.status}`)
  return { status: response.status, json: json as any, bytes, headers: response.headers }
}

async function member(overrides: Partial<User> = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
const onlineActivity = (overrides: Json = {}) => ({
  title: 'Poetry by video',
  description: 'Bring a poem.',
  venue_type: 'online',
  url: 'https://meet.example.com/poetry',
  start_date: inDays(5),
  start_time: '10:00',
  max_attendees: 1,
  no_show_fee: '5.00',
  ...overrides,
})

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for a real parser', async () => {
    expect(document.openapi).toBe('3.1.0')
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy()
  })

  it('documents every route the API serves, its health and itself included', () => {
    const documented = new Set(
      Object.entries(document.paths as Record<string, Json>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    )
    const served = api.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{key}')}`)
    expect(served.length).toBeGreaterThan(20)
    expect(served.filter((route) => !documented.has(route))).toEqual([])
  })

  it('documents the fixed mismatches: photo bytes, the calendar and CSV files, error bodies, the page size', () => {
    const paths = document.paths as Json
    expect(Object.keys(paths['/media/{key}'].get.responses['200'].content)).toEqual(['image/jpeg', 'image/png'])
    expect(paths['/media/{key}'].get.responses['204']).toBeUndefined()
    expect(Object.keys(paths['/v1/experiences/{idOrSlug}'].get.responses['200'].content)).toContain('text/calendar')
    expect(Object.keys(paths['/v1/experiences/{id}/attendees'].get.responses['200'].content)).toContain('text/csv')
    for (const status of ['401', '403', '404', '409', '422']) {
      expect(paths['/v1/experiences/{id}/attendees'].post.responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      })
    }
    const perPage = (paths['/v1/experiences'].get.parameters as Json[]).find((parameter) => parameter.name === 'per_page')
    expect(perPage?.schema).toMatchObject({ type: 'integer', maximum: 50 })
  })
})

describe('every endpoint answers as documented', () => {
  let host: Awaited<ReturnType<typeof member>>
  let guest: Awaited<ReturnType<typeof member>>
  let admin: Awaited<ReturnType<typeof member>>

  beforeAll(async () => {
    host = await member({ first_name: 'Walter', last_name: 'Brooks' })
    guest = await member({ first_name: 'Margaret', last_name: 'Hughes' })
    admin = await member({ staff_role: 'admin' })
  })

  it('system: health and the document', async () => {
    expect((await call('GET', 'health')).status).toBe(200)
    expect((await call('GET', 'openapi.json')).status).toBe(200)
  })

  it('users: me, update, profiles, delete, and who may not', async () => {
    expect((await call('GET', 'v1/users/me', { token: guest.token })).status).toBe(200)
    expect((await call('GET', 'v1/users/me')).status).toBe(401)
    expect((await call('GET', 'v1/users/me', { token: 'not-a-jwt' })).status).toBe(401)
    const suspended = await member({ is_suspended: true })
    expect((await call('GET', 'v1/users/me', { token: suspended.token })).json.error.code).toBe('user_suspended')

    expect((await call('PUT', 'v1/users/me', { token: guest.token, body: { first_name: 'Maggie', locale: 'fr' } })).status).toBe(200)
    expect((await call('PUT', 'v1/users/me', { token: guest.token, body: { first_name: '\u200b' } })).status).toBe(422)
    expect((await call('PUT', 'v1/users/me', { token: guest.token, body: '{not json' })).status).toBe(400)
    expect((await call('POST', 'v1/users/me/sign-ins', { token: guest.token })).status).toBe(200)
    expect((await call('POST', 'v1/users/me/sign-ins')).status).toBe(401)

    expect((await call('GET', `users/${host.user.id}`)).json).toEqual({ id: host.user.id, slug: host.user.slug, display_name: 'Walter B.' })
    expect((await call('GET', `users/${host.user.slug}`, { token: guest.token })).json).toHaveProperty('created_at')
    expect((await call('GET', `users/${crypto.randomUUID()}`)).status).toBe(404)
    expect((await call('GET', 'v1/members?name=Wal', { token: guest.token })).status).toBe(200)
    expect((await call('GET', 'v1/members')).status).toBe(401)
    expect((await call('GET', `v1/members?name=${'x'.repeat(51)}`, { token: guest.token })).status).toBe(422)

    const leaver = await member()
    expect((await call('DELETE', `v1/users/${leaver.user.id}`, { token: guest.token })).status).toBe(403)
    expect((await call('DELETE', `v1/users/${leaver.user.id}`, { token: leaver.token })).status).toBe(204)
  })

  it('account: email change, its refusals, and signing out everywhere', async () => {
    const changer = await member()
    const email = `openapi-change-${crypto.randomUUID().slice(0, 8)}@example.com`
    expect((await call('POST', 'v1/users/me/email-change', { token: changer.token, body: { email } })).status).toBe(202)
    expect((await call('POST', 'v1/users/me/email-change', { token: changer.token, body: { email: 'nope' } })).status).toBe(422)
    expect((await call('POST', 'v1/users/me/email-change', { body: { email } })).status).toBe(401)
    expect((await call('GET', 'v1/users/me/email-change', { token: changer.token })).json.email).toBe(email)
    expect((await call('POST', 'v1/users/me/email-change/confirm', { token: changer.token, body: { code: '12' } })).status).toBe(422)
    const mail = await database.db.selectFrom('email_outbox').select('text_body').where('to_address', '=', email).executeTakeFirstOrThrow()
    const code = /\b(\d{6})\b/.exec(mail.text_body)?.[1]
    const confirmed = await call('POST', 'v1/users/me/email-change/confirm', { token: changer.token, body: { code } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.data[0].email).toBe(email)
    expect((await call('GET', 'v1/users/me/email-change', { token: changer.token })).status).toBe(404)
    expect((await call('DELETE', 'v1/users/me/sessions', { token: changer.token })).status).toBe(204)
    expect((await call('DELETE', 'v1/users/me/sessions')).status).toBe(401)
  })

  it('text messages: phone confirmation and the inbound webhook (decision 049)', async () => {
    const texter = await member({ phone: '+15035550177' })
    expect((await call('POST', 'v1/users/me/phone/confirmation')).status).toBe(401)
    expect((await call('POST', 'v1/users/me/phone/confirmation', { token: texter.token })).status).toBe(202)
    expect((await call('PUT', 'v1/users/me/phone/confirmation', { token: texter.token, body: { code: '12' } })).status).toBe(422)
    const text = await database.db.selectFrom('sms_outbox').select('body').where('user_id', '=', texter.user.id).executeTakeFirstOrThrow()
    const confirmed = await call('PUT', 'v1/users/me/phone/confirmation', { token: texter.token, body: { code: /\b(\d{6})\b/.exec(text.body)?.[1] } })
    expect(confirmed.json.data[0].phone_confirmed).toBe(true)
    expect((await call('POST', 'v1/users/me/phone/confirmation', { token: texter.token })).status).toBe(409)
    expect((await call('POST', 'v1/sms/inbound', { body: 'From=%2B15035550177&Body=Hello' })).status).toBe(200)
    expect((await call('POST', 'v1/sms/inbound', { body: 'Body=Hello' })).status).toBe(400)
  })

  it('experiences: create, read, list, change, attend, the notify list, files, cancel', async () => {
    const created = await call('POST', 'v1/experiences', { token: host.token, body: onlineActivity() })
    expect(created.status).toBe(201)
    const activity = created.json.data[0]
    expect(activity.viewer).toMatchObject({ is_host: true, cancel_is_late: false })
    expect((await call('POST', 'v1/experiences', { body: onlineActivity() })).status).toBe(401)
    expect((await call('POST', 'v1/experiences', { token: guest.token, body: onlineActivity({ is_premium: true }) })).json.error.code).toBe('admin_only')
    expect((await call('POST', 'v1/experiences', { token: host.token, body: onlineActivity({ title: '' }) })).status).toBe(422)
    expect((await call('POST', 'v1/experiences', { token: host.token, body: onlineActivity({ max_attendees: 1001 }) })).json.error.fields).toEqual({
      max_attendees: ['capacity_too_large'],
    })

    expect((await call('GET', `v1/experiences/${activity.id}`)).json.data[0].viewer).toBeNull()
    expect((await call('GET', `v1/experiences/${activity.slug}`, { token: guest.token })).status).toBe(200)
    const ical = await call('GET', `v1/experiences/${activity.id}?format=ical`)
    expect(ical.headers.get('content-type')).toMatch(/^text\/calendar/)
    expect((await call('GET', `v1/experiences/${activity.id}?format=pdf`)).status).toBe(422)
    expect((await call('GET', `v1/experiences/${crypto.randomUUID()}`)).status).toBe(404)
    const undated = await database.db
      .insertInto('experiences')
      .values({ title: 'Some day', slug: `some-day-${Date.now()}`, venue_type: 'online', url: 'https://example.com', host_id: host.user.id })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await call('GET', `v1/experiences/${undated.id}?format=ical`)).json.error.code).toBe('experience_undated')

    expect((await call('GET', 'v1/experiences?per_page=500')).json.metadata).toMatchObject({ page: 1 })
    expect((await call('GET', 'v1/experiences', { token: guest.token })).status).toBe(200)
    expect((await call('GET', 'v1/experiences?page=0')).status).toBe(422)

    expect((await call('PUT', `v1/experiences/${activity.id}`, { token: host.token, body: { description: 'Bring two poems.' } })).status).toBe(200)
    expect((await call('PUT', `v1/experiences/${activity.id}`, { token: guest.token, body: { title: 'Mine now' } })).status).toBe(403)
    expect((await call('PUT', `v1/experiences/${crypto.randomUUID()}`, { token: host.token, body: {} })).status).toBe(404)
    expect((await call('PUT', `v1/experiences/${activity.id}`, { token: host.token, body: { no_show_fee: '$5' } })).json.error.fields).toEqual({
      no_show_fee: ['currency_invalid'],
    })

    // Without its fee, a seat needs no card (the fee's agreement is the fees test's, below).
    expect((await call('PUT', `v1/experiences/${activity.id}`, { token: host.token, body: { no_show_fee: null } })).json.data[0].no_show_fee).toBeNull()
    // Attend (the one seat), then the activity is full: the notify list opens.
    expect((await call('POST', `v1/experiences/${activity.id}/attendees`, { token: guest.token, body: { user_id: guest.user.id } })).status).toBe(200)
    expect((await call('POST', `v1/experiences/${activity.id}/attendees`, { token: guest.token, body: { user_id: admin.user.id } })).status).toBe(403)
    expect((await call('POST', `v1/experiences/${activity.id}/attendees`, { token: admin.token, body: { user_id: admin.user.id } })).json.error.code).toBe('experience_full')
    expect((await call('POST', `v1/experiences/${activity.id}/waitlist`, { token: admin.token })).json.data[0].viewer.waitlist_position).toBe(1)
    expect((await call('GET', `v1/experiences/${activity.id}/waitlist`, { token: host.token })).json.data).toHaveLength(1)
    expect((await call('DELETE', `v1/experiences/${activity.id}/waitlist`, { token: admin.token })).status).toBe(204)
    expect((await call('POST', `v1/experiences/${undated.id}/waitlist`, { token: guest.token })).json.error.code).toBe('experience_not_full')

    expect((await call('GET', `v1/experiences/${activity.id}/attendees`, { token: guest.token })).json.data).toHaveLength(1)
    const csv = await call('GET', `v1/experiences/${activity.id}/attendees?format=csv`, { token: host.token })
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect((await call('GET', `v1/experiences/${activity.id}/attendees?format=csv`, { token: guest.token })).status).toBe(403)
    expect((await call('GET', `v1/experiences/${activity.id}/attendees?per_page=x`, { token: guest.token })).status).toBe(422)

    const cancelled = await call('DELETE', `v1/experiences/${activity.id}/attendees/${guest.user.id}`, { token: guest.token })
    expect(cancelled.json.metadata).toEqual({ late_cancellation: false })
    expect((await call('DELETE', `v1/experiences/${activity.id}/attendees/${guest.user.id}`, { token: guest.token })).status).toBe(404)

    const added = await call('POST', `v1/experiences/${activity.id}/attendees/create-by-emails`, {
      token: host.token,
      body: { emails: [guest.user.email, 'nobody@example.com'] },
    })
    expect(added.json.data[0]).toEqual({ invited_if_member: [guest.user.email, 'nobody@example.com'], full: [] })
    const tooMany = Array.from({ length: 51 }, (_, index) => `someone${index}@example.com`)
    expect((await call('POST', `v1/experiences/${activity.id}/attendees/create-by-emails`, { token: host.token, body: { emails: tooMany } })).status).toBe(422)

    expect((await call('GET', `v1/users/${guest.user.id}/experiences`, { token: guest.token })).status).toBe(200)
    expect((await call('GET', `v1/users/${guest.user.id}/experiences`, { token: host.token })).status).toBe(200)
    expect((await call('GET', `v1/users/${guest.user.id}/experiences?in_common=true`, { token: host.token })).status).toBe(200)
    expect((await call('GET', `v1/users/${guest.user.id}/experiences?in_common=maybe`, { token: host.token })).status).toBe(422)

    // Within 12 hours of the start, the viewer is told a cancellation would be late.
    const soon = await database.db
      .insertInto('experiences')
      .values({
        title: 'Soon',
        slug: `soon-${Date.now()}`,
        venue_type: 'online',
        url: 'https://example.com',
        host_id: host.user.id,
        start_at: new Date(Date.now() + 3 * 3_600_000),
        end_at: new Date(Date.now() + 5 * 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await call('GET', `v1/experiences/${soon.id}`, { token: guest.token })).json.data[0].viewer.cancel_is_late).toBe(true)

    expect((await call('DELETE', `v1/experiences/${activity.id}`, { token: guest.token })).status).toBe(403)
    expect((await call('DELETE', `v1/experiences/${activity.id}`, { token: host.token })).status).toBe(204)
    expect((await call('POST', `v1/experiences/${activity.id}/waitlist`, { token: guest.token })).json.error.code).toBe('experience_canceled')
  })

  it('invitations: invite, accept, decline, and every status their document names', async () => {
    const activity = (await call('POST', 'v1/experiences', { token: host.token, body: onlineActivity({ max_attendees: 1 }) })).json.data[0]
    const [invitee, second, third] = [await member({ locale: 'nl' }), await member(), await member()]
    const suspended = await member({ is_suspended: true })
    const invited = await call('POST', `v1/experiences/${activity.id}/attendees/create-by-emails`, {
      token: host.token,
      body: { emails: [invitee.user.email, second.user.email, third.user.email, 'nobody@example.com'] },
    })
    expect(invited.json.data[0]).toEqual({ invited_if_member: [invitee.user.email, second.user.email, third.user.email, 'nobody@example.com'], full: [] })
    expect((await call('GET', `v1/experiences/${activity.id}`, { token: invitee.token })).json.data[0].viewer.invitation).toMatchObject({
      by: { role: 'host', display_name: 'Walter B.' },
    })

    const accept = (id: string, options: CallOptions = {}) => call('POST', `v1/experiences/${id}/invitations/accept`, options)
    const decline = (id: string, options: CallOptions = {}) => call('POST', `v1/experiences/${id}/invitations/decline`, options)
    expect((await accept(activity.id)).status).toBe(401)
    expect((await accept(activity.id, { token: suspended.token })).json.error.code).toBe('user_suspended')
    expect((await accept(activity.id, { token: guest.token })).status).toBe(404)
    expect((await accept(crypto.randomUUID(), { token: invitee.token })).status).toBe(404)
    expect((await accept(activity.id, { token: invitee.token })).json.data[0].viewer).toMatchObject({ is_attending: true, invitation: null })
    expect((await accept(activity.id, { token: second.token })).json.error.code).toBe('experience_full')
    expect((await decline(activity.id, { token: third.token })).status).toBe(204)
    expect((await accept(activity.id, { token: third.token })).json.error.code).toBe('invitation_declined')

    expect((await decline(activity.id)).status).toBe(401)
    expect((await decline(activity.id, { token: suspended.token })).json.error.code).toBe('user_suspended')
    expect((await decline(activity.id, { token: guest.token })).status).toBe(404)
    expect((await decline(activity.id, { token: invitee.token })).json.error.code).toBe('invitation_accepted')
    // A control character, refused before any route (decision 066).
    for (const answer of [accept, decline]) expect((await answer('a%00b', { token: invitee.token })).json.error.code).toBe('invalid_characters')

    // The database down: 503, as documented for every route.
    const down = createDatabase('postgres://nobody@127.0.0.1:1/none', { connectTimeoutMs: 1_000 })
    try {
      const unreachable = await createApiHarness(down.db)
      const token = await unreachable.signToken(invitee.user.id)
      for (const answer of [accept, decline]) expect((await answer(activity.id, { token, app: unreachable.app })).status).toBe(503)
    } finally {
      await down.db.destroy()
    }

    for (const action of ['accept', 'decline']) {
      const template = `/v1/experiences/{id}/invitations/${action}`
      const documented = Object.keys((document.paths as Json)[template].post.responses as Json)
      expect(documented.filter((status) => !answered.has(`POST ${template} ${status}`))).toEqual([])
    }
  })

  it('profiles: the catalogue, interests, prompts, the home city', async () => {
    expect((await call('GET', 'v1/profile/catalogue')).json.data[0].interest_groups.length).toBeGreaterThan(0)
    const profile = { interests: ['walking', 'chess'], prompts: [{ prompt: 'perfect_sunday', answer: 'A long walk.' }], city: 'us-or-portland' }
    expect((await call('PUT', 'v1/users/me', { token: guest.token, body: profile })).status).toBe(200)
    expect((await call('PUT', 'v1/users/me', { token: guest.token, body: { city: 'Zzyzxqq Qqq' } })).json.error.code).toBe('unknown_place')
    expect((await call('GET', `v1/users/${guest.user.slug}/interests`, { token: host.token })).json.data).toHaveLength(2)
    expect((await call('GET', 'v1/users/me/profile-prompts', { token: guest.token })).json.data).toHaveLength(1)
    expect((await call('GET', `v1/users/${guest.user.id}/interests`)).status).toBe(401)
    expect((await call('GET', `v1/users/${crypto.randomUUID()}/profile-prompts`, { token: host.token })).status).toBe(404)
  })

  it('places: search, nearest, one place', async () => {
    expect((await call('GET', 'v1/places?query=portland&limit=3')).json.data[0]).toMatchObject({ id: 'us-or-portland' })
    expect((await call('GET', 'v1/places?query=p')).status).toBe(400)
    expect((await call('GET', 'v1/places/nearest?latitude=45.52&longitude=-122.68', { token: guest.token })).status).toBe(200)
    expect((await call('GET', 'v1/places/us-or-portland')).json.data).toHaveLength(1)
    expect((await call('GET', 'v1/places/us-xx-nowhere')).status).toBe(404)
  })

  it('media: upload, duplicate a cover, read the bytes', async () => {
    const photo = await sharp({ create: { width: 1400, height: 800, channels: 3, background: '#36c' } }).jpeg().toBuffer()
    const form = new FormData()
    form.set('target', 'experience_cover')
    form.set('file', new File([new Uint8Array(photo)], 'cover.jpg', { type: 'image/jpeg' }))
    const uploaded = await call('POST', 'v1/medias', { token: host.token, form })
    expect(uploaded.status).toBe(200)
    const cover = uploaded.json.data[0]
    expect((await call('POST', 'v1/medias', { token: host.token, body: { target: 'avatar' } })).status).toBe(400)
    const noFile = new FormData()
    noFile.set('target', 'avatar')
    expect((await call('POST', 'v1/medias', { token: host.token, form: noFile })).status).toBe(422)

    const image = await call('GET', cover.url)
    expect(image.headers.get('content-type')).toBe('image/jpeg')
    expect(image.bytes.byteLength).toBeGreaterThan(0)
    expect((await call('GET', '/api/media/covers/2020/01/missing.jpg')).status).toBe(404)

    const activity = (await call('POST', 'v1/experiences', { token: host.token, body: onlineActivity({ cover_photo: cover.id }) })).json.data[0]
    expect((await call('POST', 'v1/medias/duplicate', { token: guest.token, body: { experience_id: activity.id } })).status).toBe(200)
    expect((await call('POST', 'v1/medias/duplicate', { token: guest.token, body: { experience_id: crypto.randomUUID() } })).status).toBe(404)

    // A profile photo as POST v1/medias leaves it after its face check (api/media/avatar.test.ts).
    const avatar = await database.db
      .insertInto('media')
      .values({ owner_id: host.user.id, target: 'avatar', storage_key: `avatars/2026/01/${crypto.randomUUID()}.jpg`, thumbnail_key: null, mime_type: 'image/jpeg', width: 400, height: 400, bytes: 4 })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await call('PUT', 'v1/users/me/avatar', { token: host.token, body: { file_name: avatar.id } })).status).toBe(200)
    expect((await call('PUT', 'v1/users/me/avatar', { token: host.token, body: { file_name: cover.id } })).status).toBe(422)
    expect((await call('DELETE', 'v1/users/me/avatar', { token: host.token })).status).toBe(204)
  })

  it('reports: both paths, and a refused one', async () => {
    const report = { reason: 'something_else', details: 'Odd.', user_id: host.user.id }
    expect((await call('POST', 'v1/reported-contents', { token: guest.token, body: report })).status).toBe(201)
    expect((await call('POST', 'reported-contents', { token: guest.token, body: report })).status).toBe(201)
    expect((await call('POST', 'reported-contents', { token: guest.token, body: { ...report, reason: 'boring' } })).status).toBe(422)
    expect((await call('POST', 'reported-contents', { body: report })).status).toBe(401)
  })

  it('moderation: the queue, one report, an action, and the refusals', async () => {
    // A reporter of its own: being told the report was handled adds a product channel to their list.
    const reporter = await member()
    const reported = await call('POST', 'v1/reported-contents', { token: reporter.token, body: { reason: 'something_else', user_id: host.user.id } })
    const id = reported.json.data[0].id
    expect((await call('GET', 'v1/admin/reports', { token: admin.token })).json.data.some((item: Json) => item.id === id)).toBe(true)
    expect((await call('GET', 'v1/admin/reports', { token: guest.token })).status).toBe(403)
    expect((await call('GET', `v1/admin/reports/${id}`, { token: admin.token })).json.data[0].snapshot.kind).toBe('member')
    expect((await call('POST', `v1/admin/reports/${id}/actions`, { token: admin.token, body: { action: 'dismiss', reason: '' } })).status).toBe(422)
    expect((await call('POST', `v1/admin/reports/${id}/actions`, { token: admin.token, body: { action: 'dismiss', reason: 'Fine.' } })).status).toBe(200)
    expect((await call('POST', `v1/admin/reports/${id}/actions`, { token: admin.token, body: { action: 'dismiss', reason: 'Fine.' } })).json.error.code).toBe('report_resolved')
    expect((await call('GET', `v1/admin/reports/${crypto.randomUUID()}`, { token: admin.token })).status).toBe(404)
  })

  it('blocks: block, its state, whether one can message, unblock, and the refusals', async () => {
    const other = await member()
    expect((await call('GET', `v1/block/${other.user.id}`, { token: guest.token })).json).toEqual({ is_blocked: false, blocked_at: null })
    expect((await call('PUT', `v1/block/${other.user.id}`, { token: guest.token })).json.is_blocked).toBe(true)
    expect((await call('GET', `v1/block/${other.user.id}/me`, { token: guest.token })).json).toEqual({ can_message: false })
    expect((await call('DELETE', `v1/block/${other.user.id}`, { token: guest.token })).status).toBe(204)
    expect((await call('PUT', `v1/block/${guest.user.id}`, { token: guest.token })).status).toBe(422)
    expect((await call('PUT', `v1/block/${crypto.randomUUID()}`, { token: guest.token })).status).toBe(404)
    expect((await call('GET', `v1/block/${other.user.id}/me`)).status).toBe(401)
  })

  it('notifications: the list, the unread total, one and all marked seen, and the refusals', async () => {
    const reader = await member()
    const row = await database.db.insertInto('notifications').values({ user_id: reader.user.id, type: 'sample', data: '{}' }).returning('id').executeTakeFirstOrThrow()
    expect((await call('GET', 'users/notifications', { token: reader.token })).json.data[0].id).toBe(row.id)
    expect((await call('GET', 'users/notifications?seen_at=null&exclude_results=true', { token: reader.token })).json.metadata.total_count).toBe(1)
    expect((await call('PUT', `users/notifications/${row.id}/seen`, { token: reader.token })).json.data[0].seen_at).not.toBeNull()
    expect((await call('PUT', `users/notifications/${row.id}/seen`, { token: guest.token })).status).toBe(404)
    expect((await call('PUT', 'users/notifications/seen', { token: reader.token })).status).toBe(204)
    expect((await call('GET', 'users/notifications?per_page=0', { token: reader.token })).status).toBe(422)
    expect((await call('GET', 'users/notifications')).status).toBe(401)
  })

  it('notification settings: global and workflow, read and changed, and the refusals (decision 044)', async () => {
    const reader = await member()
    expect((await call('GET', 'v1/notifications/settings/global', { token: reader.token })).json.global.channels.email).toBe(true)
    const global = await call('PUT', 'v1/notifications/settings/global', { token: reader.token, body: { preferences: [{ type: 'sms', enabled: true }] } })
    expect(global.json.global.channels.sms).toBe(true)
    expect((await call('PUT', 'v1/notifications/settings/global', { token: reader.token, body: { preferences: [] } })).status).toBe(422)
    expect((await call('GET', 'v1/notifications/settings/workflow', { token: reader.token })).json.workflow.settings).toHaveLength(9)
    const body = { settings: [{ template_id: 'recommendations', preference: { channels: { email: true } } }] }
    expect((await call('PUT', 'v1/notifications/settings/workflow', { token: reader.token, body })).status).toBe(200)
    expect((await call('PUT', 'v1/notifications/settings/workflow', { token: reader.token, body: { settings: [{ template_id: 'weather' }] } })).status).toBe(422)
    expect((await call('GET', 'v1/notifications/settings/workflow')).status).toBe(401)
    expect((await call('GET', 'v1/notifications/devices', { token: reader.token })).json).toEqual({ data: [] })
    const token = unsubscribeToken(TEST_UNSUBSCRIBE_SECRET, reader.user.id, 'hosting')
    expect((await call('GET', `v1/notifications/unsubscribe/${token}`)).json.data[0].topic).toBe('hosting')
    expect((await call('POST', `v1/notifications/unsubscribe/${token}`)).json.data[0].topic).toBe('hosting')
    expect((await call('POST', 'v1/notifications/unsubscribe/not-ours')).status).toBe(404)
  })

  it('web push: the key, a browser registered and unregistered, and the refusals (decision 048)', async () => {
    const owner = await member()
    expect((await call('GET', 'v1/notifications/push-key', { token: owner.token })).json.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/)
    const subscription = { endpoint: 'https://push.example/openapi', keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') } }
    expect((await call('PUT', 'v1/notifications/register-device', { token: owner.token, body: subscription })).json.data[0].endpoint).toBe(subscription.endpoint)
    expect((await call('PUT', 'v1/notifications/register-device', { token: owner.token, body: { ...subscription, keys: {} } })).status).toBe(422)
    expect((await call('DELETE', 'v1/notifications/register-device', { token: owner.token, body: { endpoint: subscription.endpoint } })).status).toBe(204)
    expect((await call('PUT', 'v1/notifications/register-device', { body: subscription })).status).toBe(401)
  })

  it('no-show fees: the agreement at the seat, the host’s attendance, the member’s fees and dispute, the team’s queue (decision 075)', async () => {
    const host = await member()
    const ann = await member()
    const team = await member({ staff_role: 'admin' })
    const experience = await createExperience(database.db, host.user.id, { no_show_fee_cents: 1000, start_at: new Date(Date.now() + 3_600_000) })
    const as = { token: ann.token }
    expect((await call('POST', `v1/experiences/${experience.id}/attendees`, { ...as, body: { user_id: ann.user.id } })).status).toBe(422)
    expect((await call('POST', `v1/experiences/${experience.id}/attendees`, { ...as, body: { user_id: ann.user.id, fee_consent: true } })).status).toBe(409)
    const started = await call('POST', 'v1/payment-methods/setup', as)
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    await call('POST', `v1/payments/checkout/${checkout}/card`, { ...as, body: { number: '4242424242424242', expiry: '12/40', cvc: '123', postal_code: '97201' } })
    await call('GET', `v1/payment-methods/setup/${started.json.data[0].id}`, as)
    expect((await call('POST', `v1/experiences/${experience.id}/attendees`, { ...as, body: { user_id: ann.user.id, fee_consent: true } })).json.data[0].viewer.fee_bound).toBe(true)
    await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 7_200_000) }).where('id', '=', experience.id).execute()
    expect((await call('GET', `v1/experiences/${experience.id}/attendance`, { token: host.token })).json.data[0].attendees[0]).toMatchObject({ user_id: ann.user.id, present: null, fee_bound: true })
    expect((await call('POST', `v1/experiences/${experience.id}/attendance`, { token: host.token, body: { marks: [{ user_id: ann.user.id, present: false }] } })).status).toBe(200)
    expect((await call('POST', `v1/experiences/${experience.id}/attendance`, { token: host.token, body: { marks: [{ user_id: host.user.id, present: false }] } })).status).toBe(422)
    await database.db.updateTable('experiences').set({ attendance_confirmed_at: new Date(Date.now() - 25 * 3_600_000) }).where('id', '=', experience.id).execute()
    await assessFees({ db: database.db, notify: async () => [] })
    const [fee] = (await call('GET', 'v1/fees', as)).json.data
    expect(fee).toMatchObject({ status: 'noticed', amount: '10.00', can_dispute: true })
    expect((await call('POST', `v1/fees/${fee.id}/dispute`, { ...as, body: { reason: 'x'.repeat(1001) } })).status).toBe(422)
    expect((await call('POST', `v1/fees/${fee.id}/dispute`, { ...as, body: {} })).json.data[0].status).toBe('disputed')
    expect((await call('GET', 'v1/admin/fees', { token: team.token })).json.data.some((entry: { id: string }) => entry.id === fee.id)).toBe(true)
    expect((await call('POST', `v1/admin/fees/${fee.id}/charge`, { token: team.token })).status).toBe(204)
    expect((await call('POST', `v1/admin/fees/${fee.id}/refund`, { token: team.token, body: { reason: 'Not charged yet' } })).json.error.code).toBe('fee_not_charged')
    await chargeDueFees({ db: database.db, notify: async () => [], payments: createBuiltinPayments({ db: database.db, publicUrl: api.env.PUBLIC_URL }), logger: createLogger(api.env) })
    expect((await call('POST', `v1/fees/${fee.id}/pay`, as)).json.error.code).toBe('fee_not_payable')
    expect((await call('POST', `v1/admin/fees/${fee.id}/refund`, { token: team.token, body: { reason: 'The host marked the wrong member.' } })).status).toBe(204)
    // Had the bank declined it, the member could pay it on the hosted page.
    await database.db.updateTable('no_show_fees').set({ status: 'declined' }).where('id', '=', fee.id).execute()
    expect((await call('POST', `v1/fees/${fee.id}/pay`, as)).json.data[0].redirect_url).toMatch(/\/checkout\/cs_builtin_/)
    expect((await call('POST', `v1/admin/fees/${fee.id}/waive`, { token: team.token, body: { reason: 'The host asked us to.' } })).status).toBe(204)
    expect((await call('POST', `v1/admin/fees/${fee.id}/charge`, { token: team.token })).status).toBe(409)
    expect((await call('GET', 'v1/fees')).status).toBe(401)
  })

  it('the team: the overview, roles given and taken back, members found, and viewing Circle 55 as one (decisions 077, 078)', async () => {
    const admin = await member({ staff_role: 'admin', last_sign_in_at: new Date() })
    const ruth = await member({ first_name: 'Ruth', last_name: 'Owens', email: 'ruth.openapi@example.com' })
    const as = { token: admin.token }
    expect((await call('GET', 'v1/admin/overview', as)).json.data[0].role).toBe('admin')
    expect((await call('POST', 'v1/admin/staff', { ...as, body: { email: 'ruth.openapi@example.com', role: 'support' } })).json.data[0].role).toBe('support')
    expect((await call('GET', 'v1/admin/staff', as)).json.data.some((entry: { id: string }) => entry.id === ruth.user.id)).toBe(true)
    expect((await call('PUT', `v1/admin/staff/${ruth.user.id}`, { ...as, body: { role: null } })).json.data).toEqual([])
    expect((await call('PUT', `v1/admin/staff/${admin.user.id}`, { ...as, body: { role: null } })).status).toBe(409)
    expect((await call('GET', 'v1/admin/users?q=ruth.openapi', as)).json.data).toHaveLength(1)
    expect((await call('GET', `v1/admin/users/${ruth.user.id}`, as)).json.data[0].can_impersonate).toBe(true)
    const started = await call('POST', `v1/admin/users/${ruth.user.id}/impersonation`, { ...as, body: { reason: 'She asked for help.' } })
    const viewing = { ...as, headers: { 'x-impersonation': started.json.data[0].id as string } }
    expect((await call('GET', 'v1/impersonation', viewing)).json.data[0].mode).toBe('viewing')
    expect((await call('PUT', 'v1/users/me', { ...viewing, body: {} })).status).toBe(403)
    expect((await call('POST', 'v1/impersonation/acting', { ...viewing, body: { reason: 'She asked me to.' } })).json.data[0].mode).toBe('acting')
    expect((await call('DELETE', 'v1/impersonation', viewing)).status).toBe(204)
    expect((await call('GET', 'v1/impersonation', viewing)).status).toBe(403)
    expect((await call('GET', 'v1/admin/overview', { token: ruth.token })).status).toBe(403)
    const flag = { description: 'A calmer palette', enabled: true, rollout_percent: 50, variants: [{ name: 'calm', weight: 1 }], roles: ['member'], regions: ['OR'], languages: ['en'] }
    expect((await call('PUT', 'v1/admin/flags/calm-colours', { ...as, body: flag })).json.data[0]).toMatchObject({ key: 'calm-colours', rollout_percent: 50 })
    expect((await call('PUT', 'v1/admin/flags/calm-colours', { ...as, body: { ...flag, rollout_percent: 101 } })).status).toBe(422)
    expect((await call('GET', 'v1/admin/flags', as)).json.data.some((entry: { key: string }) => entry.key === 'calm-colours')).toBe(true)
    expect((await call('GET', 'v1/admin/flag-provider', as)).json.data[0]).toMatchObject({ provider: 'builtin', editable: true, reachable: true })
    expect(Object.keys((await call('GET', 'v1/flags', { token: ruth.token })).json.data[0])).toContain('calm-colours')
    expect((await call('GET', 'v1/flags')).status).toBe(200)
  })

  it('the audit log: a page of who did what as whom, the next page, its filters and refusals (decision 089)', async () => {
    const admin = await member({ staff_role: 'admin', first_name: 'Diane', last_name: 'Okafor', last_sign_in_at: new Date() })
    const ruth = await member({ first_name: 'Ruth', last_name: 'Owens', email: 'ruth.audit@example.com' })
    const as = { token: admin.token }
    await call('POST', 'v1/admin/staff', { ...as, body: { email: 'ruth.audit@example.com', role: 'finance' } })
    const page = await call('GET', `v1/admin/audit-log?staff=${admin.user.id}&member=${ruth.user.id}&kind=staff`, as)
    expect(page.json.data[0]).toMatchObject({ action: 'staff.role', who: { display_name: 'Diane O.' }, target: { type: 'user', display_name: 'Ruth O.' } })
    expect((await call('GET', `v1/admin/audit-log?before=${page.json.data[0].id}`, as)).status).toBe(200)
    expect((await call('GET', 'v1/admin/audit-log?kind=everything', as)).status).toBe(422)
    expect((await call('GET', 'v1/admin/audit-log', { token: ruth.token })).status).toBe(403)
    expect((await call('GET', 'v1/admin/audit-log')).status).toBe(401)
  })

  it('analytics consent: the member’s answer on their account (decision 081)', async () => {
    const someone = await member()
    expect((await call('GET', 'v1/users/me/analytics-consent', { token: someone.token })).json.data).toEqual([{ choice: null }])
    expect((await call('PUT', 'v1/users/me/analytics-consent', { token: someone.token, body: { choice: 'granted' } })).json.data).toEqual([{ choice: 'granted' }])
    expect((await call('PUT', 'v1/users/me/analytics-consent', { token: someone.token, body: { choice: 'yes' } })).status).toBe(422)
  })

  it('referrals: the invite link, the choice, the banner, a click, sign-up attribution, Invite a friend (decision 087)', async () => {
    const someone = await member({ first_name: 'Ruth' })
    const summary = await call('GET', 'v1/users/me/referrals', { token: someone.token })
    expect(summary.status).toBe(200)
    const { code } = summary.json.data[0]
    expect((await call('PUT', 'v1/users/me/referrals', { token: someone.token, body: { show_first_name: true } })).status).toBe(200)
    expect((await call('PUT', 'v1/users/me/referrals', { token: someone.token, body: {} })).status).toBe(422)
    expect((await call('GET', `v1/referrals/${code}`)).json.data).toEqual([{ first_name: 'Ruth' }])
    expect((await call('GET', 'v1/referrals/ZZZZ2345')).status).toBe(404)
    expect((await call('POST', `v1/referrals/${code}/clicks`)).status).toBe(204)
    expect((await call('POST', 'v1/referrals/ZZZZ2345/clicks')).status).toBe(404)
    const newcomer = await member()
    expect((await call('POST', 'v1/users/me/attribution', { token: newcomer.token, body: { referral_code: code, device: 'openapi-device', utm_source: 'openapi' } })).json.data).toEqual([{ sign_up: true }])
    expect((await call('POST', 'v1/users/me/attribution', { token: newcomer.token, body: { referral_code: 'nope' } })).status).toBe(422)
    expect((await call('POST', 'v1/users/me/attribution', { body: {} })).status).toBe(401)
    const activity = await createExperience(database.db, someone.user.id)
    const invite = (token: string | undefined, email: string) => call('POST', `v1/experiences/${activity.id}/invite-friend`, { token, body: { email } })
    expect((await invite(someone.token, 'openapi-friend@example.net')).json.data).toEqual([{ email: 'openapi-friend@example.net' }])
    expect((await invite(someone.token, 'not an address')).status).toBe(422)
    expect((await invite(newcomer.token, 'openapi-friend@example.net')).status).toBe(403)
    expect((await call('POST', 'v1/experiences/00000000-0000-4000-8000-000000000000/invite-friend', { token: someone.token, body: { email: 'x@example.net' } })).status).toBe(404)
  })

  it('dashboards: the team’s weekly numbers and a host’s own (decision 082)', async () => {
    const team = await member({ staff_role: 'moderator' })
    expect((await call('GET', 'v1/admin/dashboard', { token: team.token })).json.data[0].weeks).toHaveLength(12)
    expect((await call('GET', 'v1/admin/dashboard?weeks=99', { token: team.token })).status).toBe(422)
    expect((await call('GET', 'v1/admin/dashboard', { token: host.token })).status).toBe(403)
    expect((await call('GET', 'v1/users/me/hosting/dashboard?weeks=4', { token: host.token })).json.data[0].weeks).toHaveLength(4)
    expect((await call('GET', 'v1/users/me/hosting/dashboard')).status).toBe(401)
  })

  it('payment cards: a setup through the built-in hosted page, the list, the default, removal, and the refusals (decision 073)', async () => {
    const owner = await member()
    const as = { token: owner.token }
    const started = await call('POST', 'v1/payment-methods/setup', as)
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    expect((await call('GET', `v1/payments/checkout/${checkout}`, as)).json.data[0].status).toBe('open')
    const typed = { number: '4000 0025 0000 3155', expiry: '12/40', cvc: '123', postal_code: '97201' }
    expect((await call('POST', `v1/payments/checkout/${checkout}/card`, { ...as, body: { ...typed, number: '4000000000000002' } })).status).toBe(422)
    expect((await call('POST', `v1/payments/checkout/${checkout}/card`, { ...as, body: typed })).json.data[0].status).toBe('requires_authentication')
    expect((await call('POST', `v1/payments/checkout/${checkout}/authentication`, { ...as, body: { outcome: 'confirm' } })).json.data[0].status).toBe('complete')
    const card = (await call('GET', `v1/payment-methods/setup/${started.json.data[0].id}`, as)).json.data[0].payment_method
    expect((await call('GET', 'v1/payment-methods', as)).json.data).toEqual([card])
    expect((await call('GET', 'v1/payment-methods/default', as)).json.data).toEqual([card])
    expect((await call('POST', `v1/payment-methods/default?id=${card.id}`, as)).json.data[0].is_default).toBe(true)
    expect((await call('POST', 'v1/payment-methods/default', as)).status).toBe(422)
    expect((await call('DELETE', `v1/payment-methods/${card.id}`, as)).status).toBe(204)
    expect((await call('DELETE', `v1/payment-methods/${card.id}`, as)).status).toBe(404)
    expect((await call('POST', 'v1/payment-methods/setup', { ...as, body: '{nope' })).status).toBe(400)
    expect((await call('GET', 'v1/payment-methods')).status).toBe(401)

    // Stripe's payment events: 404 while payments are built in; with Stripe, signed deliveries only.
    expect((await call('POST', 'v1/webhooks/stripe', { body: {} })).status).toBe(404)
    const secret = 'whsec_openapi_payments'
    const stripe = await createApiHarness(database.db, { STRIPE_SECRET_KEY: 'sk_test_openapi', STRIPE_WEBHOOK_SECRET: secret })
    const payload = JSON.stringify({ id: 'evt_payments_1', type: 'customer.created', created: 1, data: { object: { id: 'cus_1', object: 'customer' } } })
    const signed = { body: payload, app: stripe.app, headers: { 'stripe-signature': signStripePayload(payload, secret) } }
    expect((await call('POST', 'v1/webhooks/stripe', signed)).json).toEqual({ received: true })
    expect((await call('POST', 'v1/webhooks/stripe', { ...signed, headers: { 'stripe-signature': 't=1,v1=00' } })).status).toBe(400)
  })

  it('premium: partnerships, a $0 partner plan, the paid plan through the hosted page, cancel, and the admin’s partnerships (decision 074)', async () => {
    const created = await call('POST', 'v1/admin/partnerships', { token: admin.token, body: { name: 'OpenAPI Partner', regions: ['KS'], active: true } })
    const partnershipId = created.json.data[0].id
    expect((await call('PUT', `v1/admin/partnerships/${partnershipId}`, { token: admin.token, body: { name: 'OpenAPI Partner', regions: ['KS', '66002'], active: true } })).status).toBe(200)
    expect((await call('GET', `v1/admin/partnerships/${partnershipId}`, { token: admin.token })).status).toBe(200)
    expect((await call('GET', 'v1/admin/partnerships', { token: admin.token })).status).toBe(200)
    expect((await call('POST', 'v1/admin/partnerships', { token: admin.token, body: { name: '', regions: [], active: true } })).status).toBe(422)
    const partnered = await member({ region: 'KS' })
    expect((await call('GET', 'v1/subscriptions/partnerships', { token: partnered.token })).json.data[0].id).toBe(partnershipId)
    expect((await call('POST', 'v1/subscriptions/initiate', { token: partnered.token, body: { partnership_id: partnershipId } })).json.data[0].subscription.status).toBe('active')
    expect((await call('POST', 'v1/subscriptions/me/cancel', { token: partnered.token })).json.data[0].status).toBe('canceled')
    const paying = await member()
    expect((await call('POST', 'v1/subscriptions/initiate', { token: paying.token, body: {} })).status).toBe(422)
    const started = await call('POST', 'v1/subscriptions/initiate', {
      token: paying.token,
      body: { consent_to_renewal: true, consent_text_version: PREMIUM_TERMS_VERSION, consent_text: 'Premium renews each year until you cancel.' },
    })
    const checkout = new URL(started.json.data[0].redirect_url).pathname.replace('/checkout/', '')
    const typed = { number: '4242424242424242', expiry: '12/40', cvc: '123', postal_code: '97201' }
    expect((await call('POST', `v1/payments/checkout/${checkout}/card`, { token: paying.token, body: typed })).json.data[0].status).toBe('complete')
    expect((await call('GET', 'v1/subscriptions/me', { token: paying.token })).json.data[0].status).toBe('active')
    expect((await call('POST', 'v1/subscriptions/me/cancel', { token: paying.token })).json.data[0].cancel_at_period_end).toBe(true)
    expect((await call('GET', 'v1/subscriptions/me')).status).toBe(401)
    expect((await call('GET', 'v1/admin/partnerships', { token: paying.token })).status).toBe(403)
  })

  it('verification: status, initiate, the review queue, its photos, decisions, the Stripe webhook', async () => {
    const applicant = await member()
    expect((await call('GET', 'v1/verification', { token: applicant.token })).json.data[0].status).toBe('not_verified')
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#963' } }).jpeg().toBuffer()
    const photos = () => {
      const form = new FormData()
      for (const name of ['document', 'selfie']) form.set(name, new File([new Uint8Array(jpeg)], `${name}.jpg`, { type: 'image/jpeg' }))
      return form
    }
    expect((await call('POST', 'v1/verification/initiate', { token: applicant.token, form: photos() })).json.data[0].status).toBe('processing')
    expect((await call('POST', 'v1/verification/initiate', { token: applicant.token, form: photos() })).json.error.code).toBe('verification_pending')
    expect((await call('POST', 'v1/verification/initiate', { token: guest.token, form: new FormData() })).status).toBe(422)
    expect((await call('POST', 'v1/verification/initiate', { token: guest.token, body: {} })).status).toBe(400)

    const queue = await call('GET', 'v1/verification/requests', { token: admin.token })
    const request = queue.json.data.find((item: Json) => item.user.id === applicant.user.id)
    expect(request).toMatchObject({ status: 'processing', has_files: true })
    expect((await call('GET', 'v1/verification/requests', { token: guest.token })).status).toBe(404)
    expect((await call('GET', `v1/verification/requests/${request.id}`, { token: admin.token })).status).toBe(200)
    const file = await call('GET', `v1/verification/requests/${request.id}/files/selfie`, { token: admin.token })
    expect(file.headers.get('content-type')).toBe('image/jpeg')
    expect((await call('POST', `v1/verification/requests/${request.id}/reject`, { token: admin.token, body: { reason: '' } })).status).toBe(422)
    expect((await call('POST', `v1/verification/requests/${request.id}/reject`, { token: admin.token, body: { reason: 'Blurred.' } })).status).toBe(200)
    expect((await call('POST', `v1/verification/requests/${request.id}/approve`, { token: admin.token })).json.error.code).toBe('verification_decided')
    expect((await call('POST', 'v1/verification/initiate', { token: applicant.token, form: photos() })).status).toBe(200)
    const again = (await call('GET', 'v1/verification/requests?per_page=50', { token: admin.token })).json.data.find((item: Json) => item.user.id === applicant.user.id)
    expect((await call('POST', `v1/verification/requests/${again.id}/approve`, { token: admin.token })).json.data[0].status).toBe('verified')
    expect((await call('POST', 'v1/verification/initiate', { token: applicant.token, form: photos() })).json.error.code).toBe('already_verified')

    // The Stripe webhook: 404 without Stripe; with it, signed deliveries only.
    expect((await call('POST', 'v1/webhooks/stripe-identity', { body: {} })).status).toBe(404)
    const secret = 'whsec_openapi'
    const stripe = await createApiHarness(database.db, { STRIPE_SECRET_KEY: 'sk_test_openapi', STRIPE_IDENTITY_WEBHOOK_SECRET: secret })
    const payload = JSON.stringify({ id: 'evt_1', type: 'identity.verification_session.verified', data: { object: { id: 'vs_unknown', object: 'identity.verification_session' } } })
    const signed = { body: payload, app: stripe.app, headers: { 'stripe-signature': signStripePayload(payload, secret) } }
    expect((await call('POST', 'v1/webhooks/stripe-identity', signed)).json).toEqual({ received: true })
    expect((await call('POST', 'v1/webhooks/stripe-identity', { ...signed, headers: { 'stripe-signature': 't=1,v1=00' } })).status).toBe(400)
  })

  it('support: a member writes to Circle 55 support, an admin answers (decision 039)', async () => {
    const writer = await member()
    const opened = await call('POST', 'v1/support/message-channel', { token: writer.token })
    expect(opened.status).toBe(201)
    const channelId = opened.json.data[0].id as string
    expect((await call('POST', 'v1/support/message-channel', { token: writer.token })).status).toBe(200)
    expect((await call('GET', 'v1/support/help-chat', { token: writer.token })).json.data[0]).toMatchObject({ channel_id: channelId, widget: null })
    expect((await call('POST', `v1/chat/message-channels/${channelId}/messages`, { token: writer.token, body: { text: 'Help, please' } })).status).toBe(201)
    expect((await call('GET', 'v1/admin/support', { token: admin.token })).status).toBe(200)
    expect((await call('GET', 'v1/admin/support', { token: writer.token })).status).toBe(403)
    expect((await call('GET', `v1/admin/support/${channelId}`, { token: admin.token })).status).toBe(200)
    expect((await call('POST', `v1/admin/support/${channelId}/messages`, { token: admin.token, body: { text: 'Here to help' } })).status).toBe(201)
    expect((await call('POST', `v1/admin/support/${channelId}/messages`, { token: admin.token, body: { text: '' } })).status).toBe(422)
    expect((await call('POST', `v1/admin/support/${channelId}/done`, { token: admin.token })).status).toBe(200)
    expect((await call('GET', `v1/admin/support/${crypto.randomUUID()}`, { token: admin.token })).status).toBe(404)
  })

  it('banners: admins create, change and end them; anyone reads those at a point; members hide one (decision 084)', async () => {
    const banner = { title: { en: 'Picnic', fr: 'Pique-nique', nl: 'Picknick' }, body: { en: 'Saturday in the park.', fr: 'Samedi au parc.', nl: 'Zaterdag in het park.' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'states', states: ['OR'] } }
    const created = await call('POST', 'v1/admin/banners', { token: admin.token, body: banner })
    expect(created.status).toBe(201)
    const id = created.json.data[0].id as string
    expect((await call('POST', 'v1/admin/banners', { token: admin.token, body: { ...banner, area: { kind: 'states', states: [] } } })).status).toBe(422)
    expect((await call('GET', 'v1/admin/banners', { token: admin.token })).json.data.some((entry: { id: string }) => entry.id === id)).toBe(true)
    expect((await call('PUT', `v1/admin/banners/${id}`, { token: admin.token, body: { ...banner, audience: 'members' } })).json.data[0].audience).toBe('members')
    expect((await call('GET', 'v1/cms/banners?latitude=45.52&longitude=-122.68', { token: guest.token })).json.data.map((entry: { id: string }) => entry.id)).toContain(id)
    expect((await call('GET', 'v1/cms/banners?latitude=45.52')).status).toBe(422)
    expect((await call('PUT', 'v1/users/me/popups', { token: guest.token, body: { type: 'BANNER', banner_id: id } })).status).toBe(204)
    expect((await call('POST', `v1/admin/banners/${id}/end`, { token: admin.token })).json.data[0].state).toBe('ended')
    expect((await call('POST', `v1/admin/banners/${crypto.randomUUID()}/end`, { token: admin.token })).status).toBe(404)
  })

  it('Medicare calls: the agency, a member’s permission given and stopped, and the agency’s list (decision 086)', async () => {
    const agency = { name: 'OpenAPI Agency', license: 'License 7654321 (OR)', phone: '503-555-0100', disclaimer: 'Not affiliated with any plan.', organization_count: 2, plan_count: 9, callback_days: 2, active: true, notices_email: 'stops@openapi-agency.example' }
    expect((await call('GET', 'v1/admin/medicare/partner', { token: admin.token })).json.data[0].partner).toBeNull()
    expect((await call('GET', 'v1/admin/medicare/export', { token: admin.token })).status).toBe(409)
    expect((await call('PUT', 'v1/admin/medicare/partner', { token: admin.token, body: { ...agency, name: '' } })).status).toBe(422)
    expect((await call('PUT', 'v1/admin/medicare/partner', { token: admin.token, body: agency })).json.data[0].partner.revision).toBe(1)
    expect((await call('GET', 'v1/admin/medicare/partner', { token: guest.token })).status).toBe(403)
    const offer = (await call('GET', 'v1/users/me/medicare?locale=nl', { token: guest.token })).json.data[0].offer
    const agreement = { phone: '(503) 555-0177', topics: ['hearing'], agree: true, version: offer.version, partner_revision: offer.partner_revision }
    expect((await call('POST', 'v1/users/me/medicare', { token: guest.token, body: { ...agreement, phone: '0612345678' } })).status).toBe(422)
    expect((await call('POST', 'v1/users/me/medicare', { token: guest.token, body: agreement })).json.data[0].consent.topics).toEqual(['hearing'])
    expect((await call('POST', 'v1/users/me/medicare', { token: guest.token, body: agreement })).status).toBe(409)
    expect((await call('GET', 'v1/admin/medicare/export?format=json', { token: admin.token })).json.data).toHaveLength(1)
    expect((await call('GET', 'v1/admin/medicare/export', { token: admin.token })).headers.get('content-type')).toMatch(/^text\/csv/)
    expect((await call('GET', 'v1/admin/medicare/export?format=pdf', { token: admin.token })).status).toBe(422)
    expect((await call('DELETE', 'v1/users/me/medicare', { token: guest.token })).status).toBe(204)
    expect((await call('GET', 'v1/users/me/medicare', { token: guest.token })).json.data[0].consent).toBeNull()
  })

  it('surveys: popups, dismissing, answering, and the host’s results (decision 046)', async () => {
    const experience = await createExperience(database.db, host.user.id, { start_at: new Date(Date.now() - 86_400_000) })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.user.id }).execute()
    expect((await call('GET', 'v1/users/me/popups', { token: guest.token })).json.data).toHaveLength(1)
    const survey = { type: 'POST_EXPERIENCE_SURVEY', experience_id: experience.id, rating: 4, feedback: 'Lovely' }
    expect((await call('POST', 'v1/users/me/surveys', { token: guest.token, body: survey })).status).toBe(200)
    expect((await call('POST', 'v1/users/me/surveys', { token: guest.token, body: { ...survey, rating: 9 } })).status).toBe(422)
    expect((await call('POST', 'v1/users/me/surveys', { token: host.token, body: survey })).status).toBe(403)
    expect((await call('GET', `v1/users/me/surveys/${experience.id}`, { token: guest.token })).json).toMatchObject({ rating: 4, feedback: 'Lovely' })
    expect((await call('GET', `v1/users/me/surveys/${experience.id}`, { token: host.token })).status).toBe(403)
    const popup = { type: 'EXPERIENCE_ATTENDANCE', experience_id: experience.id }
    expect((await call('PUT', 'v1/users/me/popups', { token: guest.token, body: popup })).status).toBe(204)
    expect((await call('PUT', 'v1/users/me/popups', { token: guest.token, body: { ...popup, experience_id: crypto.randomUUID() } })).status).toBe(404)
    expect((await call('GET', `v1/experiences/${experience.id}/survey-results`, { token: host.token })).json.rating_count).toBe(1)
    expect((await call('GET', `v1/experiences/${experience.id}/survey-results`, { token: guest.token })).status).toBe(403)
  })

  it('chat: activity channels, direct messages and their refusals', async () => {
    const experience = await createExperience(database.db, host.user.id)
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.user.id }).execute()
    const joined = await call('PUT', `experiences/${experience.id}/message-channels/join`, { token: host.token })
    const channelId = joined.json.data[0].id as string
    expect((await call('PUT', `experiences/${experience.id}/message-channels/join`, { token: guest.token })).status).toBe(200)
    expect((await call('PUT', `experiences/${experience.id}/message-channels/join`, { token: admin.token })).status).toBe(403)
    expect((await call('GET', `experiences/${experience.id}/message-channels`, { token: guest.token })).json.data).toHaveLength(1)
    expect((await call('POST', `v1/chat/message-channels/${channelId}/messages`, { token: guest.token, body: { text: 'Hello' } })).status).toBe(201)
    expect((await call('POST', `v1/chat/message-channels/${channelId}/messages`, { token: guest.token, body: { text: '' } })).status).toBe(422)
    expect((await call('GET', `message-channels/${channelId}?limit=1`, { token: host.token })).json.data[0].messages).toHaveLength(1)
    expect((await call('GET', `message-channels/${channelId}/users`, { token: host.token })).json.data).toHaveLength(2)
    expect((await call('POST', `v1/chat/message-channels/${channelId}/read`, { token: host.token })).status).toBe(204)

    const stranger = await member()
    const dm = await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: guest.user.id } })
    expect(dm.status).toBe(201)
    const dmId = dm.json.data[0].id as string
    expect((await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: guest.user.id } })).status).toBe(200)
    expect((await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: stranger.user.id } })).json.error.code).toBe('cannot_message_self')
    const suspended = await member({ is_suspended: true })
    expect((await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: suspended.user.id } })).json.error.code).toBe('recipient_suspended')
    for (const text of ['One', 'Two']) await call('POST', `v1/chat/message-channels/${dmId}/messages`, { token: stranger.token, body: { text } })
    expect((await call('POST', `v1/chat/message-channels/${dmId}/messages`, { token: stranger.token, body: { text: 'Three' } })).json.error.code).toBe('awaiting_acceptance')
    expect((await call('GET', `message-channels/${dmId}`, { token: host.token })).status).toBe(404)
    expect((await call('POST', `v1/chat/message-channels/${dmId}/accept`, { token: guest.token })).status).toBe(200)
    expect((await call('GET', 'v1/chat/message-channels', { token: guest.token })).json.metadata.total_unread).toBe(2)
    expect((await call('GET', 'v1/chat/message-channels')).status).toBe(401)
    expect((await call('DELETE', `users/message-channels/${dmId}/leave`, { token: guest.token })).status).toBe(204)
    // New-message search (decision 034): the guest met the host at the activity.
    expect((await call('GET', 'v1/chat/users?name=', { token: guest.token })).status).toBe(200)
    expect((await call('GET', `message-channels/${channelId}?show_blocked=true`, { token: guest.token })).status).toBe(200)

    // The scam shield (decision 038): a new member's link before acceptance, the contact reminder, the 6th new conversation.
    const opened = [dmId]
    while (opened.length < 5) {
      const next = await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: (await member()).user.id } })
      opened.push(next.json.data[0].id as string)
    }
    const fresh = `v1/chat/message-channels/${opened[1]}/messages`
    expect((await call('POST', fresh, { token: stranger.token, body: { text: 'See example.org' } })).json.error.fields).toEqual({ text: ['links_not_allowed_yet'] })
    expect((await call('POST', fresh, { token: stranger.token, body: { text: 'Call me on 503 555 0142' } })).json.error.code).toBe('contact_reminder')
    const sixth = await call('POST', 'users/message-channels', { token: stranger.token, body: { user_id: (await member()).user.id } })
    expect(sixth.json.error.code).toBe('new_conversations_limit')

    // The live stream (decision 032) as a poll, replaying from the start: every event's data
    // matches the schema the document names for it.
    const stream = await call('GET', 'v1/chat/events?once=true', { token: guest.token, headers: { 'last-event-id': '0' } })
    const events = new TextDecoder().decode(stream.bytes).split('\n\n').flatMap((block) => {
      const kind = /^event: (\w+)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      return kind && data ? [{ kind, data: JSON.parse(data) as Json }] : []
    })
    const schemas: Record<string, string> = { message: 'ChatMessageEvent', unread: 'ChatUnreadEvent' }
    expect(events.filter((event) => event.kind === 'message').length).toBeGreaterThanOrEqual(3)
    for (const event of events.filter((entry) => entry.kind in schemas)) {
      const validate = validatorFor(schemas[event.kind]!, { $ref: `#/components/schemas/${schemas[event.kind]}` })
      expect(validate(event.data), `${event.kind}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
  })

  it('answered every documented operation with a success at least once', () => {
    const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    const succeeded = [...answered].filter((entry) => /\s2\d\d$/.test(entry)).map((entry) => entry.replace(/\s\d+$/, ''))
    expect(operations.filter((operation) => !succeeded.includes(operation))).toEqual([])
  })
})
