import type { AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createIdentityProvider } from '#api/identity/provider.ts'
import { loadSecrets } from '#api/secrets.ts'
import { action as passwordAction, loader as passwordLoader } from '#app/routes/_auth+/identity.$uid._index.tsx'
import { action as codeAction } from '#app/routes/_auth+/identity.$uid.code.tsx'
import { action as resetAction } from '#app/routes/_auth+/identity.$uid.reset.tsx'
import { action as signUpAction, loader as signUpLoader } from '#app/routes/_auth+/identity.$uid.signup.tsx'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'

/**
 * Issue 10 §5 for the sign-in pages: with the database down, sign-up, sign-in and reset forms
 * come back with what the member typed (never the password) and say that nothing was saved or
 * sent, with 503, instead of an error page that loses the form. The identity provider is the
 * real one, on a database whose connections are refused.
 */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  const secrets = await loadSecrets(web.db, web.api.env)
  const { bridge } = createIdentityProvider({ env: web.api.env, db: web.db, mailer: createMailer({ db: web.db }), secrets })
  web.services.identity = bridge
})

afterAll(async () => {
  web?.bringUp()
  await web?.close()
  await database?.drop()
})

interface Reply {
  data: { result?: { initialValue: Record<string, unknown>; error: Record<string, string[] | null> }; step?: string; email?: string }
  init: { status?: number } | null
}

function post(path: string, fields: Record<string, string>) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', body })
}

async function run(action: (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => Promise<unknown>, path: string, fields: Record<string, string>) {
  const context = web.newContext()
  const reply = (await action({ request: post(path, fields), context, params: { uid: 'interaction-1' } })) as Reply
  return { reply, context }
}

describe('the sign-in pages during a database outage', () => {
  it('sign-up keeps the name, email and birth date (not the password) and says nothing was sent', async () => {
    web.takeDown()
    const details = { intent: 'details', firstName: 'Margaret', lastName: 'Okafor', email: 'margaret@example.com', birthMonth: '4', birthDay: '12', birthYear: '1950' }
    const { reply, context } = await run(signUpAction, '/identity/interaction-1/signup', { ...details, password: 'a long password 55' })
    expect(reply.init?.status).toBe(503)
    expect(reply.data.step).toBe('details')
    const { intent, ...typed } = details
    void intent
    expect(reply.data.result?.initialValue).toMatchObject(typed)
    expect(reply.data.result?.initialValue).not.toHaveProperty('password')
    expect(reply.data.result?.error['']).toEqual(['auth:errors.unavailable'])
    // Without JavaScript the page is drawn from the same request, not the error page.
    const page = await signUpLoader({ request: post('/identity/interaction-1/signup', details), context, params: { uid: 'interaction-1' } })
    expect(page).toMatchObject({ uid: 'interaction-1', title: 'Create your Circle 55 account' })
  })

  it('password sign-in keeps the email and says why', async () => {
    web.takeDown()
    const { reply, context } = await run(passwordAction, '/identity/interaction-1', { email: 'ruth@example.com', password: 'secret password 55' })
    expect(reply.init?.status).toBe(503)
    const submission = reply.data as unknown as NonNullable<Reply['data']['result']>
    expect(submission.initialValue).toEqual({ email: 'ruth@example.com' })
    expect(submission.error['']).toEqual(['auth:errors.unavailable'])
    expect(await passwordLoader({ request: post('/identity/interaction-1', {}), context, params: { uid: 'interaction-1' } })).toMatchObject({ uid: 'interaction-1' })
  })

  it('asking for a code or a reset keeps the email and stays on the same step', async () => {
    web.takeDown()
    for (const [action, path, fields, step] of [
      [codeAction, '/identity/interaction-1/code', { intent: 'send', email: 'ines@example.com' }, 'send'],
      [codeAction, '/identity/interaction-1/code', { intent: 'verify', email: 'ines@example.com', code: '123456' }, 'verify'],
      [resetAction, '/identity/interaction-1/reset', { intent: 'send', email: 'ines@example.com' }, 'send'],
    ] as const) {
      const { reply } = await run(action, path, fields)
      expect(reply.init?.status, path).toBe(503)
      expect(reply.data).toMatchObject({ step, email: 'ines@example.com' })
      expect(reply.data.result?.error['']).toEqual(['auth:errors.unavailable'])
    }
  })

  it('without an outage an unknown sign-in page still starts sign-in again', async () => {
    web.bringUp()
    const answer = await signUpLoader({ request: new Request(`${TEST_PUBLIC_URL}/identity/nope/signup`), context: web.newContext(), params: { uid: 'nope' } }).catch((thrown: unknown) => thrown)
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).headers.get('location')).toBe('/login')
  })
})
