import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hash } from '@node-rs/argon2'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAccounts } from '#api/identity/accounts.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The member's own account (issue 13 §4, decision 028) against the real database: changing the
 * sign-in address with a code sent to the new one, signing out everywhere, and deleting the
 * account (hosted activities cancelled, seats given back to the notify list, personal data and
 * photos erased, the address free to sign up again).
 */
let database: TestDatabase
let api: ApiHarness
const media = createLocalStorage(await mkdtemp(join(tmpdir(), 'circle55-account-media-')))
const codeSecret = 'a test code secret'

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {}, { media, codeSecret })
})

afterAll(async () => {
  await database?.drop()
})

beforeEach(async () => {
  await database.db.deleteFrom('rate_limits').execute()
})

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

const loadUser = (id: string) => database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

/** The emails sent to `address`, newest first, as the outbox holds them. */
function mailTo(address: string) {
  return database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', address).orderBy('created_at', 'desc').execute()
}

async function latestCode(address: string) {
  const [mail] = await mailTo(address)
  const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1]
  if (!code) throw new Error(`no code emailed to ${address}`)
  return code
}

let counter = 0
const newAddress = () => `new-address-${++counter}-${crypto.randomUUID().slice(0, 6)}@example.com`
const accounts = () => createAccounts({ db: database.db, mailer: createMailer({ db: database.db }), codeSecret })

describe('changing the sign-in email (POST v1/users/me/email-change, …/confirm)', () => {
  it('sends a code to the new address, changes the address only with it, tells the old one, and keeps the sessions', async () => {
    const { user, token } = await member({ first_name: 'Ruth', locale: 'fr' })
    const oldEmail = user.email!
    await database.db.insertInto('web_sessions').values({ id: `s-${user.id}`, user_id: user.id, data: '{}', expires_at: new Date(Date.now() + 3_600_000) }).execute()
    const email = newAddress()

    const started = await api.request('POST', 'v1/users/me/email-change', { token, body: { email: `  ${email} ` } })
    expect(started.status).toBe(202)
    expect(started.json).toEqual({ email, expires_in_minutes: 10 })
    const [codeMail] = await mailTo(email)
    expect(codeMail).toMatchObject({ kind: 'emailChangeCode', locale: 'fr' })
    expect(codeMail!.text_body).toMatch(/^Bonjour Ruth,/)
    // Nothing changes before the code comes back; the change waits for it.
    expect((await loadUser(user.id)).email).toBe(oldEmail)
    const pending = await api.request('GET', 'v1/users/me/email-change', { token })
    expect(pending.status).toBe(200)
    expect(pending.json).toEqual({ email, expires_at: expect.any(String) })

    const confirmed = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: ` ${await latestCode(email)} ` } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.data[0]).toMatchObject({ id: user.id, email })
    expect((await loadUser(user.id)).email).toBe(email)
    // The try that succeeded is forgiven: it does not count against the member.
    expect(await database.db.selectFrom('rate_limits').select('count').where('key', '=', `email-change-check:${user.id}`).executeTakeFirst()).toEqual({ count: 0 })
    const [notice] = await mailTo(oldEmail)
    expect(notice).toMatchObject({ kind: 'emailChanged', locale: 'fr' })
    expect(notice!.text_body).not.toContain(email)
    expect(await database.db.selectFrom('web_sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1)
    expect((await api.request('GET', 'v1/users/me/email-change', { token })).status).toBe(404)
    const audit = await database.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).where('action', '=', 'user.email_change').execute()
    expect(audit).toHaveLength(1)
    expect(JSON.stringify(audit[0]!.data)).not.toContain('@')
    // The code is used once.
    const again = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: await latestCode(email) } })
    expect(again.status).toBe(422)
    expect(again.json.error.fields).toEqual({ code: ['code_expired'] })
  })

  it('signs the member in with the new address afterwards, and no longer with the old one', async () => {
    const { user, token } = await member()
    const oldEmail = user.email!
    await database.db.insertInto('credentials').values({ user_id: user.id, password_hash: await hash('a long password 55') }).execute()
    // A sign-in code sent to the old address before the change stops working with it.
    expect(await accounts().sendCode(oldEmail, 'sign_in', 'en')).toEqual({ ok: true })
    const oldCode = await latestCode(oldEmail)
    const email = newAddress()
    await api.request('POST', 'v1/users/me/email-change', { token, body: { email } })
    expect((await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: await latestCode(email) } })).status).toBe(200)

    expect(await accounts().verifyPassword(email, 'a long password 55')).toEqual({ accountId: user.auth_subject })
    expect(await accounts().verifyPassword(oldEmail, 'a long password 55')).toEqual({ error: 'invalid' })
    expect(await accounts().verifyCode(oldEmail, oldCode, 'sign_in')).toMatchObject({ error: expect.any(String) })
    expect(await accounts().sendCode(email, 'sign_in', 'en')).toEqual({ ok: true })
    expect(await accounts().verifyCode(email, await latestCode(email), 'sign_in')).toEqual({ accountId: user.auth_subject })
    expect((await accounts().claims(user.auth_subject!))?.email).toBe(email)
  })

  it('refuses an invalid address and the current one with per-field codes', async () => {
    const { user, token } = await member()
    const cases: [unknown, string[]][] = [
      [{ email: 'not an address' }, ['email_invalid']],
      [{ email: '' }, ['required']],
      [{}, ['required']],
      [{ email: user.email!.toUpperCase() }, ['same_email']],
    ]
    for (const [body, codes] of cases) {
      const response = await api.request('POST', 'v1/users/me/email-change', { token, body })
      expect(response.status, JSON.stringify(body)).toBe(422)
      expect(response.json.error.fields.email).toEqual(codes)
    }
  })

  it("does not reveal an address that belongs to another account: same answer, no code, its owner is told", async () => {
    const { token } = await member()
    const owner = await createUser(database.db, { email: newAddress(), first_name: 'Olga' })
    const response = await api.request('POST', 'v1/users/me/email-change', { token, body: { email: owner.email } })
    expect(response.status).toBe(202)
    expect(response.json).toEqual({ email: owner.email, expires_in_minutes: 10 })
    const mails = await mailTo(owner.email!)
    expect(mails.map((mail) => mail.kind)).toEqual(['emailChangeTaken'])
    expect(mails[0]!.text_body).not.toMatch(/\b\d{6}\b/)
    const confirm = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: '123456' } })
    expect(confirm.status).toBe(422)
    expect(confirm.json.error.fields).toEqual({ code: ['code_expired'] })
  })

  it('allows 5 attempts at a code, then asks for a new one; a wrong code changes nothing', async () => {
    const { user, token } = await member()
    const email = newAddress()
    await api.request('POST', 'v1/users/me/email-change', { token, body: { email } })
    const right = await latestCode(email)
    const wrong = right === '000000' ? '111111' : '000000'
    const answers: string[] = []
    for (let i = 0; i < 5; i++) {
      const response = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: wrong } })
      expect(response.status).toBe(422)
      answers.push(response.json.error.fields.code[0])
    }
    expect(answers).toEqual(['code_invalid', 'code_invalid', 'code_invalid', 'code_invalid', 'code_expired'])
    expect((await api.request('GET', 'v1/users/me/email-change', { token })).status).toBe(404)
    const late = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: right } })
    expect(late.json.error.fields).toEqual({ code: ['code_expired'] })
    expect((await loadUser(user.id)).email).toBe(user.email)
    const malformed = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: '12ab' } })
    expect(malformed.json.error.fields).toEqual({ code: ['code_invalid'] })
  })

  it("a code works only for the member it was sent for, and a new request replaces the earlier one", async () => {
    const { user, token } = await member()
    const { token: otherToken } = await member()
    const first = newAddress()
    const second = newAddress()
    await api.request('POST', 'v1/users/me/email-change', { token, body: { email: first } })
    const firstCode = await latestCode(first)
    // Another member holds no change: the code is not theirs.
    const stolen = await api.request('POST', 'v1/users/me/email-change/confirm', { token: otherToken, body: { code: firstCode } })
    expect(stolen.status).toBe(422)
    await api.request('POST', 'v1/users/me/email-change', { token, body: { email: second } })
    const stale = await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: firstCode } })
    expect(stale.status).toBe(422)
    expect((await api.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: await latestCode(second) } })).status).toBe(200)
    expect((await loadUser(user.id)).email).toBe(second)
  })

  it('limits codes per member and per address', async () => {
    const { token } = await member()
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await api.request('POST', 'v1/users/me/email-change', { token, body: { email: newAddress() } })).status)
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429])
    const refused = await api.request('POST', 'v1/users/me/email-change', { token, body: { email: newAddress() } })
    expect(refused.json.error.code).toBe('too_many_attempts')
    // The 15 minutes' window started with the first code.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60)
    expect(refused.json.error.message).toBe('Too many attempts. Please wait 15 minutes and try again.')

    const target = newAddress()
    const perAddress: number[] = []
    for (let i = 0; i < 6; i++) {
      const { token: someone } = await member()
      perAddress.push((await api.request('POST', 'v1/users/me/email-change', { token: someone, body: { email: target } })).status)
    }
    expect(perAddress).toEqual([202, 202, 202, 202, 202, 429])
    expect((await api.request('POST', 'v1/users/me/email-change', { token, body: { email: newAddress() } })).json.error.code).toBe('too_many_attempts')
  })

  it('answers 409 email_change_unavailable when the identity lives at Auth0', async () => {
    const auth0 = await createApiHarness(database.db, {
      AUTH0_DOMAIN: 'circle55-test.us.auth0.com',
      AUTH0_CLIENT_ID: 'client',
      AUTH0_CLIENT_SECRET: 'secret',
      AUTH0_AUDIENCE: 'https://api.circle55.test/',
    })
    const user = await createUser(database.db)
    const token = await auth0.signToken(user.id)
    const response = await auth0.request('POST', 'v1/users/me/email-change', { token, body: { email: newAddress() } })
    expect(response.status).toBe(409)
    expect(response.json.error.code).toBe('email_change_unavailable')
    expect((await auth0.request('POST', 'v1/users/me/email-change/confirm', { token, body: { code: '123456' } })).status).toBe(409)
  })

  it('answers 401 without a token', async () => {
    expect((await api.request('POST', 'v1/users/me/email-change', { body: { email: newAddress() } })).status).toBe(401)
    expect((await api.request('POST', 'v1/users/me/email-change/confirm', { body: { code: '123456' } })).status).toBe(401)
  })
})

describe('signing out everywhere (DELETE v1/users/me/sessions)', () => {
  it("ends every web session and the identity provider's grants of the member, nobody else's", async () => {
    const { user, token } = await member()
    const other = await createUser(database.db)
    const expires = new Date(Date.now() + 3_600_000)
    await database.db
      .insertInto('web_sessions')
      .values([
        { id: `a-${user.id}`, user_id: user.id, data: '{}', expires_at: expires },
        { id: `b-${user.id}`, user_id: user.id, data: '{}', expires_at: expires },
        { id: `c-${other.id}`, user_id: other.id, data: '{}', expires_at: expires },
      ])
      .execute()
    await database.db
      .insertInto('oidc_payloads')
      .values([
        { id: `rt-${user.id}`, type: 'RefreshToken', payload: JSON.stringify({ accountId: user.auth_subject }), grant_id: null, user_code: null, uid: null, expires_at: expires, consumed_at: null },
        { id: `rt-${other.id}`, type: 'RefreshToken', payload: JSON.stringify({ accountId: other.auth_subject }), grant_id: null, user_code: null, uid: null, expires_at: expires, consumed_at: null },
      ])
      .execute()

    const response = await api.request('DELETE', 'v1/users/me/sessions', { token })
    expect(response.status).toBe(204)
    const sessions = await database.db.selectFrom('web_sessions').select('id').where('user_id', 'in', [user.id, other.id]).execute()
    expect(sessions.map((s) => s.id)).toEqual([`c-${other.id}`])
    const grants = await database.db.selectFrom('oidc_payloads').select('id').where('id', 'in', [`rt-${user.id}`, `rt-${other.id}`]).execute()
    expect(grants.map((g) => g.id)).toEqual([`rt-${other.id}`])
    expect((await api.request('DELETE', 'v1/users/me/sessions')).status).toBe(401)
  })
})

describe('deleting the account (DELETE v1/users/{id})', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000)

  it('cancels the upcoming activities the member hosts and tells their attendees; a past one stays', async () => {
    const { user: host, token } = await member()
    const attendee = await createUser(database.db)
    const upcoming = await createExperience(database.db, host.id, { attendees_count: 1 })
    const past = await createExperience(database.db, host.id, { start_at: inHours(-48), attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values([{ experience_id: upcoming.id, user_id: attendee.id }, { experience_id: past.id, user_id: attendee.id }]).execute()

    expect((await api.request('DELETE', `v1/users/${host.id}`, { token })).status).toBe(204)
    const rows = await database.db.selectFrom('experiences').select(['id', 'canceled_at', 'canceled_by']).where('id', 'in', [upcoming.id, past.id]).execute()
    expect(rows.find((r) => r.id === upcoming.id)).toMatchObject({ canceled_at: expect.any(Date), canceled_by: host.id })
    expect(rows.find((r) => r.id === past.id)).toMatchObject({ canceled_at: null })
    const told = await database.db.selectFrom('notifications').select(['type', 'data']).where('user_id', '=', attendee.id).execute()
    expect(told).toEqual([{ type: 'experience.canceled', data: { experience_id: upcoming.id, canceled_by: host.id } }])
    // The attendee keeps reading the cancelled activity; the host shows under the generic label.
    const seen = await api.request('GET', `v1/experiences/${upcoming.id}`, { token: await api.signToken(attendee.id) })
    expect(seen.json.data[0].canceled).toMatchObject({ by: { role: 'host', display_name: null } })
  })

  it('gives the seats back by the attendance rules: seated from the notify list far ahead, the list told within 24 hours', async () => {
    const { user, token } = await member()
    const host = await createUser(database.db)
    const farAhead = await createExperience(database.db, host.id, { max_attendees: 1, attendees_count: 1 })
    const soon = await createExperience(database.db, host.id, { max_attendees: 1, attendees_count: 1, start_at: inHours(6) })
    const waiting = await createUser(database.db)
    for (const experience of [farAhead, soon]) {
      await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: user.id }).execute()
      await database.db.insertInto('waitlist_entries').values({ experience_id: experience.id, user_id: waiting.id }).execute()
    }

    expect((await api.request('DELETE', `v1/users/${user.id}`, { token })).status).toBe(204)
    const seats = await database.db.selectFrom('experience_attendees').select(['experience_id', 'user_id']).where('experience_id', 'in', [farAhead.id, soon.id]).execute()
    expect(seats).toEqual([{ experience_id: farAhead.id, user_id: waiting.id }])
    const counts = await database.db.selectFrom('experiences').select(['id', 'attendees_count']).where('id', 'in', [farAhead.id, soon.id]).execute()
    expect(Object.fromEntries(counts.map((c) => [c.id, c.attendees_count]))).toEqual({ [farAhead.id]: 1, [soon.id]: 0 })
    const told = await database.db.selectFrom('notifications').select(['type', 'data']).where('user_id', '=', waiting.id).orderBy('type').execute()
    expect(told).toEqual([
      { type: 'waitlist.seat_available', data: { experience_id: soon.id } },
      { type: 'waitlist.selected', data: { experience_id: farAhead.id } },
    ])
    expect(api.queuedJobs.filter((job) => job.name === 'notification.deliver').length).toBeGreaterThanOrEqual(2)
  })

  it('keeps a past seat, shown under the generic member label in the attendee list', async () => {
    const { user, token } = await member()
    const host = await createUser(database.db)
    const viewer = await createUser(database.db)
    const past = await createExperience(database.db, host.id, { start_at: inHours(-72), attendees_count: 2 })
    await database.db.insertInto('experience_attendees').values([{ experience_id: past.id, user_id: user.id }, { experience_id: past.id, user_id: viewer.id }]).execute()

    expect((await api.request('DELETE', `v1/users/${user.id}`, { token })).status).toBe(204)
    const list = await api.request('GET', `v1/experiences/${past.id}/attendees`, { token: await api.signToken(viewer.id) })
    expect(list.status).toBe(200)
    expect(list.json.data).toEqual(
      expect.arrayContaining([
        { id: user.id, display_name: null, avatar: null, is_host: false, is_verified: false },
        expect.objectContaining({ id: viewer.id, display_name: 'Ann B.' }),
      ]),
    )
    expect(list.json.metadata.total_count).toBe(2)
  })

  it('erases the personal data in the same transaction, and the photo files after it', async () => {
    const { user, token } = await member({ phone: '+15035550142', phone_confirmed_at: new Date() })
    const db = database.db
    const photo = await db
      .insertInto('media')
      .values({ owner_id: user.id, target: 'avatar', storage_key: `avatars/${user.id}.jpg`, thumbnail_key: `avatars/${user.id}-t.jpg`, mime_type: 'image/jpeg', width: 10, height: 10, bytes: 3 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await media.put(`avatars/${user.id}.jpg`, new Uint8Array([1, 2, 3]), 'image/jpeg')
    await media.put(`avatars/${user.id}-t.jpg`, new Uint8Array([1, 2, 3]), 'image/jpeg')
    await db.updateTable('users').set({ avatar_media_id: photo.id }).where('id', '=', user.id).execute()
    await db.insertInto('profiles').values({ user_id: user.id, bio: 'I love walks', family: [] }).execute()
    await db.insertInto('user_interests').values({ user_id: user.id, interest: 'walking' }).execute()
    await db.insertInto('profile_prompts').values({ user_id: user.id, prompt: 'favourite_place', answer: 'The coast' }).execute()
    await db.insertInto('verifications').values({ user_id: user.id, media_id: photo.id }).execute()
    await db.insertInto('credentials').values({ user_id: user.id, password_hash: 'x' }).execute()
    await db.insertInto('web_sessions').values({ id: `d-${user.id}`, user_id: user.id, data: '{}', expires_at: inHours(1) }).execute()
    await db
      .insertInto('oidc_payloads')
      .values({ id: `g-${user.id}`, type: 'Grant', payload: JSON.stringify({ accountId: user.auth_subject }), grant_id: null, user_code: null, uid: null, expires_at: inHours(1), consumed_at: null })
      .execute()
    await db.insertInto('login_codes').values({ email: user.email!, purpose: 'sign_in', code_hash: 'x', expires_at: inHours(1) }).execute()
    await db
      .insertInto('login_codes')
      .values({ email: newAddress(), purpose: 'change_email', code_hash: 'x', payload: JSON.stringify({ user_id: user.id }), expires_at: inHours(1) })
      .execute()
    await db
      .insertInto('login_codes')
      .values({ email: '+15035550142', purpose: 'confirm_phone', code_hash: 'x', payload: JSON.stringify({ user_id: user.id }), expires_at: inHours(1) })
      .execute()
    await db.insertInto('sms_outbox').values({ user_id: user.id, to_number: '+15035550142', body: 'Your code: 123456', kind: 'phone_code', locale: 'en' }).execute()

    expect((await api.request('DELETE', `v1/users/${user.id}`, { token })).status).toBe(204)
    for (const table of ['profiles', 'user_interests', 'profile_prompts', 'verifications', 'credentials', 'web_sessions'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', user.id).execute()
      expect(rows, table).toEqual([])
    }
    expect(await db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute()).toEqual([])
    expect(await media.get(`avatars/${user.id}.jpg`)).toBeNull()
    expect(await media.get(`avatars/${user.id}-t.jpg`)).toBeNull()
    expect(await db.selectFrom('oidc_payloads').select('id').where('id', '=', `g-${user.id}`).execute()).toEqual([])
    expect(await db.selectFrom('login_codes').select('id').where('email', '=', user.email!).execute()).toEqual([])
    expect(await db.selectFrom('login_codes').select('id').where('purpose', '=', 'change_email').where((eb) => eb(eb.ref('payload', '->>').key('user_id' as never), '=', user.id)).execute()).toEqual([])
    expect(await db.selectFrom('login_codes').select('id').where('purpose', '=', 'confirm_phone').where('email', '=', '+15035550142').execute()).toEqual([])
    expect(await db.selectFrom('sms_outbox').select('id').where((eb) => eb.or([eb('user_id', '=', user.id), eb('to_number', '=', '+15035550142')])).execute()).toEqual([])
    expect(await loadUser(user.id)).toMatchObject({ state: 'deleted', email: null, phone: null, phone_confirmed_at: null, dob: null, first_name: null, avatar_media_id: null, slug: `member-${user.id}` })

    // The audit log says who and when, nothing personal.
    const [audit] = await db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).where('action', '=', 'user.delete').execute()
    expect(audit).toMatchObject({ actor_id: user.id, target_type: 'user', data: {} })
    expect(JSON.stringify(audit)).not.toContain(user.email!)
  })

  it('frees the address: the same email signs up again as a new account', async () => {
    const { user, token } = await member()
    const email = user.email!
    expect((await api.request('DELETE', `v1/users/${user.id}`, { token })).status).toBe(204)
    const started = await accounts().startSignUp({ email, password: null, firstName: 'Nora', lastName: 'Again', dob: '1950-03-04', language: 'en' })
    expect(started).toEqual({ ok: true })
    const [mail] = await mailTo(email)
    expect(mail!.kind).toBe('signUpCode')
    const confirmed = await accounts().confirmSignUp(email, await latestCode(email))
    expect(confirmed).toMatchObject({ created: true })
    const fresh = await database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    expect(fresh.id).not.toBe(user.id)
    expect(fresh.first_name).toBe('Nora')
  })
})
