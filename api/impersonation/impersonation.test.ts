import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { Writable } from 'node:stream'
import { join } from 'node:path'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { deliverNotification } from '#api/notifications/delivery.ts'
import { createApiHarness, createExperience, createUser, testDeliveryDeps, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { refusedWhileImpersonating, whileImpersonating } from '#api/policy/impersonation.ts'
import { endExpired } from './service.ts'

/**
 * Viewing Circle 55 as a member (issue 32 §2, decision 078) through the API: who may start it and
 * when, what it answers (the member's own data, as them), what it refuses while viewing and while
 * acting, the record of both ids, and the member told when it ends, by a stop or after 30 minutes.
 */
let database: TestDatabase
let api: ApiHarness
let mediaDir: string
const logged: Array<Record<string, unknown>> = []

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(join(tmpdir(), 'circle55-impersonation-'))
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
      done()
    },
  })
  api = await createApiHarness(database.db, {}, { media: createLocalStorage(mediaDir), logger: pino({ level: 'info', base: undefined }, logs) })
})

afterAll(async () => {
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

async function person(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, { last_sign_in_at: new Date(), ...overrides })
  const token = await api.signToken(user.id)
  const call = (method: string, path: string, body?: unknown, impersonation?: string) =>
    api.request(method, path, { token, ...(body === undefined ? {} : { body }), ...(impersonation ? { headers: { 'x-impersonation': impersonation } } : {}) })
  return { user, token, call }
}
type Person = Awaited<ReturnType<typeof person>>

async function viewAs(staff: Person, member: Person, reason = 'She says her activities page is empty.') {
  const started = await staff.call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason })
  expect(started.status).toBe(200)
  const id = started.json.data[0].id as string
  return { id, staffId: staff.user.id, as: (method: string, path: string, body?: unknown) => staff.call(method, path, body, id) }
}

const viewedNotices = (userId: string) => database.db.selectFrom('notifications').select('data').where('user_id', '=', userId).where('type', '=', 'account.viewed').execute()

describe('starting', () => {
  it('is for support and admins, signed in within 15 minutes, with a reason; never a team member, oneself, a suspended member, or twice at once', async () => {
    const member = await person({ first_name: 'Margaret', last_name: 'Kowalczyk' })
    expect((await (await person()).call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: 'x' })).status).toBe(403)
    expect((await (await person({ staff_role: 'finance' })).call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: 'x' })).status).toBe(403)
    const stale = await person({ staff_role: 'support', last_sign_in_at: new Date(Date.now() - 16 * 60_000) })
    expect((await stale.call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: 'Help' })).json.error.code).toBe('fresh_sign_in_required')

    const support = await person({ staff_role: 'support', first_name: 'Sam', last_name: 'Rivera' })
    expect((await support.call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: ' ' })).json.error.fields).toEqual({ reason: ['reason_required'] })
    for (const target of [await person({ staff_role: 'moderator' }), support, await person({ is_suspended: true })]) {
      expect((await support.call('POST', `v1/admin/users/${target.user.id}/impersonation`, { reason: 'Help' })).json.error.code).toBe('impersonation_not_allowed')
    }
    const viewing = await viewAs(support, member)
    expect((await support.call('POST', `v1/admin/users/${(await person()).user.id}/impersonation`, { reason: 'Another' })).json.error.code).toBe('already_impersonating')
    const banner = (await viewing.as('GET', 'v1/impersonation')).json.data[0]
    expect(banner).toMatchObject({ subject: { id: member.user.id, display_name: 'Margaret K.' }, mode: 'viewing', reason: 'She says her activities page is empty.', can_act: true })
    expect(new Date(banner.expires_at).getTime() - new Date(banner.started_at).getTime()).toBe(30 * 60_000)
    const audit = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'data']).where('target_id', '=', member.user.id).execute()
    expect(audit).toEqual([{ actor_id: support.user.id, action: 'impersonation.start', data: { reason: 'She says her activities page is empty.' } }])
  })
})

describe('while viewing', () => {
  it('answers as the member and refuses every change', async () => {
    const member = await person({ first_name: 'Harold', last_name: 'Nguyen', city: 'Portland' })
    const viewing = await viewAs(await person({ staff_role: 'admin' }), member)
    expect((await viewing.as('GET', 'v1/users/me')).json.data[0]).toMatchObject({ id: member.user.id, city: 'Portland', staff_role: null })
    const refused = await viewing.as('PUT', 'v1/users/me', { city: 'Salem' })
    expect(refused.status).toBe(403)
    expect(refused.json.error.code).toBe('impersonation_refused')
    expect((await viewing.as('POST', 'v1/impersonation/acting', { reason: '' })).status).toBe(422)
    // Every request under it, reads and refusals alike, is logged with both ids.
    const requests = logged.filter((line) => line.msg === 'Impersonated request' && line.impersonationId === viewing.id)
    expect(requests.map(({ method, path, status, actorId, subjectId }) => ({ method, path, status, actorId, subjectId }))).toEqual([
      { method: 'GET', path: '/v1/users/me', status: 200, actorId: viewing.staffId, subjectId: member.user.id },
      { method: 'PUT', path: '/v1/users/me', status: 403, actorId: viewing.staffId, subjectId: member.user.id },
      { method: 'POST', path: '/v1/impersonation/acting', status: 422, actorId: viewing.staffId, subjectId: member.user.id },
    ])
    expect(requests.every((line) => typeof line.requestId === 'string')).toBe(true)
  })
})

describe('while acting on the member’s behalf', () => {
  it('changes what the member could, recorded with both ids, but never their money, sign-in, account, identity or messages', async () => {
    const member = await person({ first_name: 'Ann', last_name: 'Baker' })
    const support = await person({ staff_role: 'support' })
    const viewing = await viewAs(support, member)
    expect((await viewing.as('POST', 'v1/impersonation/acting', { reason: 'She asked me on the phone to change her city.' })).json.data[0].mode).toBe('acting')
    expect((await viewing.as('PUT', 'v1/users/me', { city: 'Salem' })).status).toBe(200)
    const changed = await database.db.selectFrom('audit_log').select(['actor_id', 'impersonator_id', 'action', 'target_id']).where('action', '=', 'impersonation.call').where('actor_id', '=', member.user.id).execute()
    expect(changed).toEqual([{ actor_id: member.user.id, impersonator_id: support.user.id, action: 'impersonation.call', target_id: 'PUT /v1/users/me' }])

    const host = await person()
    const feeActivity = await createExperience(database.db, host.user.id, { no_show_fee_cents: 1500, start_at: new Date(Date.now() + 5 * 86_400_000) })
    const refusedAlways: Array<[string, string, unknown?]> = [
      ['POST', 'v1/payment-methods/setup', {}],
      ['POST', 'v1/fees/00000000-0000-4000-8000-000000000000/pay'],
      ['POST', 'v1/subscriptions/initiate', {}],
      ['POST', 'v1/users/me/email-change', { email: 'new@example.com' }],
      ['POST', 'v1/users/me/phone/confirmation'],
      ['DELETE', 'v1/users/me/sessions'],
      ['DELETE', `v1/users/${member.user.id}`],
      ['POST', 'v1/verification/initiate'],
      ['POST', 'users/message-channels', { user_id: host.user.id }],
      ['POST', 'v1/chat/message-channels/00000000-0000-4000-8000-000000000000/messages', { text: 'Hello' }],
      ['POST', 'v1/support/message-channel', { text: 'Hello' }],
      ['POST', `v1/experiences/${feeActivity.id}/attendees`, { user_id: member.user.id, fee_consent: true }],
      ['POST', `v1/experiences/${feeActivity.id}/invite-friend`, { email: 'friend@example.com' }],
      ['POST', 'v1/users/me/medicare', {}],
      ['PUT', 'v1/users/me/analytics-consent', { choice: 'granted' }],
      ['PUT', 'v1/notifications/register-device', { endpoint: 'https://push.example.com/staff-browser' }],
      ['PUT', 'users/notifications/seen'],
      ['POST', 'v1/chat/message-channels/00000000-0000-4000-8000-000000000000/read'],
      ['POST', 'v1/reported-contents', { user_id: host.user.id, reason: 'spam' }],
      ['POST', `v1/admin/users/${host.user.id}/impersonation`, { reason: 'Nested' }],
    ]
    for (const [method, path, body] of refusedAlways) {
      const answer = await viewing.as(method, path, body)
      expect({ method, path, status: answer.status, code: answer.json?.error?.code }).toEqual({ method, path, status: 403, code: 'impersonation_refused' })
    }
    expect((await database.db.selectFrom('users').select('email').where('id', '=', member.user.id).executeTakeFirstOrThrow()).email).toBe(member.user.email)
    // A change on the list, under a path with an id: blocking someone for the member, at their request.
    expect((await viewing.as('PUT', `v1/block/${host.user.id}`)).status).toBeLessThan(300)
  })

  it('decides every documented change: a new endpoint is refused while impersonating until it is listed', async () => {
    const document = (await (await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/openapi.json`))).json()) as { paths: Record<string, Record<string, unknown>> }
    const changes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(Object.keys(whileImpersonating).sort()).toEqual(changes.sort())
    expect(refusedWhileImpersonating('acting', 'POST', 'POST /v1/a-new-endpoint')).toBe(true)
    expect(refusedWhileImpersonating('acting', 'DELETE', null)).toBe(true)
    expect(refusedWhileImpersonating('viewing', 'PUT', 'PUT /v1/users/me')).toBe(true)
    expect(refusedWhileImpersonating('viewing', 'DELETE', 'DELETE /v1/impersonation')).toBe(false)
  })

  it('records a photo uploaded as the member with the staff member who uploaded it', async () => {
    const member = await person()
    const admin = await person({ staff_role: 'admin' })
    const viewing = await viewAs(admin, member)
    await viewing.as('POST', 'v1/impersonation/acting', { reason: 'He asked for help with his activity’s cover.' })
    const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#6a8' } }).jpeg().toBuffer()
    const form = new FormData()
    form.set('target', 'experience_cover')
    form.set('file', new File([new Uint8Array(jpeg)], 'cover.jpg', { type: 'image/jpeg' }))
    const headers = { authorization: `Bearer ${admin.token}`, 'x-impersonation': viewing.id }
    const uploaded = await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/v1/medias`, { method: 'POST', headers, body: form }))
    expect(uploaded.status).toBe(200)
    const media = await database.db.selectFrom('media').select(['owner_id', 'impersonator_id']).orderBy('created_at', 'desc').executeTakeFirstOrThrow()
    expect(media).toEqual({ owner_id: member.user.id, impersonator_id: admin.user.id })
  })
})

describe('the end', () => {
  it('stopping tells the member who looked, when and why; the id no longer works', async () => {
    const member = await person()
    const support = await person({ staff_role: 'support', first_name: 'Sam', last_name: 'Rivera' })
    const viewing = await viewAs(support, member, 'She could not find her Thursday walk.')
    expect((await viewing.as('DELETE', 'v1/impersonation')).status).toBe(204)
    expect((await viewing.as('GET', 'v1/users/me')).json.error.code).toBe('impersonation_ended')
    const [notice] = await viewedNotices(member.user.id)
    expect(notice!.data).toMatchObject({ staff_name: 'Sam R.', reason: 'She could not find her Thursday walk.', acted: false })
    const listed = (await member.call('GET', 'users/notifications')).json.data.find((entry: { type: string }) => entry.type === 'account.viewed')
    expect(listed.title).toBe('The Circle 55 team looked at your account')
    expect(listed.body).toMatch(/^Sam R\. from the Circle 55 team viewed your account on .+, because: “She could not find her Thursday walk\.”\. If you did not expect this, please write to us\.$/)
    // And by email, whatever the member's settings (not a topic they can switch off).
    expect((await deliverNotification(testDeliveryDeps(database.db), listed.id))?.sent).toContain('email')
    const email = await database.db.selectFrom('email_outbox').select(['subject', 'text_body']).where('to_address', '=', member.user.email!).executeTakeFirstOrThrow()
    expect(email.subject).toBe('The Circle 55 team looked at your account')
    expect(email.text_body).toContain('because: “She could not find her Thursday walk.”')
  })

  it('ends by itself after 30 minutes, or when the staff member may no longer, and the member is told once', async () => {
    const member = await person()
    const support = await person({ staff_role: 'support' })
    const viewing = await viewAs(support, member)
    await database.db.updateTable('impersonations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', viewing.id).execute()
    expect((await viewing.as('GET', 'v1/users/me')).json.error.code).toBe('impersonation_ended')
    await database.db.transaction().execute((trx) => endExpired(trx, testNotifier(database.db).notify))
    expect(await viewedNotices(member.user.id)).toHaveLength(1)

    const other = await person()
    const again = await viewAs(support, other)
    await database.db.updateTable('users').set({ staff_role: 'finance' }).where('id', '=', support.user.id).execute()
    expect((await again.as('GET', 'v1/users/me')).json.error.code).toBe('impersonation_ended')
    expect(await database.db.selectFrom('impersonations').select('end_reason').where('id', '=', again.id).executeTakeFirstOrThrow()).toEqual({ end_reason: 'revoked' })

    // The job ends those nobody called again.
    const third = await person()
    const admin = await person({ staff_role: 'admin' })
    const left = await viewAs(admin, third)
    await database.db.updateTable('impersonations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', left.id).execute()
    expect(await database.db.transaction().execute((trx) => endExpired(trx, testNotifier(database.db).notify))).toBe(1)
    expect(await viewedNotices(third.user.id)).toHaveLength(1)
  })
})
