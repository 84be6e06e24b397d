import { jwtVerify } from 'jose'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { STREAM_TEST_BASE_URL, streamHandlers } from '#tests/msw/stream.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as messenger from './_index.tsx'
import * as send from './send.ts'

/**
 * `/messenger` with Stream as the chat service (decision 036): the loader hands the page Stream's
 * key and the member's token only when Stream is configured; the page without JavaScript is the
 * same server-rendered one; Stream's composer sends through `/messenger/send`, so the chat's rules
 * apply and the message reaches Stream under the API's id.
 */
const apiKey = 'stream_web_key'
const apiSecret = 'stream_web_secret_long_enough_for_hs256'
const stream = streamHandlers({ apiKey, apiSecret })
const server = setupServer(...stream.handlers)
const handle = createDocumentHandler([{ id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never }])

let database: TestDatabase
let web: WebHarness
let builtin: WebHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  web = await createWebHarness(database, { STREAM_API_KEY: apiKey, STREAM_API_SECRET: apiSecret, STREAM_BASE_URL: STREAM_TEST_BASE_URL })
  web.services.config.stream = { apiKey, baseUrl: STREAM_TEST_BASE_URL }
  builtin = await createWebHarness(database)
})

afterAll(async () => {
  server.close()
  await web?.close()
  await builtin?.close()
  await database?.drop()
})

async function member(harness: WebHarness) {
  const user = await createUser(database.db, { first_name: 'Rose', last_name: 'Miller' })
  return { user, cookie: await harness.signedInCookie(user.id), token: await harness.api.signToken(user.id) }
}

function request(path: string, cookie: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('cookie', cookie)
  return new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers })
}

async function load(harness: WebHarness, cookie: string, path = '/messenger') {
  return messenger.loader({ request: request(path, cookie), context: harness.newContext(), params: {} })
}

async function directChannel(harness: WebHarness, from: { token: string }, to: { user: { id: string } }) {
  const answer = await harness.api.request('POST', 'users/message-channels', { token: from.token, body: { user_id: to.user.id } })
  return (answer.json as { data: [{ id: string }] }).data[0].id
}

describe('/messenger with Stream', () => {
  it('gives the page Stream’s key and the member’s token only when Stream is configured', async () => {
    const rose = await member(web)
    const loaded = await load(web, rose.cookie)
    expect(loaded.stream).toMatchObject({ apiKey, baseUrl: STREAM_TEST_BASE_URL, userId: rose.user.stream_id })
    const { payload } = await jwtVerify(loaded.stream!.token, new TextEncoder().encode(apiSecret))
    expect(payload.user_id).toBe(rose.user.stream_id)

    const other = await member(builtin)
    expect((await load(builtin, other.cookie)).stream).toBeNull()
  })

  it('serves the same page without JavaScript: the channel and its send form', async () => {
    const rose = await member(web)
    const tom = await member(web)
    const channel = await directChannel(web, rose, tom)
    const response = await handle(request(`/messenger?channel=${channel}`, rose.cookie), web.newContext())
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(readableHtml(html)).toContain('Your message')
    expect(html).not.toContain(apiSecret)
  })

  it('sends through the server from Stream’s composer: stored, mirrored under the API’s id, refused by the chat’s rules', async () => {
    const rose = await member(web)
    const tom = await member(web)
    const channel = await directChannel(web, rose, tom)
    const post = (text: string) =>
      send.action({
        request: request('/messenger/send', rose.cookie, { method: 'POST', body: new URLSearchParams({ intent: 'send', channel, text }) }),
        context: web.newContext(),
        params: {},
      })
    const first = await post('Would you like to join the book club?')
    expect(first.init?.status).toBe(201)
    const id = (first.data as { message: { id: string } }).message.id
    expect(stream.messages.get(id)).toMatchObject({ cid: `messaging:${channel}`, text: 'Would you like to join the book club?', user_id: rose.user.stream_id })

    expect((await post('It meets on Thursdays.')).init?.status).toBe(201)
    // A third message before Tom accepts: the chat's rule, in the member's words.
    const third = await post('Are you there?')
    expect(third.init?.status).toBe(409)
    expect(third.data).toEqual({ error: 'You have sent 2 messages. You can write again when your message request is accepted.' })
    const empty = await post('   ')
    expect(empty.init?.status).toBe(400)
    expect(empty.data).toEqual({ error: 'Write your message before sending it.' })

    // Too many messages too quickly (decision 066): the composer shows why.
    await database.db.updateTable('rate_limits').set({ count: 1_000 }).where('key', '=', `messages-member:${rose.user.id}`).execute()
    await web.api.request('POST', `v1/chat/message-channels/${channel}/accept`, { token: tom.token })
    const flooded = await post('Hello again!')
    expect(flooded.init?.status).toBe(429)
    expect(flooded.data).toEqual({ error: 'You have sent a lot of messages in a short time. Please wait a few minutes, then send this one again: what you wrote is still here.' })
  })
})
