import { setupServer } from 'msw/node'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { stripeIdentityHandlers } from '#tests/msw/stripe-identity.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { action as onboardingAction } from '../get-started+/verification.tsx'
import { action } from './verification.tsx'

/**
 * The verification pages' action (decision 025), as the browser posts the form without
 * JavaScript: two photos on a multipart form, errors on their fields, §8's conflict above the
 * form, nothing lost to an outage but the files (said), and Stripe Identity's redirect.
 */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

async function signedIn() {
  const user = await createUser(database.db)
  return { user, cookie: await web.signedInCookie(user.id) }
}

const jpeg = () => sharp({ create: { width: 320, height: 240, channels: 3, background: '#579' } }).jpeg().toBuffer()

async function form(files: ('document' | 'selfie')[], intent = 'photos') {
  const body = new FormData()
  body.set('intent', intent)
  for (const name of files) body.set(name, new File([new Uint8Array(await jpeg())], `${name}.jpg`, { type: 'image/jpeg' }))
  return body
}

type Handler = typeof action
async function post(cookie: string, body: FormData, options: { handler?: Handler; path?: string; harness?: WebHarness } = {}) {
  const harness = options.harness ?? web
  const request = new Request(`${TEST_PUBLIC_URL}${options.path ?? '/account/verification'}`, { method: 'POST', headers: { cookie }, body })
  const answer = await (options.handler ?? action)({ request, context: harness.newContext(), params: {} }).catch((thrown: unknown) => thrown)
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('location'), result: null }
  const { data, init } = answer as { data: { error?: Record<string, string[] | null> }; init: ResponseInit | null }
  return { status: init?.status ?? 200, location: null, result: data }
}

describe('the built-in check', () => {
  it('sends both photos and comes back to the status page; a second request is §8’s conflict, said above the form', async () => {
    const { cookie } = await signedIn()
    const sent = await post(cookie, await form(['document', 'selfie']))
    expect(sent).toMatchObject({ status: 302, location: '/account/verification' })
    const again = await post(cookie, await form(['document', 'selfie']))
    expect(again.status).toBe(409)
    expect(again.result?.error?.['']).toEqual(['verification:errors.verification_pending'])
  })

  it('says which photo is missing, next to its field, and sends nothing', async () => {
    const { user, cookie } = await signedIn()
    const missing = await post(cookie, await form(['document']))
    expect(missing.status).toBe(400)
    expect(missing.result?.error?.selfie).toEqual(['verification:errors.selfie_required'])
    expect(await database.db.selectFrom('verifications').select('id').where('user_id', '=', user.id).execute()).toEqual([])
  })

  it('from onboarding, goes on to the Medicare step (returnTo kept)', async () => {
    const { cookie } = await signedIn()
    const path = `/get-started/verification?returnTo=${encodeURIComponent('/activities/42')}`
    const sent = await post(cookie, await form(['document', 'selfie']), { handler: onboardingAction, path })
    expect(sent).toMatchObject({ status: 302, location: `/get-started/medicare?returnTo=${encodeURIComponent('/activities/42')}` })
  })

  it('during an outage says nothing was sent and to choose the photos again', async () => {
    const { cookie } = await signedIn()
    const body = await form(['document', 'selfie'])
    web.takeDown()
    try {
      const kept = await post(cookie, body)
      expect(kept.status).toBe(503)
      expect(kept.result?.error?.['']).toEqual(['verification:errors.not_saved'])
    } finally {
      web.bringUp()
    }
  })
})

describe('with Stripe Identity', () => {
  const secretKey = 'sk_test_web'
  const stripe = stripeIdentityHandlers({ secretKey, webhookSecret: 'whsec_web' })
  const server = setupServer(...stripe.handlers)
  let stripeWeb: WebHarness

  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' })
    stripeWeb = await createWebHarness(database, { STRIPE_SECRET_KEY: secretKey, STRIPE_IDENTITY_WEBHOOK_SECRET: 'whsec_web' })
  })
  afterAll(async () => {
    server.close()
    await stripeWeb?.close()
  })

  it('sends the member on to Stripe’s page', async () => {
    const user = await createUser(database.db)
    const cookie = await stripeWeb.signedInCookie(user.id)
    const sent = await post(cookie, await form([], 'stripe'), { harness: stripeWeb })
    expect(sent.status).toBe(302)
    const session = [...stripe.sessions.values()].find((candidate) => candidate.metadata.user_id === user.id)
    expect(sent.location).toBe(session?.url)
    expect(sent.location).toMatch(/^https:\/\/verify\.stripe\.com\//)
  })
})
