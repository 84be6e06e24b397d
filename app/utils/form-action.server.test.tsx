import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { getApi } from './auth.server.ts'
import { codeFormAction, formAction } from './form-action.server.ts'
import { codeRefusal, sendRefusal } from './identity.server.ts'
import { pageTitle } from './meta.ts'
import { redirectWithToast } from './toast.server.ts'

/**
 * The two form-action helpers (decision 069) on pages of their own, as a browser without
 * JavaScript posts them: Remix's request handler over the real root, the real API and session
 * store on a database of this file's own.
 */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  web?.bringUp()
  await web?.close()
  await database?.drop()
})

beforeEach(() => web.bringUp())

/** A one-field form saved through `PUT v1/users/me`: what a profile section does. */
const nameSchema = z.object({ firstName: z.string({ error: 'validation.firstNameRequired' }).trim().min(1, 'validation.firstNameRequired') })
const namePage = {
  action: async ({ request, context }: ActionFunctionArgs) =>
    formAction({ request, context }, parseWithZod(await request.formData(), { schema: nameSchema }), {
      notSaved: 'common:errors.notSaved',
      apiErrors: { fields: { first_name: 'firstName' } },
      save: async ({ firstName }) => {
        await getApi(request, context).users.updateMe({ first_name: firstName })
        return redirectWithToast(context, '/account/edit', 'profile:edit.name.saved')
      },
    }),
  default: function NamePage() {
    const result = useActionData<SubmissionResult<string[]>>()
    const typed = result?.initialValue?.firstName
    return (
      <form method="post">
        <input name="firstName" defaultValue={typeof typed === 'string' ? typed : ''} />
        <output>{Object.entries(result?.error ?? {}).map(([field, keys]) => `${field || 'form'}: ${keys?.join(', ')}`)}</output>
      </form>
    )
  },
  meta: (({ matches }) => pageTitle(matches, 'Your name')) satisfies MetaFunction,
}
const handle = createDocumentHandler([{ id: 'routes/name', path: 'name', module: namePage }])

async function postName(cookie: string, firstName: string) {
  const request = new Request(`${TEST_PUBLIC_URL}/name`, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ firstName }) })
  const response = await handle(request, web.newContext())
  return { response, html: readableHtml(await response.text()) }
}

const firstNameOf = async (id: string) => (await database.db.selectFrom('users').select('first_name').where('id', '=', id).executeTakeFirstOrThrow()).first_name

describe('formAction', () => {
  it('saves and goes on with a toast', async () => {
    const user = await createUser(database.db, { first_name: 'Margaret' })
    const { response } = await postName(await web.signedInCookie(user.id), 'Margot')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit')
    expect(response.headers.get('set-cookie')).toMatch(/toast=/)
    expect(await firstNameOf(user.id)).toBe('Margot')
  })

  it('refuses what the schema refuses with 400, the page titled "Error:", nothing saved', async () => {
    const user = await createUser(database.db, { first_name: 'Margaret' })
    const { response, html } = await postName(await web.signedInCookie(user.id), '   ')
    expect(response.status).toBe(400)
    expect(html).toContain('<title>Error: Your name – Circle 55</title>')
    expect(html).toContain('<output>firstName: validation.firstNameRequired</output>')
    expect(await firstNameOf(user.id)).toBe('Margaret')
  })

  it('shows the API’s refusal next to the field it names, what was typed kept', async () => {
    const user = await createUser(database.db, { first_name: 'Margaret' })
    const long = 'Bartholomew'.repeat(6)
    const { response, html } = await postName(await web.signedInCookie(user.id), long)
    expect(response.status).toBe(400)
    expect(html).toContain('<output>firstName: validation.too_long</output>')
    expect(html).toContain(`value="${long}"`)
    expect(html).toContain('<title>Error: Your name')
    expect(await firstNameOf(user.id)).toBe('Margaret')
  })

  it('with the database down, answers 503 with what was typed and says nothing was saved', async () => {
    const user = await createUser(database.db, { first_name: 'Margaret' })
    const cookie = await web.signedInCookie(user.id)
    web.takeDown()
    const { response, html } = await postName(cookie, 'Margot')
    expect(response.status).toBe(503)
    expect(html).toContain('value="Margot"')
    expect(html).toContain('<output>form: common:errors.notSaved</output>')
    web.bringUp()
    expect(await firstNameOf(user.id)).toBe('Margaret')
  })

  it('sends a signed-out member to sign in first', async () => {
    const { response } = await postName('', 'Margot')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/login?returnTo=%2Fname')
  })
})

/** A two-step code form like the sign-in with a code: mail is "down" for addresses starting with `down`. */
const codeSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send'), email: z.email('auth:validation.emailInvalid') }),
  z.object({ intent: z.literal('resend'), email: z.email('auth:validation.emailInvalid') }),
  z.object({ intent: z.literal('verify'), email: z.email('auth:validation.emailInvalid'), code: z.string().regex(/^\d{6}$/, 'auth:code.format') }),
])

interface CodeAnswer {
  data: { result: SubmissionResult<string[]>; step: string; email: string }
  init: { status?: number } | null
}

async function codeAction(fields: Record<string, string>, sendAnswer: 'redirect' | 'same page' = 'redirect') {
  const context = web.newContext()
  const request = new Request(`${TEST_PUBLIC_URL}/code`, { method: 'POST', body: new URLSearchParams(fields) })
  const answer = await codeFormAction({ request, context }, parseWithZod(await request.formData(), { schema: codeSchema }), {
    steps: ['send', 'verify'],
    verifyIntent: 'verify',
    notSaved: 'auth:errors.unavailable',
    ready: async () => null,
    send: async ({ email }, _ready, again) => {
      if (email.startsWith('down')) return sendRefusal('not_sent')
      return sendAnswer === 'redirect' ? redirect(`/code?step=verify${again ? '&notice=resent' : ''}`) : null
    },
    verify: async ({ code }) => (code === '123456' ? redirect('/welcome') : codeRefusal(code === '999999' ? 'expired' : 'invalid')),
  })
  return { answer, refused: context.formError === true }
}

const replyOf = (answer: unknown) => answer as CodeAnswer

describe('codeFormAction', () => {
  it('sends the code and goes to the code step; "Send a new code" says it was sent again', async () => {
    const sent = (await codeAction({ intent: 'send', email: 'rose@example.com' })).answer as Response
    expect(sent.headers.get('location')).toBe('/code?step=verify')
    const again = (await codeAction({ intent: 'resend', email: 'rose@example.com' })).answer as Response
    expect(again.headers.get('location')).toBe('/code?step=verify&notice=resent')
  })

  it('a code that could not be sent is said above the form, on the step the member was on', async () => {
    const first = await codeAction({ intent: 'send', email: 'down@example.com' })
    expect(replyOf(first.answer).init?.status).toBe(503)
    expect(replyOf(first.answer).data).toMatchObject({ step: 'send', email: 'down@example.com', result: { error: { '': ['auth:errors.emailNotSent'] } } })
    expect(first.refused).toBe(true)
    const again = await codeAction({ intent: 'resend', email: 'down@example.com' })
    expect(replyOf(again.answer).data.step).toBe('verify')
  })

  it('a wrong, expired or malformed code is said next to the code field, on the code step', async () => {
    const wrong = await codeAction({ intent: 'verify', email: 'rose@example.com', code: '000000' })
    expect(replyOf(wrong.answer).init?.status).toBe(400)
    expect(replyOf(wrong.answer).data).toMatchObject({ step: 'verify', email: 'rose@example.com', result: { error: { code: ['auth:code.invalid'] } } })
    expect(wrong.refused).toBe(true)
    const expired = await codeAction({ intent: 'verify', email: 'rose@example.com', code: '999999' })
    expect(replyOf(expired.answer).data.result.error).toMatchObject({ code: ['auth:code.expired'] })
    const malformed = await codeAction({ intent: 'verify', email: 'rose@example.com', code: '12' })
    expect(replyOf(malformed.answer).init?.status).toBe(400)
    expect(replyOf(malformed.answer).data).toMatchObject({ step: 'verify', result: { error: { code: ['auth:code.format'] } } })
  })

  it('the right code goes on', async () => {
    const done = (await codeAction({ intent: 'verify', email: 'rose@example.com', code: '123456' })).answer as Response
    expect(done.headers.get('location')).toBe('/welcome')
  })

  it('a code step shown in the same answer (the password reset) is the code step, the email kept', async () => {
    const { answer, refused } = await codeAction({ intent: 'send', email: 'rose@example.com' }, 'same page')
    expect(answer).toMatchObject({ step: 'verify', email: 'rose@example.com' })
    expect(refused).toBe(false)
  })
})
