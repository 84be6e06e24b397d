import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as account from './_index.tsx'
import * as changeEmail from './email.tsx'

/**
 * Issue 13 §4 as a browser without JavaScript gets it: "Sign out everywhere" makes every other
 * session's cookie useless, and the email change goes address → code → changed.
 */
const handle = createDocumentHandler([
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/account+/email', path: 'account/email', module: changeEmail as never },
])

let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

function visit(path: string, cookie: string, form?: Record<string, string>) {
  const init: RequestInit = form ? { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) } : { headers: { cookie } }
  return handle(new Request(`${TEST_PUBLIC_URL}${path}`, init), web.newContext())
}

describe('/account', () => {
  it('shows the member’s details, each under its label', async () => {
    const member = await createUser(database.db, { email: 'gary.w@example.org' })
    const page = await (await visit('/account', await web.signedInCookie(member.id))).text()
    expect(page).toContain('<dt>Email address</dt><dd>gary<wbr/>.w<wbr/>@example<wbr/>.org</dd>')
    expect(page).not.toContain('returned an object')
    // The way to the notification settings from the account.
    expect(page).toMatch(/<a [^>]*href="\/account\/notification-settings"[^>]*>Choose my notifications<\/a>/)
  })
})

describe('Sign out everywhere', () => {
  it('ends this session and every other one: a copied cookie no longer opens the account', async () => {
    const member = await createUser(database.db)
    const here = await web.signedInCookie(member.id)
    const elsewhere = await web.signedInCookie(member.id)
    expect((await visit('/account', elsewhere)).status).toBe(200)

    const response = await visit('/account', here, { intent: 'sign-out-everywhere' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/')
    expect(response.headers.get('set-cookie')).toMatch(/toast=/)

    for (const cookie of [here, elsewhere]) {
      const after = await visit('/account', cookie)
      expect(after.status).toBe(302)
      expect(after.headers.get('location')).toBe('/login?returnTo=%2Faccount')
    }
  })
})

describe('Changing the email address', () => {
  it('sends a code to the new address, then changes it with the code; errors show beside the field and in the summary', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    const email = `changed-${crypto.randomUUID().slice(0, 8)}@example.com`

    const invalid = await visit('/account/email', cookie, { intent: 'send', email: 'not an address' })
    expect(invalid.status).toBe(400)
    const invalidHtml = await invalid.text()
    expect(invalidHtml).toContain('class="error-summary"')
    expect(invalidHtml).toMatch(/<title>Error: /)
    expect(readableHtml(invalidHtml)).toContain('Enter an email address in the right format, like name@example.com')
    expect(invalidHtml).toContain('value="not an address"')

    const same = await visit('/account/email', cookie, { intent: 'send', email: member.email! })
    expect(same.status).toBe(400)
    expect(readableHtml(await same.text())).toContain('This is already your email address. Enter a different one')

    const sent = await visit('/account/email', cookie, { intent: 'send', email })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('/account/email?step=code')
    const codeStep = readableHtml(await (await visit('/account/email?step=code', cookie)).text())
    expect(codeStep).toContain(`We have sent a 6-digit code to ${email}`)

    const wrong = await visit('/account/email?step=code', cookie, { intent: 'verify', code: '12' })
    expect(wrong.status).toBe(400)
    expect(readableHtml(await wrong.text())).toContain('The code is 6 digits, like 123456')

    const mail = await database.db.selectFrom('email_outbox').select('text_body').where('to_address', '=', email).executeTakeFirstOrThrow()
    const code = /\b(\d{6})\b/.exec(mail.text_body)?.[1] ?? ''
    const done = await visit('/account/email?step=code', cookie, { intent: 'verify', code })
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/account')
    expect(readableHtml(await (await visit('/account', cookie)).text())).toContain(email)
    // The code step with nothing waiting goes back to the address step and says why.
    expect(readableHtml(await (await visit('/account/email?step=code', cookie)).text())).toContain('That code has expired or was tried too many times')
  })
})
