import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { TEST_PUBLIC_URL, testDeliveryDeps, createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createLocalStorage } from '../providers/storage/local.ts'
import { deliverNotification } from '../notifications/delivery.ts'
import { NOTIFICATION_DELIVERY_JOB } from '../notifications/service.ts'
import { forgetVerificationPhotos, verifiedUserIds } from './service.ts'
import { createVerificationProvider } from '../providers.ts'
import { createLogger } from '../logger.ts'

/**
 * Issue 13 §5, the built-in check (decision 025): a member sends a photo of an ID and a selfie,
 * kept encrypted until an admin approves or rejects; one pending request at a time (§8's
 * conflict); the photos are deleted with the decision; the member is told; nobody but reviewers
 * sees the photos.
 */
let database: TestDatabase
let api: ApiHarness
let mediaDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(path.join(tmpdir(), 'circle55-verification-'))
  api = await createApiHarness(database.db, {}, { media: createLocalStorage(mediaDir) })
})

afterAll(async () => {
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

const photo = (colour: string) => sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).jpeg().toBuffer()

async function initiate(token: string | undefined, files: { document?: Buffer | string; selfie?: Buffer | string } = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(files)) {
    form.set(name, typeof value === 'string' ? new File([value], `${name}.txt`, { type: 'text/plain' }) : new File([new Uint8Array(value)], `${name}.jpg`, { type: 'image/jpeg' }))
  }
  const headers = new Headers(token ? { authorization: `Bearer ${token}` } : {})
  const response = await api.app.fetch(new Request(`${TEST_PUBLIC_URL}/api/v1/verification/initiate`, { method: 'POST', headers, body: form }))
  return { status: response.status, json: (await response.json()) }
}

const bothPhotos = async () => ({ document: await photo('#246'), selfie: await photo('#c84') })

/** Every file the storage holds (the encrypted photos live under verification/). */
async function storedFiles() {
  const found: string[] = []
  async function walk(dir: string) {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) await walk(full)
      else found.push(path.relative(mediaDir, full))
    }
  }
  await walk(mediaDir)
  return found
}

const requestOf = (userId: string) =>
  database.db.selectFrom('verifications').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirstOrThrow()

describe('GET v1/verification and POST v1/verification/initiate (built-in)', () => {
  it('moves a member from not verified to processing, and answers §8’s conflict for a second request', async () => {
    const { token } = await member()
    const before = await api.request('GET', 'v1/verification', { token })
    expect(before.status).toBe(200)
    expect(before.json).toEqual({
      data: [{ status: 'not_verified', rejection_reason: null, provider: 'builtin', requested_at: null, decided_at: null, redirect_url: null }],
    })

    const started = await initiate(token, await bothPhotos())
    expect(started.status).toBe(200)
    expect(started.json.data[0]).toMatchObject({ status: 'processing', provider: 'builtin', rejection_reason: null })
    expect(started.json.data[0].requested_at).toEqual(expect.any(String))
    expect((await api.request('GET', 'v1/verification', { token })).json.data[0].status).toBe('processing')

    const again = await initiate(token, await bothPhotos())
    expect(again.status).toBe(409)
    expect(again.json.error).toEqual({ code: 'verification_pending', message: expect.stringMatching(/already pending/) })
  })

  it('keeps both photos encrypted at rest: the stored bytes are not a JPEG and hold none of its bytes', async () => {
    const { user, token } = await member()
    const files = await bothPhotos()
    expect((await initiate(token, files)).status).toBe(200)
    const row = await requestOf(user.id)
    expect(row.document_key).toMatch(/^verification\//)
    expect(row.selfie_key).toMatch(/^verification\//)
    for (const key of [row.document_key!, row.selfie_key!]) {
      const stored = await readFile(path.join(mediaDir, key))
      expect([...stored.subarray(0, 3)]).not.toEqual([0xff, 0xd8, 0xff])
      // Neither the upload nor its JPEG header appear anywhere in the file.
      expect(stored.includes(Buffer.from('JFIF'))).toBe(false)
      expect(stored.includes(files.document.subarray(0, 64))).toBe(false)
    }
    // The key is kept in the secrets table (no VERIFICATION_ENCRYPTION_KEY here), apart from the files.
    const secret = await database.db.selectFrom('app_secrets').select('name').where('name', '=', 'verification_encryption_key').executeTakeFirst()
    expect(secret).toBeDefined()
  })

  it('answers which photo is missing or not a photo, on its field', async () => {
    const { token } = await member()
    const missing = await initiate(token, { document: await photo('#246') })
    expect(missing.status).toBe(422)
    expect(missing.json.error.fields).toEqual({ selfie: ['required'] })
    const notPhoto = await initiate(token, { document: 'hello', selfie: await photo('#c84') })
    expect(notPhoto.status).toBe(422)
    expect(notPhoto.json.error.fields).toEqual({ document: ['invalid_format'] })
    // Nothing was kept: the member is still not verified and may send them again.
    expect((await api.request('GET', 'v1/verification', { token })).json.data[0].status).toBe('not_verified')
  })

  it('refuses anonymous callers', async () => {
    expect((await api.request('GET', 'v1/verification')).status).toBe(401)
    expect((await initiate(undefined, await bothPhotos())).status).toBe(401)
  })
})

describe('review by an admin', () => {
  it('lists the request, shows both photos decrypted to the admin only, approves it, deletes the photos and tells the member', async () => {
    const admin = await member({ staff_role: 'admin' })
    const applicant = await member({ first_name: 'Dorothy', last_name: 'Vaughan' })
    const other = await member()
    expect((await initiate(applicant.token, await bothPhotos())).status).toBe(200)
    const row = await requestOf(applicant.user.id)

    const list = await api.request('GET', 'v1/verification/requests?per_page=50', { token: admin.token })
    expect(list.status).toBe(200)
    const listed = list.json.data.find((item: { id: string }) => item.id === row.id)
    expect(listed).toMatchObject({ status: 'processing', has_files: true, user: { id: applicant.user.id, name: 'Dorothy Vaughan' } })

    const document = await api.app.fetch(
      new Request(`${TEST_PUBLIC_URL}/api/v1/verification/requests/${row.id}/files/document`, { headers: { authorization: `Bearer ${admin.token}` } }),
    )
    expect(document.status).toBe(200)
    expect(document.headers.get('content-type')).toBe('image/jpeg')
    expect(document.headers.get('cache-control')).toBe('private, no-store')
    const bytes = new Uint8Array(await document.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect((await sharp(bytes).metadata()).width).toBe(640)

    // Neither the member (their own request) nor anyone else reads the photos or the queue.
    for (const token of [applicant.token, other.token]) {
      expect((await api.request('GET', `v1/verification/requests/${row.id}/files/selfie`, { token })).status).toBe(404)
      expect((await api.request('GET', `v1/verification/requests/${row.id}`, { token })).status).toBe(404)
      expect((await api.request('GET', 'v1/verification/requests', { token })).status).toBe(404)
      expect((await api.request('POST', `v1/verification/requests/${row.id}/approve`, { token })).status).toBe(404)
      // The encrypted files are not served as media either.
      expect((await api.request('GET', `media/${row.selfie_key}`, { token })).status).toBe(404)
    }

    const from = api.queuedJobs.length
    const approved = await api.request('POST', `v1/verification/requests/${row.id}/approve`, { token: admin.token })
    expect(approved.status).toBe(200)
    expect(approved.json.data[0]).toMatchObject({ status: 'verified', has_files: false })

    // Only the outcome, the reviewer and the date remain.
    const decided = await requestOf(applicant.user.id)
    expect(decided).toMatchObject({ status: 'verified', reviewed_by: admin.user.id, document_key: null, selfie_key: null, rejection_reason: null })
    expect(decided.decided_at).toBeInstanceOf(Date)
    expect(await storedFiles()).not.toContain(row.document_key)
    expect(await storedFiles()).not.toContain(row.selfie_key)
    expect((await api.request('GET', `v1/verification/requests/${row.id}/files/document`, { token: admin.token })).status).toBe(404)

    const audit = await database.db.selectFrom('audit_log').selectAll().where('target_id', '=', row.id).execute()
    expect(audit).toEqual([expect.objectContaining({ actor_id: admin.user.id, action: 'verification.approve', target_type: 'verification' })])

    const status = await api.request('GET', 'v1/verification', { token: applicant.token })
    expect(status.json.data[0]).toMatchObject({ status: 'verified', rejection_reason: null })
    expect(status.json.data[0].decided_at).toEqual(expect.any(String))
    expect(await verifiedUserIds(database.db, [applicant.user.id, other.user.id])).toEqual(new Set([applicant.user.id]))

    // Told: one notification, whose delivery emails the member.
    const jobs = api.queuedJobs.slice(from).filter((job) => job.name === NOTIFICATION_DELIVERY_JOB)
    expect(jobs).toHaveLength(1)
    const notification = await database.db.selectFrom('notifications').selectAll().where('user_id', '=', applicant.user.id).executeTakeFirstOrThrow()
    expect(notification).toMatchObject({ type: 'verification.decided', data: { verification_id: row.id, outcome: 'approved' } })
    await deliverNotification(testDeliveryDeps(database.db), notification.id)
    const email = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', applicant.user.email!).executeTakeFirstOrThrow()
    expect(email).toMatchObject({ subject: 'Your identity is verified', kind: 'verificationApproved' })
    expect(email.text_body).toContain(`${TEST_PUBLIC_URL}/account/verification`)

    // Decided once; a verified member cannot ask again.
    const twice = await api.request('POST', `v1/verification/requests/${row.id}/approve`, { token: admin.token })
    expect(twice.status).toBe(409)
    expect(twice.json.error.code).toBe('verification_decided')
    const already = await initiate(applicant.token, await bothPhotos())
    expect(already.status).toBe(409)
    expect(already.json.error.code).toBe('already_verified')
  })

  it('rejects with a reason the member reads, deletes the photos, and lets the member try again', async () => {
    const admin = await member({ staff_role: 'admin' })
    const applicant = await member({ locale: 'fr' })
    expect((await initiate(applicant.token, await bothPhotos())).status).toBe(200)
    const row = await requestOf(applicant.user.id)

    const noReason = await api.request('POST', `v1/verification/requests/${row.id}/reject`, { token: admin.token, body: { reason: '  ' } })
    expect(noReason.status).toBe(422)
    expect(noReason.json.error.fields).toEqual({ reason: ['reason_required'] })

    const reason = 'The photo of the ID is blurred: we could not read the name.'
    const rejected = await api.request('POST', `v1/verification/requests/${row.id}/reject`, { token: admin.token, body: { reason } })
    expect(rejected.status).toBe(200)
    expect(rejected.json.data[0]).toMatchObject({ status: 'not_verified', rejection_reason: reason, has_files: false })
    expect(await storedFiles()).not.toContain(row.document_key)

    const status = await api.request('GET', 'v1/verification', { token: applicant.token })
    expect(status.json.data[0]).toMatchObject({ status: 'not_verified', rejection_reason: reason })
    expect(await verifiedUserIds(database.db, [applicant.user.id])).toEqual(new Set())

    const audit = await database.db.selectFrom('audit_log').selectAll().where('target_id', '=', row.id).executeTakeFirstOrThrow()
    expect(audit).toMatchObject({ action: 'verification.reject', data: { user_id: applicant.user.id, reason } })

    const notification = await database.db.selectFrom('notifications').selectAll().where('user_id', '=', applicant.user.id).executeTakeFirstOrThrow()
    await deliverNotification(testDeliveryDeps(database.db), notification.id)
    const email = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', applicant.user.email!).executeTakeFirstOrThrow()
    expect(email.subject).toBe("Nous n'avons pas pu vérifier votre identité")
    expect(email.text_body).toContain(reason)

    // Trying again: processing, and the old reason is no longer shown.
    expect((await initiate(applicant.token, await bothPhotos())).status).toBe(200)
    const again = await api.request('GET', 'v1/verification', { token: applicant.token })
    expect(again.json.data[0]).toMatchObject({ status: 'processing', rejection_reason: null })
  })

  it('answers 404 for a request that does not exist', async () => {
    const admin = await member({ staff_role: 'admin' })
    expect((await api.request('GET', `v1/verification/requests/${crypto.randomUUID()}`, { token: admin.token })).status).toBe(404)
    expect((await api.request('POST', 'v1/verification/requests/not-a-uuid/approve', { token: admin.token })).status).toBe(404)
  })
})

describe('forgetVerificationPhotos (account deletion)', () => {
  it('withdraws a pending request and deletes its photos at once; the queue no longer lists it', async () => {
    const admin = await member({ staff_role: 'admin' })
    const leaving = await member()
    expect((await initiate(leaving.token, await bothPhotos())).status).toBe(200)
    const row = await requestOf(leaving.user.id)
    const verification = createVerificationProvider({ env: api.env, db: database.db, storage: createLocalStorage(mediaDir) })
    expect(await forgetVerificationPhotos({ db: database.db, verification, logger: createLogger(api.env) }, leaving.user.id)).toBe(1)
    expect(await storedFiles()).not.toContain(row.document_key)
    expect(await storedFiles()).not.toContain(row.selfie_key)
    expect(await requestOf(leaving.user.id)).toMatchObject({ status: 'not_verified', document_key: null, selfie_key: null, rejection_reason: null })
    const queue = await api.request('GET', 'v1/verification/requests?per_page=50', { token: admin.token })
    expect(queue.json.data.map((item: { id: string }) => item.id)).not.toContain(row.id)
  })

  it('runs when a member with a pending request deletes their account', async () => {
    const leaving = await member()
    expect((await initiate(leaving.token, await bothPhotos())).status).toBe(200)
    const row = await requestOf(leaving.user.id)
    expect(await storedFiles()).toContain(row.document_key)
    expect((await api.request('DELETE', `v1/users/${leaving.user.id}`, { token: leaving.token })).status).toBe(204)
    expect(await storedFiles()).not.toContain(row.document_key)
    expect(await storedFiles()).not.toContain(row.selfie_key)
  })
})
