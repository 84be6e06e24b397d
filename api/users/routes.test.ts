import { SignJWT, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, dobForAge, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

async function memberWithToken(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

function loadUser(id: string) {
  return database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('GET /api/v1/users/me', () => {
  it('answers 401 with the error envelope without a token', async () => {
    const response = await api.request('GET', 'v1/users/me')
    expect(response.status).toBe(401)
    expect(response.json).toMatchObject({ error: { code: 'unauthorized' } })
    expect(response.json.error.message).toEqual(expect.any(String))
  })

  it('answers 401 to a malformed authorization header', async () => {
    const response = await api.request('GET', 'v1/users/me', {
      headers: { authorization: 'Basic abc' },
    })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a token that is not a JWT', async () => {
    const response = await api.request('GET', 'v1/users/me', { token: 'not-a-jwt' })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a token signed with another key', async () => {
    const { user } = await memberWithToken()
    const { privateKey } = await generateKeyPair('RS256')
    const token = await api.signToken(user.id, {}, { key: privateKey })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to an unsigned (alg none) token', async () => {
    const { user } = await memberWithToken()
    const now = Math.floor(Date.now() / 1000)
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({
      iss: api.issuer,
      aud: api.env.API_AUDIENCE,
      sub: user.id,
      iat: now,
      exp: now + 600,
    })}.`
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
  })

  it('answers 401 to a token signed with HS256 using the public key id', async () => {
    const { user } = await memberWithToken()
    const token = await new SignJWT({ iss: api.issuer, aud: api.env.API_AUDIENCE, sub: user.id })
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-guessable-shared-secret-of-32-bytes'))
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
  })

  it('answers 401 to an expired token', async () => {
    const { user } = await memberWithToken()
    const now = Math.floor(Date.now() / 1000)
    const token = await api.signToken(user.id, { iat: now - 3600, exp: now - 60 })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a token for another audience', async () => {
    const { user } = await memberWithToken()
    const token = await api.signToken(user.id, { aud: 'https://other.example/api/' })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a token from another issuer', async () => {
    const { user } = await memberWithToken()
    const token = await api.signToken(user.id, { iss: 'https://evil.example/oidc' })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a valid token whose subject has no account', async () => {
    const token = await api.signToken(crypto.randomUUID())
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it('answers 401 to a token without a subject', async () => {
    const token = await api.signToken('', {})
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(401)
  })

  it('returns the signed-in member as a one-item list', async () => {
    const { user, token } = await memberWithToken({
      first_name: 'Margaret',
      last_name: 'Hughes',
      phone: '+15035550142',
    })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.json.data).toHaveLength(1)
    expect(response.json.data[0]).toMatchObject({
      id: user.id,
      slug: user.slug,
      email: user.email,
      first_name: 'Margaret',
      last_name: 'Hughes',
      display_name: 'Margaret H.',
      age: 60,
      phone: '+15035550142',
      formatted_phone: '(503) 555-0142',
      state: 'active',
      admin: false,
      banned: false,
      onboarded: true,
    })
  })

  it('adds the header badges with include=badges, counted as the chat list and the notifications list count them', async () => {
    const { user: reader, token } = await memberWithToken()
    const { token: writerToken } = await memberWithToken()
    const channel = await api.request('POST', 'users/message-channels', { token: writerToken, body: { user_id: reader.id } })
    expect(channel.status).toBe(201)
    const channelId = channel.json.data[0].id as string
    for (const text of ['Hello', 'Are you coming on Sunday?']) {
      expect((await api.request('POST', `v1/chat/message-channels/${channelId}/messages`, { token: writerToken, body: { text } })).status).toBe(201)
    }
    const notify = testNotifier(database.db).notify
    for (let index = 0; index < 3; index++) await notify({ type: 'sample', to: [reader.id], data: {} })

    const plain = await api.request('GET', 'v1/users/me', { token })
    expect(plain.json.data[0]).not.toHaveProperty('badges')
    const withBadges = await api.request('GET', 'v1/users/me?include=badges', { token })
    expect(withBadges.status).toBe(200)
    // Three notifications, and one for the new messages (message.new, one per channel and hour).
    expect(withBadges.json.data[0]).toMatchObject({ id: reader.id, badges: { messages: 2, notifications: 4 } })
    const chat = await api.request('GET', 'v1/chat/message-channels?exclude_results=true', { token })
    const notifications = await api.request('GET', 'users/notifications?seen_at=null&exclude_results=true', { token })
    expect(withBadges.json.data[0].badges).toEqual({ messages: chat.json.metadata.total_unread, notifications: notifications.json.metadata.total_count })

    // Reading the messages and the notifications empties both badges.
    expect((await api.request('POST', `v1/chat/message-channels/${channelId}/read`, { token })).status).toBe(204)
    expect((await api.request('PUT', 'users/notifications/seen', { token })).status).toBe(204)
    expect((await api.request('GET', 'v1/users/me?include=badges', { token })).json.data[0].badges).toEqual({ messages: 0, notifications: 0 })
    // The writer's own messages are not unread for them.
    expect((await api.request('GET', 'v1/users/me?include=badges', { token: writerToken })).json.data[0].badges).toEqual({ messages: 0, notifications: 0 })
  })

  it('answers the shell the same whether its caller lookup reads the header too or is shared with another call (decision 055)', async () => {
    const { user: reader, token } = await memberWithToken()
    await testNotifier(database.db).notify({ type: 'sample', to: [reader.id], data: {} })
    await database.db.insertInto('user_interests').values({ user_id: reader.id, interest: 'walking', position: 0 }).execute()
    // Alone: the member and the header in one statement.
    const alone = await api.request('GET', 'v1/users/me?include=badges', { token })
    expect(alone.json.data[0]).toMatchObject({ id: reader.id, interests: ['walking'], badges: { messages: 0, notifications: 1 } })
    // Sent after another call of the same member: that call's lookup is shared and the route reads the header itself.
    const [, after] = await Promise.all([api.request('GET', 'users/notifications', { token }), api.request('GET', 'v1/users/me?include=badges', { token })])
    // Sent first: the other call shares its lookup, and answers as ever.
    const [first, list] = await Promise.all([api.request('GET', 'v1/users/me?include=badges', { token }), api.request('GET', 'users/notifications', { token })])
    expect(after.json.data[0]).toEqual(alone.json.data[0])
    expect(first.json.data[0]).toEqual(alone.json.data[0])
    expect(list.status).toBe(200)
    expect(list.json.metadata.total_count).toBe(1)
  })

  it('answers 422 include_invalid to an include it does not know', async () => {
    const { token } = await memberWithToken()
    const response = await api.request('GET', 'v1/users/me?include=everything', { token })
    expect(response.status).toBe(422)
    expect(response.json.error.fields).toMatchObject({ include: ['include_invalid'] })
  })

  it('answers 403 user_suspended to a suspended member', async () => {
    const { token } = await memberWithToken({ is_suspended: true })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(403)
    expect(response.json.error.code).toBe('user_suspended')
  })

  it('answers 403 user_suspended to a member in the suspended state', async () => {
    const { token } = await memberWithToken({ state: 'suspended' })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(403)
    expect(response.json.error.code).toBe('user_suspended')
  })

  it('answers 403 user_suspended to a banned member', async () => {
    const { token } = await memberWithToken({ banned: true })
    const response = await api.request('GET', 'v1/users/me', { token })
    expect(response.status).toBe(403)
    expect(response.json.error.code).toBe('user_suspended')
  })

  it('answers calls sent together with one token for that member, and a suspension applies to the very next call (decision 053)', async () => {
    const { user, token } = await memberWithToken()
    const other = await memberWithToken()
    const answers = await Promise.all([
      api.request('GET', 'v1/users/me', { token }),
      api.request('GET', 'v1/users/me?include=badges', { token }),
      api.request('GET', 'v1/users/me', { token: other.token }),
      api.request('GET', 'v1/users/me', { token }),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    expect(answers.map((answer) => (answer.json as { data: { id: string }[] }).data[0]!.id)).toEqual([user.id, user.id, other.user.id, user.id])

    await database.db.updateTable('users').set({ banned: true }).where('id', '=', user.id).execute()
    const next = await api.request('GET', 'v1/users/me', { token })
    expect(next.status).toBe(403)
    expect(next.json.error.code).toBe('user_suspended')
  })
})

describe('PUT /api/v1/users/me', () => {
  it('updates names, gender and join reasons', async () => {
    const { user, token } = await memberWithToken()
    const response = await api.request('PUT', 'v1/users/me', {
      token,
      body: {
        first_name: '  Dorothy ',
        last_name: 'Okafor',
        gender: 'woman',
        join_reasons: ['new_people', 'things_to_do'],
      },
    })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({
      id: user.id,
      first_name: 'Dorothy',
      last_name: 'Okafor',
      display_name: 'Dorothy O.',
      gender: 'woman',
      join_reasons: ['new_people', 'things_to_do'],
    })
    const stored = await loadUser(user.id)
    expect(stored).toMatchObject({
      first_name: 'Dorothy',
      last_name: 'Okafor',
      gender: 'woman',
      join_reasons: ['new_people', 'things_to_do'],
    })
    // The change is visible on the next read too.
    const again = await api.request('GET', 'v1/users/me', { token })
    expect(again.json.data[0].display_name).toBe('Dorothy O.')
  })

  it('leaves fields that are not in the body unchanged', async () => {
    const { user, token } = await memberWithToken({ gender: 'man', phone: '+15035550142' })
    const response = await api.request('PUT', 'v1/users/me', {
      token,
      body: { first_name: 'Walter' },
    })
    expect(response.status).toBe(200)
    const stored = await loadUser(user.id)
    expect(stored).toMatchObject({
      first_name: 'Walter',
      last_name: 'Baker',
      gender: 'man',
      phone: '+15035550142',
    })
  })

  it('stores a US phone number as E.164 and shows it in national format', async () => {
    const { user, token } = await memberWithToken()
    const response = await api.request('PUT', 'v1/users/me', {
      token,
      body: { phone: '(503) 555-0142' },
    })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({
      phone: '+15035550142',
      formatted_phone: '(503) 555-0142',
    })
    expect((await loadUser(user.id)).phone).toBe('+15035550142')
  })

  it('clears the phone number with null', async () => {
    const { user, token } = await memberWithToken({ phone: '+15035550142' })
    const response = await api.request('PUT', 'v1/users/me', { token, body: { phone: null } })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({ phone: null, formatted_phone: null })
    expect((await loadUser(user.id)).phone).toBeNull()
  })

  it.each(['555-0142', '12345', 'call me maybe', '+1 (000) 000-0000'])(
    'rejects the invalid phone %j with 422 and leaves the record alone',
    async (phone) => {
      const { user, token } = await memberWithToken({ phone: '+15035550142' })
      const response = await api.request('PUT', 'v1/users/me', { token, body: { phone } })
      expect(response.status).toBe(422)
      expect(response.json.error.fields.phone).toContain('invalid_phone')
      expect((await loadUser(user.id)).phone).toBe('+15035550142')
    },
  )

  it('rejects an unknown gender and join reason with per-field codes', async () => {
    const { token } = await memberWithToken()
    const response = await api.request('PUT', 'v1/users/me', {
      token,
      body: { gender: 'robot', join_reasons: ['world_domination'] },
    })
    expect(response.status).toBe(422)
    expect(response.json.error.code).toBe('invalid_input')
    expect(Object.keys(response.json.error.fields)).toEqual(
      expect.arrayContaining(['gender', 'join_reasons.0']),
    )
  })

  it('rejects an empty first name', async () => {
    const { token } = await memberWithToken()
    const response = await api.request('PUT', 'v1/users/me', { token, body: { first_name: '   ' } })
    expect(response.status).toBe(422)
    expect(response.json.error.fields.first_name).toContain('required')
  })

  it.each([
    // Control characters are refused for every field of every route, before the route (decision 066).
    ['first_name', 'Mar\u0000garet', 400, 'invalid_characters', 'invalid_characters'],
    ['last_name', 'Hughes\u0007', 400, 'invalid_characters', 'invalid_characters'],
    ['first_name', 'Mar\ngaret', 422, 'invalid_input', 'invalid_characters'],
    ['first_name', '\u200b\u200d\u2060', 422, 'invalid_input', 'required'],
    ['last_name', '\ufeff\u00ad', 422, 'invalid_input', 'required'],
    ['first_name', '\u202eteragraM', 422, 'invalid_input', 'direction_characters'],
    ['last_name', 'Hughes\u2067', 422, 'invalid_input', 'direction_characters'],
  ])('refuses %s %j with %i %s (%s) and keeps the stored name (issue 10)', async (field, name, status, errorCode, code) => {
    const { user, token } = await memberWithToken({ first_name: 'Margaret', last_name: 'Hughes' })
    const response = await api.request('PUT', 'v1/users/me', { token, body: { [field]: name } })
    expect(response.status).toBe(status)
    expect(response.json.error).toMatchObject({ code: errorCode, fields: { [field]: [code] } })
    expect(await loadUser(user.id)).toMatchObject({ first_name: 'Margaret', last_name: 'Hughes' })
  })

  it('keeps names with accents, apostrophes and right-to-left letters', async () => {
    const { token } = await memberWithToken()
    const body = { first_name: 'Zoë-Ann', last_name: 'O’Brien \u05db\u05d4\u05df' }
    const response = await api.request('PUT', 'v1/users/me', { token, body })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject(body)
  })

  it('answers 400 invalid_json to a body that is not JSON', async () => {
    const { token } = await memberWithToken()
    const response = await api.request('PUT', 'v1/users/me', { token, body: '{"first_name":' })
    expect(response.status).toBe(400)
    expect(response.json.error.code).toBe('invalid_json')
  })

  it('ignores protected fields in the body', async () => {
    const { user, token } = await memberWithToken()
    const before = await loadUser(user.id)
    const response = await api.request('PUT', 'v1/users/me', {
      token,
      body: {
        first_name: 'Eve',
        admin: true,
        staff_role: 'admin',
        banned: true,
        is_suspended: true,
        state: 'deleted',
        email: 'attacker@evil.example',
        id: crypto.randomUUID(),
        auth_subject: 'someone-else',
        slug: 'taken-over',
      },
    })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toMatchObject({
      id: user.id,
      first_name: 'Eve',
      admin: false,
      banned: false,
      is_suspended: false,
      state: 'active',
      email: before.email,
      slug: before.slug,
    })
    const after = await loadUser(user.id)
    expect(after).toMatchObject({
      id: before.id,
      first_name: 'Eve',
      staff_role: null,
      banned: false,
      is_suspended: false,
      state: 'active',
      email: before.email,
      auth_subject: before.auth_subject,
      slug: before.slug,
    })
    // The same token still works: the account was not moved to another subject.
    expect((await api.request('GET', 'v1/users/me', { token })).status).toBe(200)
  })

  it('answers 401 without a token', async () => {
    const response = await api.request('PUT', 'v1/users/me', { body: { first_name: 'Nobody' } })
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })
})

describe('PUT /api/v1/users/me: the profile (issue 13 §1)', () => {
  const put = (token: string, body: unknown) => api.request('PUT', 'v1/users/me', { token, body })

  it('a new member has an empty profile: age hidden and seen by everyone near by by default', async () => {
    const { token } = await memberWithToken()
    const me = (await api.request('GET', 'v1/users/me', { token })).json.data[0]
    expect(me).toMatchObject({
      employment: null,
      relationship: null,
      family: [],
      show_age: false,
      nearby_visibility: 'everyone',
      interests: [],
      prompts: [],
      region: null,
    })
  })

  it('saves every profile field and reads them back, in the order given', async () => {
    const { token } = await memberWithToken()
    const body = {
      employment: 'retired',
      relationship: 'widowed',
      family: ['grandchildren', 'pets'],
      show_age: true,
      nearby_visibility: 'attended',
      interests: ['chess', 'walking', 'baking'],
      prompts: [
        { prompt: 'perfect_sunday', answer: '  Church, then a long lunch.\nThen a nap. ' },
        { prompt: 'ask_me_about', answer: 'My roses.' },
      ],
      city: 'us-or-portland',
    }
    const response = await put(token, body)
    expect(response.status).toBe(200)
    // As sent, the answer trimmed and the city the gazetteer's.
    const expected = {
      ...body,
      prompts: [{ prompt: 'perfect_sunday', answer: 'Church, then a long lunch.\nThen a nap.' }, body.prompts[1]],
      city: 'Portland, OR',
      region: 'OR',
    }
    expect(response.json.data[0]).toMatchObject(expected)
    const me = (await api.request('GET', 'v1/users/me', { token })).json.data[0]
    expect(me).toMatchObject(expected)
    expect(me.lat).toBeCloseTo(45.52, 1)
    expect(me.long).toBeCloseTo(-122.68, 1)
  })

  it('leaves profile fields that are absent unchanged, and clears them with null or []', async () => {
    const { token } = await memberWithToken()
    await put(token, { employment: 'retired', family: ['pets'], interests: ['golf'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], city: 'Boise, ID' })
    const unchanged = await put(token, { first_name: 'Jean' })
    expect(unchanged.json.data[0]).toMatchObject({ employment: 'retired', family: ['pets'], interests: ['golf'], city: 'Boise, ID', region: 'ID' })
    expect(unchanged.json.data[0].prompts).toHaveLength(1)
    const cleared = await put(token, { employment: null, family: null, interests: [], prompts: null, city: null })
    expect(cleared.status).toBe(200)
    expect(cleared.json.data[0]).toMatchObject({ employment: null, family: [], interests: [], prompts: [], city: null, region: null, lat: null, long: null })
  })

  it('resolves a typed city name or ZIP to the gazetteer city, never keeping the words typed', async () => {
    const { token } = await memberWithToken()
    const typed = await put(token, { city: 'portland, or' })
    expect(typed.json.data[0]).toMatchObject({ city: 'Portland, OR', region: 'OR' })
    const zip = await put(token, { city: '97201' })
    expect(zip.json.data[0]).toMatchObject({ city: 'Portland, OR', region: 'OR' })
  })

  it('answers 422 unknown_place with the spec message for a city it cannot find, and changes nothing', async () => {
    const { user, token } = await memberWithToken()
    await put(token, { city: 'us-or-portland' })
    const response = await put(token, { city: 'Qqzzxv Wwyy', first_name: 'Changed' })
    expect(response.status).toBe(422)
    expect(response.json.error).toEqual({
      code: 'unknown_place',
      message: 'Unable to find your location. Please try again.',
      fields: { city: ['unknown_place'] },
    })
    expect(await loadUser(user.id)).toMatchObject({ city: 'Portland, OR', first_name: 'Ann' })
  })

  it.each([
    ['more than 10 interests', { interests: ['walking', 'hiking', 'gardening', 'birdwatching', 'fishing', 'cycling', 'yoga', 'swimming', 'pickleball', 'golf', 'chess'] }, 'interests', 'too_many_interests'],
    ['an interest twice', { interests: ['walking', 'walking'] }, 'interests', 'duplicate_interest'],
    ['an interest not in the catalogue', { interests: ['base_jumping'] }, 'interests.0', 'invalid_value'],
    ['more than 3 prompts', { prompts: ['perfect_sunday', 'first_job', 'ask_me_about', 'dream_trip'].map((prompt) => ({ prompt, answer: 'Yes.' })) }, 'prompts', 'too_many_prompts'],
    ['a prompt twice', { prompts: [{ prompt: 'first_job', answer: 'One.' }, { prompt: 'first_job', answer: 'Two.' }] }, 'prompts', 'duplicate_prompt'],
    ['a prompt not in the catalogue', { prompts: [{ prompt: 'favourite_password', answer: 'hunter2' }] }, 'prompts.0.prompt', 'invalid_value'],
    ['an empty answer', { prompts: [{ prompt: 'first_job', answer: ' \u200b ' }] }, 'prompts.0.answer', 'required'],
    ['an answer over 300 characters', { prompts: [{ prompt: 'first_job', answer: 'a'.repeat(301) }] }, 'prompts.0.answer', 'too_long'],
    ['an answer with a direction override', { prompts: [{ prompt: 'first_job', answer: 'Paper \u202eround' }] }, 'prompts.0.answer', 'direction_characters'],
    ['an unknown employment', { employment: 'astronaut' }, 'employment', 'invalid_value'],
    ['an unknown relationship', { relationship: 'complicated' }, 'relationship', 'invalid_value'],
    ['an unknown family member', { family: ['cousins'] }, 'family.0', 'invalid_value'],
    ['a show_age that is not a boolean', { show_age: 'yes' }, 'show_age', 'invalid_type'],
    ['an unknown near-by visibility', { nearby_visibility: 'friends' }, 'nearby_visibility', 'invalid_value'],
    ['an empty first name', { first_name: '' }, 'first_name', 'required'],
    ['a first name over 60 characters', { first_name: 'A'.repeat(61) }, 'first_name', 'too_long'],
    ['an invalid phone', { phone: '12' }, 'phone', 'invalid_phone'],
  ])('refuses %s with 422 and the field code, saving nothing', async (_, body, field, code) => {
    const { user, token } = await memberWithToken()
    const response = await put(token, { ...body, last_name: 'Untouched' })
    expect(response.status).toBe(422)
    expect(response.json.error.code).toBe('invalid_input')
    expect(response.json.error.fields[field]).toContain(code)
    expect((await loadUser(user.id)).last_name).toBe('Baker')
  })

  it('refuses an answer with a control character with 400 invalid_characters on the field, saving nothing (decision 066)', async () => {
    const { user, token } = await memberWithToken()
    const response = await put(token, { prompts: [{ prompt: 'first_job', answer: 'Paper\u0000round' }], last_name: 'Untouched' })
    expect(response.status).toBe(400)
    expect(response.json.error).toMatchObject({ code: 'invalid_characters', fields: { 'prompts.0.answer': ['invalid_characters'] } })
    expect((await loadUser(user.id)).last_name).toBe('Baker')
  })

  it('replaces the interests as a whole, in the order given', async () => {
    const { user, token } = await memberWithToken()
    await put(token, { interests: ['golf'] })
    const response = await put(token, { interests: ['walking', 'chess'], employment: 'retired', first_name: 'Joan' })
    expect(response.status).toBe(200)
    const interests = await database.db.selectFrom('user_interests').select(['interest', 'position']).where('user_id', '=', user.id).orderBy('position').execute()
    expect(interests).toEqual([
      { interest: 'walking', position: 0 },
      { interest: 'chess', position: 1 },
    ])
  })
})

describe('DELETE /api/v1/users/{id}', () => {
  it("answers 403 to deleting another member's account and changes nothing", async () => {
    const { token } = await memberWithToken()
    const other = await createUser(database.db)
    const response = await api.request('DELETE', `v1/users/${other.id}`, { token })
    expect(response.status).toBe(403)
    expect(response.json.error.code).toBe('forbidden')
    expect(await loadUser(other.id)).toMatchObject({ state: 'active', email: other.email })
  })

  it('deletes and anonymises the own account; the token stops working', async () => {
    const { user, token } = await memberWithToken({ phone: '+15035550142' })
    await database.db
      .updateTable('users')
      .set({ gender: 'woman', join_reasons: ['new_people'], city: 'Portland', region: 'OR', lat: 45.5, long: -122.7, locale: 'fr', last_sign_in_at: new Date() })
      .where('id', '=', user.id)
      .execute()
    await database.db
      .insertInto('login_codes')
      .values({ email: user.email!, purpose: 'sign_up', code_hash: 'x', payload: JSON.stringify({ firstName: 'Walter' }), expires_at: new Date(Date.now() + 600_000) })
      .execute()
    const response = await api.request('DELETE', `v1/users/${user.id}`, { token })
    expect(response.status).toBe(204)
    expect(response.json).toBeNull()

    const after = await api.request('GET', 'v1/users/me', { token })
    expect(after.status).toBe(401)
    expect(after.json.error.code).toBe('unauthorized')

    const stored = await loadUser(user.id)
    expect(stored).toMatchObject({
      state: 'deleted',
      email: null,
      phone: null,
      first_name: null,
      last_name: null,
      dob: null,
      auth_subject: null,
      gender: null,
      join_reasons: [],
      city: null,
      region: null,
      lat: null,
      long: null,
      locale: null,
      last_sign_in_at: null,
    })
    expect(await database.db.selectFrom('login_codes').select('id').where('email', '=', user.email!).execute()).toEqual([])
    expect(stored.deleted_at).toBeInstanceOf(Date)

    const audit = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', user.id)
      .where('action', '=', 'user.delete')
      .execute()
    expect(audit).toHaveLength(1)
  })

  it('shows a deleted member to others as the generic label only; the old slug leads nowhere', async () => {
    const { user, token } = await memberWithToken()
    const { token: viewer } = await memberWithToken()
    expect((await api.request('DELETE', `v1/users/${user.id}`, { token })).status).toBe(204)
    const response = await api.request('GET', `users/${user.id}`, { token: viewer })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ id: user.id, slug: `member-${user.id}`, display_name: null, is_suspended: true })
    const bySlug = await api.request('GET', `users/${user.slug}`, { token: viewer })
    expect(bySlug.status).toBe(404)
    expect(bySlug.json.error.code).toBe('not_found')
  })

  it('answers 401 without a token', async () => {
    const user = await createUser(database.db)
    const response = await api.request('DELETE', `v1/users/${user.id}`)
    expect(response.status).toBe(401)
    expect((await loadUser(user.id)).state).toBe('active')
  })
})

describe('GET /api/users/{id}', () => {
  it("shows another member's public profile without contact details, birth date, exact age or coordinates", async () => {
    const { token } = await memberWithToken()
    const other = await createUser(database.db, {
      first_name: 'Harold',
      last_name: 'Li',
      phone: '+15035550199',
      city: 'Portland',
      region: 'OR',
      lat: 45.52,
      long: -122.68,
    })
    const response = await api.request('GET', `users/${other.id}`, { token })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      id: other.id,
      slug: other.slug,
      display_name: 'Harold Li',
      is_suspended: false,
      avatar: null,
      is_verified: false,
      city: 'Portland, OR',
      created_at: other.created_at.toISOString(),
      // Hidden unless the member chooses to show it (profiles.show_age), and then by decade only.
      age_decade: null,
      employment: null,
      relationship: null,
      family: [],
    })
    expect(JSON.stringify(response.json)).not.toContain(other.email!)
    expect(JSON.stringify(response.json)).not.toContain('5550199')
  })

  it('shows the age by decade only when the member chose to show it', async () => {
    const { token } = await memberWithToken()
    const other = await createUser(database.db, { dob: dobForAge(67) })
    await database.db.insertInto('profiles').values({ user_id: other.id, show_age: true, family: [] }).execute()
    const response = await api.request('GET', `users/${other.id}`, { token })
    expect(response.json.age_decade).toBe(60)
    expect(response.json).not.toHaveProperty('age')
  })

  it('finds a member by slug', async () => {
    const { token } = await memberWithToken()
    const other = await createUser(database.db)
    const response = await api.request('GET', `users/${other.slug}`, { token })
    expect(response.status).toBe(200)
    expect(response.json.id).toBe(other.id)
  })

  it('shows a suspended member without a name', async () => {
    const { token } = await memberWithToken()
    const other = await createUser(database.db, { is_suspended: true })
    const response = await api.request('GET', `users/${other.id}`, { token })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ id: other.id, slug: other.slug, display_name: null, is_suspended: true })
  })

  it('answers 404 for an unknown member', async () => {
    const { token } = await memberWithToken()
    const response = await api.request('GET', `users/${crypto.randomUUID()}`, { token })
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('not_found')
  })

  it('answers 400 for an id or slug holding a NUL byte or other control characters, 404 for one too long; never 500 (issue 10)', async () => {
    const { token } = await memberWithToken()
    for (const [key, status, code] of [['abc%00def', 400, 'invalid_characters'], ['%00', 400, 'invalid_characters'], ['abc%1Fdef', 400, 'invalid_characters'], ['x'.repeat(5000), 404, 'not_found']] as const) {
      for (const auth of [undefined, token]) {
        const response = await api.request('GET', `users/${key}`, { token: auth })
        expect(response.status).toBe(status)
        expect(response.json.error.code).toBe(code)
      }
    }
    // Refused before any route, deleting "someone else" included (decision 066).
    expect((await api.request('DELETE', 'v1/users/abc%00def', { token })).status).toBe(400)
  })

  it('gives an anonymous caller the name only (for referral banners)', async () => {
    const other = await createUser(database.db, { first_name: 'Ada', last_name: 'Lovelace' })
    const response = await api.request('GET', `users/${other.id}`)
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ id: other.id, slug: other.slug, display_name: 'Ada L.' })
  })
})

describe('API surface', () => {
  it('publishes an OpenAPI document listing the user routes', async () => {
    const response = await api.request('GET', '/api/openapi.json')
    expect(response.status).toBe(200)
    expect(response.json.openapi).toMatch(/^3\./)
    expect(response.json.servers[0].url).toBe('http://localhost:3999/api')
    expect(response.json.paths['/v1/users/me']).toHaveProperty('get')
    expect(response.json.paths['/v1/users/me']).toHaveProperty('put')
    expect(response.json.paths['/v1/users/{id}']).toHaveProperty('delete')
    expect(response.json.paths['/users/{id}']).toHaveProperty('get')
  })

  it('answers unknown routes with a JSON 404', async () => {
    const response = await api.request('GET', 'v1/nothing-here')
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('not_found')
  })

  it('reports health', async () => {
    const response = await api.request('GET', 'health')
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ status: 'ok' })
  })
})

describe('POST /api/v1/users/me/sign-ins (issue 12 §4)', () => {
  const day = 24 * 60 * 60 * 1000

  it('records the sign-in and answers the one before it: none the first time', async () => {
    const { user, token } = await memberWithToken()
    const first = await api.request('POST', 'v1/users/me/sign-ins', { token })
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ data: [{ previous_sign_in_at: null, welcome_back: false }] })
    const recorded = (await loadUser(user.id)).last_sign_in_at
    expect(recorded).toBeInstanceOf(Date)
    const second = await api.request('POST', 'v1/users/me/sign-ins', { token })
    expect(second.json).toEqual({ data: [{ previous_sign_in_at: recorded?.toISOString(), welcome_back: false }] })
  })

  it('says welcome back after 90 days or more without signing in, not before', async () => {
    for (const [daysAway, welcomeBack] of [
      [89, false],
      [90, true],
      [400, true],
    ] as const) {
      const { user, token } = await memberWithToken({ last_sign_in_at: new Date(Date.now() - daysAway * day - 60_000) })
      const response = await api.request('POST', 'v1/users/me/sign-ins', { token })
      expect(response.json.data[0].welcome_back, `${daysAway} days away`).toBe(welcomeBack)
      expect(Date.now() - (await loadUser(user.id)).last_sign_in_at!.getTime()).toBeLessThan(60_000)
    }
  })

  it('answers 401 without a token', async () => {
    expect((await api.request('POST', 'v1/users/me/sign-ins')).status).toBe(401)
  })
})
