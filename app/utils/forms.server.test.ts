import type { AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loader as rootLoader } from '#app/root.tsx'
import { action as editAction, loader as editLoader } from '#app/routes/activities+/$id_.edit.tsx'
import { action as reportAction, loader as reportLoader } from '#app/routes/activities+/$id_.report.tsx'
import { action as createAction, headers as createHeaders, loader as createLoader } from '#app/routes/create-activity.tsx'
import { action as duplicateAction, loader as duplicateLoader } from '#app/routes/duplicate-activity.tsx'
import { action as getStartedAction, loader as getStartedLoader } from '#app/routes/get-started+/_index.tsx'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as createActivityRoute from '#app/routes/create-activity.tsx'

/**
 * QUALITY "Reliability" and issue 10 §5: with the database down, a form is drawn again with
 * everything the member typed (the photo aside, asked for again), says nothing was saved and to
 * press the button again, and answers 503. The session store and the API are real; "down" means
 * every new connection to PostgreSQL is refused.
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

beforeEach(() => {
  web.bringUp()
})

/** What a member types into the activity form (venue in person, Portland picked from the list). */
const typed = {
  title: 'Watercolour morning by the river',
  description: 'Bring a brush.\r\n\r\nPaper and tea are on me.',
  venueType: 'in_person',
  q: 'Portland, OR',
  place: 'us-or-portland',
  address: '1000 SW Broadway, Portland, OR 97205',
  startDate: inDays(20),
  startHour: '09',
  startMinute: '30',
  maxAttendees: '8',
  ticketUrl: 'https://tickets.example.com/paint',
  noShowFee: '5.00',
}

function inDays(days: number) {
  const date = new Date(Date.now() + days * 86_400_000)
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
}

function activityForm(values: Record<string, string> = typed, photo = false) {
  const form = new FormData()
  for (const [name, value] of Object.entries(values)) form.set(name, value)
  form.set('cover', photo ? new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'river.jpg', { type: 'image/jpeg' }) : new File([], ''))
  return form
}

function post(path: string, cookie: string, body: FormData | URLSearchParams | string, contentType?: string) {
  const headers = new Headers({ cookie })
  if (contentType) headers.set('content-type', contentType)
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', headers, body })
}

interface Reply {
  data: { result?: Record<string, unknown>; [key: string]: unknown }
  init: { status?: number; headers?: HeadersInit } | null
}

/** The re-rendered submission of an action's answer (activity forms wrap it in `result`). */
function submissionOf(reply: Reply) {
  return (reply.data.result ?? reply.data) as { initialValue: Record<string, unknown>; error: Record<string, string[] | null> }
}

async function hostedActivity(hostId: string) {
  const response = await web.api.request('POST', 'v1/experiences', {
    token: await web.api.signToken(hostId),
    body: {
      title: 'Book club',
      description: 'We read slowly.',
      start_date: inDays(15),
      start_time: '10:00',
      venue_type: 'online',
      url: 'https://meet.example.com/books',
    },
  })
  expect(response.status).toBe(201)
  return response.json.data[0] as { id: string; title: string }
}

/**
 * After the action, Remix draws the page (JavaScript off) by running the root loader and the
 * page's loader with the same context: both must answer without the database.
 */
async function pageLoadersAnswer(
  context: AppLoadContext,
  request: Request,
  pageLoader: (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => Promise<unknown>,
  params: Record<string, string> = {},
) {
  const root = await rootLoader({ request, context, params })
  const page = await pageLoader({ request, context, params })
  return { root: root.data, page }
}

describe('the activity forms during a database outage', () => {
  it('create: answers 503 with everything typed, says nothing was saved, asks for the photo again (JavaScript off and on)', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    web.takeDown()
    const context = web.newContext()
    const request = post('/create-activity', cookie, activityForm(typed, true))

    const reply = (await createAction({ request, context, params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    const submission = submissionOf(reply)
    expect(submission.initialValue).toMatchObject(typed)
    expect(submission.error['']).toEqual(['activities:form.errors.not_saved_create'])
    expect(submission.error.cover).toEqual(['activities:form.errors.photo_again'])
    // Back after the failure returns to this page: the browser may keep it, nobody else may.
    expect(new Headers(reply.init?.headers).get('Cache-Control')).toBe('private, no-cache')

    // Without JavaScript the page is drawn from the same request: no error page.
    const { root, page } = await pageLoadersAnswer(context, request, createLoader)
    expect(page).toMatchObject({ isAdmin: false })
    expect(root).toMatchObject({ user: null, titlePrefix: 'Error: ' })
    const documentHeaders = new Headers(
      createHeaders({ actionHeaders: new Headers(reply.init?.headers), loaderHeaders: new Headers(), parentHeaders: new Headers(), errorHeaders: undefined }),
    )
    expect(documentHeaders.get('Cache-Control')).toBe('private, no-cache')

    // Nothing was saved, and once the database is back the same answers save.
    web.bringUp()
    expect(await database.db.selectFrom('experiences').select('id').where('title', '=', typed.title).execute()).toEqual([])
    const saved = await createAction({ request: post('/create-activity', cookie, activityForm()), context: web.newContext(), params: {} })
    expect(saved).toBeInstanceOf(Response)
    expect((saved as Response).status).toBe(302)
  })

  it('create: the database going down after the sign-in check keeps the form too, and the page still knows the member', async () => {
    const member = await createUser(database.db, { staff_role: 'admin' })
    const cookie = await web.signedInCookie(member.id)
    const context = web.newContext()
    const realFetch = context.services.apiFetch
    // The outage starts between reading (who is this, the city) and writing the activity.
    context.services = {
      ...context.services,
      apiFetch: async (apiRequest) => {
        if (apiRequest.method === 'POST') web.takeDown()
        return realFetch(apiRequest)
      },
    }
    const values = { ...typed, isHostless: 'on', adminOptions: 'shown' }
    const request = post('/create-activity', cookie, activityForm(values))

    const reply = (await createAction({ request, context, params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    expect(submissionOf(reply).initialValue).toMatchObject({ ...typed, isHostless: 'on' })
    expect(submissionOf(reply).error['']).toEqual(['activities:form.errors.not_saved_create'])
    expect(submissionOf(reply).error.cover).toBeUndefined()
    expect(reply.data.adminOptions).toBe(true)

    const { root, page } = await pageLoadersAnswer(context, request, createLoader)
    expect(root).toMatchObject({ user: { id: member.id } })
    expect(page).toMatchObject({ isAdmin: true })
  })

  it('edit: answers 503 with the changed text and says to press Save changes again', async () => {
    const host = await createUser(database.db)
    const activity = await hostedActivity(host.id)
    const cookie = await web.signedInCookie(host.id)
    const changed = { ...typed, title: 'Book club, now with cake', description: 'Chapter 3 and a lemon drizzle.' }
    web.takeDown()
    const context = web.newContext()
    const request = post(`/activities/${activity.id}/edit`, cookie, activityForm(changed))

    const reply = (await editAction({ request, context, params: { id: activity.id } })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    expect(submissionOf(reply).initialValue).toMatchObject(changed)
    expect(submissionOf(reply).error['']).toEqual(['activities:form.errors.not_saved_edit'])
    await pageLoadersAnswer(context, request, editLoader, { id: activity.id })

    web.bringUp()
    const row = await database.db.selectFrom('experiences').select('title').where('id', '=', activity.id).executeTakeFirstOrThrow()
    expect(row.title).toBe('Book club')
  })

  it('duplicate: answers 503 with everything typed', async () => {
    const host = await createUser(database.db)
    const activity = await hostedActivity(host.id)
    const cookie = await web.signedInCookie(host.id)
    web.takeDown()
    const context = web.newContext()
    const request = post(`/duplicate-activity?from=${activity.id}`, cookie, activityForm())

    const reply = (await duplicateAction({ request, context, params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    expect(submissionOf(reply).initialValue).toMatchObject(typed)
    expect(submissionOf(reply).error['']).toEqual(['activities:form.errors.not_saved_create'])
    await pageLoadersAnswer(context, request, duplicateLoader)
  })
})

describe('the create page as a browser without JavaScript gets it, during a database outage', () => {
  it('is the form again, filled in, with the error summary; Back may show it again', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    const handle = createDocumentHandler([{ id: 'routes/create-activity', path: 'create-activity', module: createActivityRoute as never }])
    web.takeDown()

    const response = await handle(post('/create-activity', cookie, activityForm(typed, true)), web.newContext())
    expect(response.status).toBe(503)
    expect(response.headers.get('Cache-Control')).toBe('private, no-cache')
    const html = await response.text()
    expect(html).toContain('<title>Error: Host an activity – Circle 55</title>')
    expect(html).toContain('Nothing was saved: our service is not answering right now. Everything you typed is still below.')
    expect(html).toContain('Please choose your photo again')
    expect(html).toContain(`value="${typed.title}"`)
    expect(html).toMatch(/>Bring a brush\.\r?\n\r?\nPaper and tea are on me\.<\/textarea>/)
    for (const value of [typed.address, typed.ticketUrl, typed.noShowFee, typed.startDate, typed.q]) expect(html).toContain(`value="${value}"`)
    expect(html).not.toContain('Service unavailable')
  })
})

describe('the other forms where a member writes text, during a database outage', () => {
  it('report an activity: answers 503 with the reason and what they wrote', async () => {
    const host = await createUser(database.db)
    const activity = await hostedActivity(host.id)
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    const details = 'The link asks for my bank details before the meeting.'
    web.takeDown()
    const context = web.newContext()
    const request = post(`/activities/${activity.id}/report`, cookie, new URLSearchParams({ reason: 'fake_or_scam', details }))

    const reply = (await reportAction({ request, context, params: { id: activity.id } })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    expect(submissionOf(reply).initialValue).toEqual({ reason: 'fake_or_scam', details })
    expect(submissionOf(reply).error['']).toEqual(['reports:errors.not_saved'])
    const { page } = await pageLoadersAnswer(context, request, reportLoader, { id: activity.id })
    expect(page).toMatchObject({ id: activity.id })

    web.bringUp()
    expect(await database.db.selectFrom('reports').select('id').where('details', '=', details).execute()).toEqual([])
  })

  it('get started (name and phone): answers 503 with everything typed', async () => {
    const member = await createUser(database.db, { onboarded_at: null, first_name: null, last_name: null })
    const cookie = await web.signedInCookie(member.id)
    const answers = new URLSearchParams({ firstName: 'Margaret', lastName: 'Okafor', gender: 'woman', reasons: 'new_people', phone: '(503) 555-0142' })
    web.takeDown()
    const context = web.newContext()
    const request = post('/get-started', cookie, answers)

    const reply = (await getStartedAction({ request, context, params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(503)
    expect(submissionOf(reply).initialValue).toEqual(Object.fromEntries(answers))
    expect(submissionOf(reply).error['']).toEqual(['onboarding:basicInfo.notSaved'])
    const { page } = await pageLoadersAnswer(context, request, getStartedLoader)
    expect(page).toMatchObject({ user: null })
  })
})

describe('POST /create-activity that is not a multipart form', () => {
  it('answers 415 with the text it could read and a clear message (urlencoded)', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    const request = post('/create-activity', cookie, new URLSearchParams(typed), 'application/x-www-form-urlencoded')
    const reply = (await createAction({ request, context: web.newContext(), params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(415)
    expect(submissionOf(reply).initialValue).toMatchObject({ title: typed.title, description: typed.description })
    expect(submissionOf(reply).error['']).toEqual(['activities:form.errors.not_multipart'])
    expect(await database.db.selectFrom('experiences').select('id').where('host_id', '=', member.id).execute()).toEqual([])
  })

  it('answers 415 with the form and the message (JSON)', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    const request = post('/create-activity', cookie, JSON.stringify({ title: 'x' }), 'application/json')
    const reply = (await createAction({ request, context: web.newContext(), params: {} })) as unknown as Reply
    expect(reply.init?.status).toBe(415)
    expect(submissionOf(reply).error['']).toEqual(['activities:form.errors.not_multipart'])
  })
})
