import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { TEST_PUBLIC_URL, createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { stripeIdentityHandlers } from '#tests/msw/stripe-identity.ts'
import { InvalidSignatureError } from './provider.ts'
import { signStripePayload, verifyStripeSignature } from './stripe.ts'

/**
 * Stripe Identity (decision 025) against msw handlers written from Stripe's API reference:
 * initiate creates a document VerificationSession with a matching selfie and answers its page;
 * the webhook accepts only deliveries signed with the endpoint's secret within five minutes, and
 * `verified` / `requires_input` / `canceled` move the member's request.
 */
const secretKey = 'sk_test_circle55'
const webhookSecret = 'whsec_circle55_test'
const stripe = stripeIdentityHandlers({ secretKey, webhookSecret })
const server = setupServer(...stripe.handlers)

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, { STRIPE_SECRET_KEY: secretKey, STRIPE_IDENTITY_WEBHOOK_SECRET: webhookSecret })
})
beforeEach(() => {
  stripe.creates.length = 0
})
afterEach(() => server.resetHandlers())
afterAll(async () => {
  server.close()
  await database?.drop()
})

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

const webhook = (payload: string, signature?: string) =>
  api.request('POST', 'v1/webhooks/stripe-identity', {
    body: payload,
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
  })

async function startSession() {
  const { user, token } = await member()
  const started = await api.request('POST', 'v1/verification/initiate', { token })
  expect(started.status).toBe(200)
  const session = [...stripe.sessions.values()].find((candidate) => candidate.metadata.user_id === user.id)!
  return { user, token, started, session }
}

describe('initiate with Stripe Identity', () => {
  it('creates a document session with a matching selfie for the member and answers its page', async () => {
    const { user, started, session } = await startSession()
    expect(started.json.data[0]).toMatchObject({ status: 'processing', provider: 'stripe', redirect_url: session.url })
    expect(session.url).toMatch(/^https:\/\/verify\.stripe\.com\//)
    const form = stripe.creates.at(-1)!
    expect(form.get('type')).toBe('document')
    expect(form.get('options[document][require_matching_selfie]')).toBe('true')
    expect(form.get('metadata[user_id]')).toBe(user.id)
    expect(form.get('return_url')).toBe(`${TEST_PUBLIC_URL}/account/verification`)
    const row = await database.db.selectFrom('verifications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ provider: 'stripe', provider_ref: session.id, status: 'processing', document_key: null })
  })

  it('answers 503 and keeps nothing when Stripe refuses the key', async () => {
    const env = { STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_IDENTITY_WEBHOOK_SECRET: webhookSecret }
    const wrongKey = await createApiHarness(database.db, env)
    const { user } = await member()
    const response = await wrongKey.request('POST', 'v1/verification/initiate', { token: await wrongKey.signToken(user.id) })
    expect(response.status).toBe(503)
    expect(response.json.error.message).toBe('Identity verification is unavailable right now. Please try again later.')
    expect(await database.db.selectFrom('verifications').select('id').where('user_id', '=', user.id).execute()).toEqual([])
  })
})

describe('the webhook', () => {
  it('verifies the member on identity.verification_session.verified, and tells them', async () => {
    const { user, token, session } = await startSession()
    const from = api.queuedJobs.length
    const { payload, signature } = stripe.event('identity.verification_session.verified', session)
    const response = await webhook(payload, signature)
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ received: true })
    expect((await api.request('GET', 'v1/verification', { token })).json.data[0]).toMatchObject({ status: 'verified', provider: 'stripe' })
    expect(api.queuedJobs.length).toBe(from + 1)
    const notification = await database.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect(notification).toMatchObject({ type: 'verification.decided', data: { outcome: 'approved' } })
    // Delivered again (Stripe retries): nothing changes, nobody is told twice.
    expect((await webhook(payload, signature)).status).toBe(200)
    expect(api.queuedJobs.length).toBe(from + 1)
  })

  it('rejects with Stripe’s reason on requires_input; the member may try again', async () => {
    const { token, session } = await startSession()
    const { payload, signature } = stripe.event('identity.verification_session.requires_input', session, {
      lastError: { code: 'selfie_face_mismatch', reason: 'The selfie does not match the face on the document.' },
    })
    expect((await webhook(payload, signature)).status).toBe(200)
    const status = (await api.request('GET', 'v1/verification', { token })).json.data[0]
    expect(status).toMatchObject({ status: 'not_verified', rejection_reason: 'The selfie does not match the face on the document.' })
    expect((await api.request('POST', 'v1/verification/initiate', { token })).status).toBe(200)
  })

  it('withdraws the request on canceled, without a reason', async () => {
    const { token, session } = await startSession()
    const { payload, signature } = stripe.event('identity.verification_session.canceled', session)
    expect((await webhook(payload, signature)).status).toBe(200)
    expect((await api.request('GET', 'v1/verification', { token })).json.data[0]).toMatchObject({ status: 'not_verified', rejection_reason: null })
  })

  it('refuses a delivery without a signature, with another secret’s, with an altered body or an old one', async () => {
    const { token, session } = await startSession()
    const good = stripe.event('identity.verification_session.verified', session)
    expect((await webhook(good.payload)).status).toBe(400)
    const forged = stripe.event('identity.verification_session.verified', session, { secret: 'whsec_someone_else' })
    expect((await webhook(forged.payload, forged.signature)).status).toBe(400)
    const altered = good.payload.replace('"livemode":false', '"livemode":true')
    expect((await webhook(altered, good.signature)).status).toBe(400)
    const old = stripe.event('identity.verification_session.verified', session, { at: new Date(Date.now() - 6 * 60_000) })
    const refused = await webhook(old.payload, old.signature)
    expect(refused.status).toBe(400)
    expect(refused.json.error.code).toBe('invalid_body')
    // None of them verified the member.
    expect((await api.request('GET', 'v1/verification', { token })).json.data[0].status).toBe('processing')
  })
})

describe('verifyStripeSignature', () => {
  const payload = '{"id":"evt_1"}'
  const now = new Date('2026-11-24T12:00:00Z')
  it('accepts any matching v1 among several, within five minutes either way', () => {
    const header = signStripePayload(payload, webhookSecret, new Date(now.getTime() - 4 * 60_000))
    expect(() => verifyStripeSignature(payload, `${header},v1=${'0'.repeat(64)}`, webhookSecret, now)).not.toThrow()
    expect(() => verifyStripeSignature(payload, header.replace('v1=', 'v0='), webhookSecret, now)).toThrow(InvalidSignatureError)
    expect(() => verifyStripeSignature(payload, 't=abc,v1=00', webhookSecret, now)).toThrow(InvalidSignatureError)
  })
})
