import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

const DAY = 24 * 3_600_000

let database: TestDatabase
let api: ApiHarness
let host: User
let member: User
let memberToken: string
let experienceId: string

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
  member = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes' })
  memberToken = await api.signToken(member.id)
  const start = new Date(Date.now() + 5 * DAY)
  const experience = await database.db
    .insertInto('experiences')
    .values({
      slug: `walk-${randomBytes(4).toString('hex')}`,
      title: 'Riverside walk',
      venue_type: 'in_person',
      host_id: host.id,
      latitude: 45.5231,
      longitude: -122.6765,
      city: 'Portland',
      region: 'OR',
      place_id: 'us-or-portland',
      formatted_address: '1 SW Naito Pkwy, Portland, OR',
      timezone: 'America/Los_Angeles',
      start_at: start,
      end_at: new Date(start.getTime() + 2 * 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  experienceId = experience.id
})

afterAll(async () => {
  await database?.drop()
})

function reportsBy(userId: string) {
  return database.db.selectFrom('reports').selectAll().where('reporter_id', '=', userId).orderBy('created_at').execute()
}

describe('POST /v1/reported-contents', () => {
  it('refuses anonymous callers with 401', async () => {
    const response = await api.request('POST', 'v1/reported-contents', {
      body: { reason: 'fake_or_scam', experience_id: experienceId },
    })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('records a member’s report of an activity and answers 201', async () => {
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'harmful_or_illegal', details: '  Asks for money up front.  ', experience_id: experienceId, unknown: 'ignored' },
    })
    expect(response.status).toBe(201)
    const [created] = response.json.data
    expect(created).toEqual({ id: expect.any(String), reason: 'harmful_or_illegal', created_at: expect.any(String) })
    const rows = await reportsBy(member.id)
    const row = rows.find((report) => report.id === created.id)
    expect(row).toMatchObject({
      reporter_id: member.id,
      experience_id: experienceId,
      reported_user_id: host.id,
      message_id: null,
      reason: 'harmful_or_illegal',
      details: 'Asks for money up front.',
      resolved_at: null,
    })
  })

  it('serves the spec’s unversioned path too, details optional', async () => {
    const response = await api.request('POST', 'reported-contents', {
      token: memberToken,
      body: { reason: 'something_else', user_id: host.id },
    })
    expect(response.status).toBe(201)
    const row = await database.db.selectFrom('reports').selectAll().where('id', '=', response.json.data[0].id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ reporter_id: member.id, reported_user_id: host.id, details: '' })
  })

  it('answers 422 for an invalid or missing reason', async () => {
    const invalid = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'boring', experience_id: experienceId },
    })
    expect(invalid.status).toBe(422)
    expect(invalid.json.error.fields).toEqual({ reason: ['reason_invalid'] })
    const missing = await api.request('POST', 'v1/reported-contents', { token: memberToken, body: { experience_id: experienceId } })
    expect(missing.status).toBe(422)
    expect(missing.json.error.fields.reason).toEqual(['reason_invalid'])
  })

  it('answers 422 for details that are too long', async () => {
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'fake_or_scam', details: 'x'.repeat(2001), experience_id: experienceId },
    })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toEqual({ details: ['details_too_long'] })
  })

  it.each([
    // Control characters: refused for every field of every route before the route (decision 066).
    ['Stolen\u0000 photos', 400, 'invalid_characters', 'invalid_characters'],
    ['\u001b[2J', 400, 'invalid_characters', 'invalid_characters'],
    ['Looks like \u202eten.evil', 422, 'invalid_input', 'direction_characters'],
    ['\u2068isolated\u2069', 422, 'invalid_input', 'direction_characters'],
  ])('answers %j with %i %s (%s) and records nothing (issue 10)', async (details, status, errorCode, code) => {
    const before = (await reportsBy(member.id)).length
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'something_else', details, experience_id: experienceId },
    })
    expect(response.status).toBe(status)
    expect(response.json.error).toMatchObject({ code: errorCode, fields: { details: [code] } })
    expect(await reportsBy(member.id)).toHaveLength(before)
  })

  it('keeps line breaks and tabs in the details', async () => {
    const details = 'First line.\n\tSecond line,\r\nthird.'
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'something_else', details, experience_id: experienceId },
    })
    expect(response.status).toBe(201)
    const stored = await reportsBy(member.id)
    expect(stored.at(-1)?.details).toBe(details)
  })

  it('answers 422 when nothing is reported', async () => {
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'fake_or_scam', details: 'Something is wrong.' },
    })
    expect(response.status).toBe(422)
    expect(response.json.error).toMatchObject({ code: 'invalid_input', fields: { target: ['target_required'] } })
  })

  it('answers 422 for a malformed id and 400 for a body that is not JSON', async () => {
    const badId = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'fake_or_scam', experience_id: 'not-a-uuid' },
    })
    expect(badId.status).toBe(422)
    expect(badId.json.error.fields).toEqual({ experience_id: ['experience_id_invalid'] })
    const badJson = await api.request('POST', 'v1/reported-contents', { token: memberToken, body: '{"reason":' })
    expect(badJson.status).toBe(400)
    expect(badJson.json.error.code).toBe('invalid_json')
  })

  it('answers 422 when members report themselves', async () => {
    const response = await api.request('POST', 'v1/reported-contents', {
      token: memberToken,
      body: { reason: 'something_else', user_id: member.id },
    })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toEqual({ user_id: ['cannot_report_self'] })
  })

  it('answers 404 for an unknown activity, member or message, and records nothing', async () => {
    const before = (await reportsBy(member.id)).length
    for (const field of ['experience_id', 'user_id', 'message_id', 'channel_id']) {
      const response = await api.request('POST', 'v1/reported-contents', {
        token: memberToken,
        body: { reason: 'low_quality_or_spam', [field]: randomUUID() },
      })
      expect(response.status, field).toBe(404)
      expect(response.json.error.code).toBe('not_found')
    }
    expect(await reportsBy(member.id)).toHaveLength(before)
  })
})

describe('OpenAPI', () => {
  it('documents both report paths', async () => {
    const response = await api.request('GET', 'openapi.json')
    const paths = response.json.paths
    expect(Object.keys(paths['/v1/reported-contents'])).toEqual(['post'])
    expect(Object.keys(paths['/reported-contents'])).toEqual(['post'])
    const schema = paths['/v1/reported-contents'].post.requestBody.content['application/json'].schema
    expect(schema.properties.reason.enum).toEqual([
      'fake_or_scam',
      'harmful_or_illegal',
      'happened_in_person',
      'inappropriate_or_offensive',
      'low_quality_or_spam',
      'something_else',
    ])
  })
})
