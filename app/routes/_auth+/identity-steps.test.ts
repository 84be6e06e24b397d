import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { IdentityBridge, SendCodeError } from '#app/utils/load-context.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as password from './identity.$uid._index.tsx'
import * as code from './identity.$uid.code.tsx'
import * as signUp from './identity.$uid.signup.tsx'

/**
 * Issue 12 §4, the sign-in pages as a browser without JavaScript uses them: the code step of
 * sign-up and of signing in with a code survives a reload (or coming back from the mail app),
 * sign-up offers "Send a new code", and the email typed for a password goes on to the code form.
 */
const handle = createDocumentHandler([
  { id: 'routes/_auth+/identity.$uid._index', path: 'identity/:uid', module: password as never },
  { id: 'routes/_auth+/identity.$uid.code', path: 'identity/:uid/code', module: code as never },
  { id: 'routes/_auth+/identity.$uid.signup', path: 'identity/:uid/signup', module: signUp as never },
])

let database: TestDatabase
let web: WebHarness
/** What the pages asked the identity provider, in order. */
let calls: string[]
/** The answer to the next code email, when it is not `{ ok: true }`. */
let nextSendError: SendCodeError | null

const notUsed = () => Promise.reject(new Error('not used by this test'))
const sent = async (call: string) => {
  calls.push(call)
  const error = nextSendError
  nextSendError = null
  return error ? { error } : ({ ok: true } as const)
}
const identity: IdentityBridge = {
  interaction: async (uid) => (uid.startsWith('prompt-') ? { uid, prompt: 'login', screenHint: null, loginHint: null, language: null, clientName: 'Circle 55' } : null),
  finish: async () => '/oidc/auth/resume',
  abort: notUsed,
  verifyPassword: notUsed,
  sendCode: (email, purpose, language) => sent(`sendCode ${email} ${purpose} ${language}`),
  verifyCode: async () => ({ error: 'invalid' }),
  startSignUp: (input) => sent(`startSignUp ${input.email} ${input.firstName}`),
  resendSignUp: (email, language) => sent(`resendSignUp ${email} ${language}`),
  confirmSignUp: async () => ({ error: 'invalid' }),
  resetPassword: notUsed,
  endSession: async () => {},
}

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  web.services.identity = identity
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

beforeEach(() => {
  calls = []
  nextSendError = null
})

/** A browser without JavaScript: it keeps cookies and follows nothing by itself. */
function browser(language = 'en') {
  const jar = new Map<string, string>()
  return async function visit(path: string, form?: Record<string, string>) {
    const headers = new Headers({ 'accept-language': language, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') })
    const body = form ? new URLSearchParams(form) : undefined
    const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { method: form ? 'POST' : 'GET', headers, body }), web.newContext())
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return { status: response.status, location: response.headers.get('location'), html: readableHtml(await response.text()) }
  }
}

const details = { intent: 'details', firstName: 'Walter', lastName: 'Hughes', email: 'walter@example.com', birthMonth: '3', birthDay: '9', birthYear: '1950' }

describe('the sign-up code step (issue 12 §4)', () => {
  it('is a page of its own: reloading it, or coming back from the mail app, stays there and sends nothing again', async () => {
    const visit = browser()
    const posted = await visit('/identity/prompt-1/signup', details)
    expect(posted.status).toBe(302)
    expect(posted.location).toBe('/identity/prompt-1/signup?step=code')
    for (let load = 0; load < 2; load++) {
      const page = await visit('/identity/prompt-1/signup?step=code')
      expect(page.status).toBe(200)
      expect(page.html).toContain('<title>Check your email')
      expect(page.html).toContain('id="code"')
      expect(page.html).toContain('We have sent a 6-digit code to walter@example.com.')
      expect(page.html).toContain('name="email" value="walter@example.com"')
    }
    expect(calls).toEqual(['startSignUp walter@example.com Walter'])
  })

  it('"Start again" and another browser or sign-in get the details form', async () => {
    const visit = browser()
    await visit('/identity/prompt-1/signup', details)
    expect((await visit('/identity/prompt-1/signup')).html).toContain('id="firstName"')
    expect((await visit('/identity/prompt-2/signup?step=code')).html).toContain('id="firstName"')
    expect((await browser()('/identity/prompt-1/signup?step=code')).html).toContain('id="firstName"')
  })

  it('sends a new code to the same address, in the page’s language, and says so', async () => {
    const visit = browser('fr')
    await visit('/identity/prompt-1/signup', details)
    const page = await visit('/identity/prompt-1/signup?step=code')
    expect(page.html).toContain('Envoyer un nouveau code')
    const resent = await visit('/identity/prompt-1/signup?step=code', { intent: 'resend', email: 'walter@example.com' })
    expect(resent.status).toBe(302)
    expect(resent.location).toBe('/identity/prompt-1/signup?step=code&notice=resent')
    expect((await visit(resent.location ?? '')).html).toContain('Nous avons envoyé un nouveau code à 6 chiffres à walter@example.com.')
    expect(calls).toEqual(['startSignUp walter@example.com Walter', 'resendSignUp walter@example.com fr'])
  })

  it('sends a new code only to the address this browser’s sign-up sent one to', async () => {
    const visit = browser()
    await visit('/identity/prompt-1/signup', details)
    const other = await visit('/identity/prompt-1/signup?step=code', { intent: 'resend', email: 'someone.else@example.com' })
    expect(other.location).toBe('/identity/prompt-1/signup')
    const stranger = await browser()('/identity/prompt-1/signup?step=code', { intent: 'resend', email: 'walter@example.com' })
    expect(stranger.location).toBe('/identity/prompt-1/signup')
    expect(calls).toEqual(['startSignUp walter@example.com Walter'])
  })

  it('stays on the code step when too many codes were asked for, and says why', async () => {
    const visit = browser()
    await visit('/identity/prompt-1/signup', details)
    nextSendError = 'too_many'
    const refused = await visit('/identity/prompt-1/signup?step=code', { intent: 'resend', email: 'walter@example.com' })
    expect(refused.status).toBe(429)
    expect(refused.html).toContain('There have been too many tries for this account.')
    expect(refused.html).toContain('id="code"')
    expect(refused.html).toMatch(/<title>Error: /)
  })
})

describe('signing in with a code (issue 12 §4)', () => {
  it('takes the email typed on the password form to the code form', async () => {
    const visit = browser()
    const switched = await visit('/identity/prompt-1', { intent: 'code', email: ' ruth@example.com ', password: '' })
    expect(switched.status).toBe(302)
    expect(switched.location).toBe('/identity/prompt-1/code')
    const page = await visit('/identity/prompt-1/code')
    expect(page.html).toMatch(/<input[^>]*id="email"[^>]*value="ruth@example.com"/)
    expect(calls).toEqual([])
    // And back again, to the password form.
    expect((await visit('/identity/prompt-1')).html).toMatch(/<input[^>]*id="email"[^>]*value="ruth@example.com"/)
  })

  it('keeps the code step on a reload, and sends a new code from it', async () => {
    const visit = browser()
    const posted = await visit('/identity/prompt-1/code', { intent: 'send', email: 'ruth@example.com' })
    expect(posted.location).toBe('/identity/prompt-1/code?step=verify')
    for (let load = 0; load < 2; load++) {
      const page = await visit('/identity/prompt-1/code?step=verify')
      expect(page.html).toContain('id="code"')
      expect(page.html).toContain('If ruth@example.com has a Circle 55 account, we have sent a 6-digit code')
    }
    const resent = await visit('/identity/prompt-1/code?step=verify', { intent: 'resend', email: 'ruth@example.com' })
    expect(resent.location).toBe('/identity/prompt-1/code?step=verify&notice=resent')
    expect((await visit(resent.location ?? '')).html).toContain('we have sent a new 6-digit code to that address')
    expect(calls).toEqual(['sendCode ruth@example.com sign_in en', 'sendCode ruth@example.com sign_in en'])
  })
})
