import type { AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '#api/providers/email/outbox.ts'
import type { WebConfig, WebServices } from '#app/utils/load-context.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as outboxRoute from './outbox.tsx'
import { loader } from './outbox.tsx'

/**
 * Issue 10 §4: the development outbox shows every sign-in and reset code, so it answers only
 * this machine unless DEV_OUTBOX says otherwise. The addresses are what server.ts hands over:
 * `peerAddress` is the socket's, `clientAddress` is req.ip (X-Forwarded-For with TRUST_PROXY).
 */
let database: TestDatabase
let web: WebHarness | undefined

beforeAll(async () => {
  database = await createTestDatabase()
  await database.db
    .insertInto('email_outbox')
    .values({ to_address: 'ann@example.com', subject: 'Your sign-in code', text_body: 'Your code is 482913.', kind: 'sign_in_code', locale: 'en' })
    .execute()
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

function context(devOutbox: WebConfig['devOutbox'], addresses: { peer: string; client: string }) {
  const services = {
    config: { devOutbox },
    outbox: devOutbox === 'off' ? null : (limit: number, filter?: { to?: string; offset?: number }) => readOutbox(database.db, limit, filter),
  } as unknown as WebServices
  return {
    cspNonce: 'n',
    requestId: 'test',
    clientAddress: addresses.client,
    peerAddress: addresses.peer,
    services,
  } as unknown as AppLoadContext
}

/** The outbox page's data for this query. */
async function read(query: string) {
  const request = new Request(`http://localhost:3999/dev/outbox${query}`)
  const result = await loader({ request, context: context('loopback', { peer: '::1', client: '::1' }), params: {} })
  return (result as unknown as { data: { messages: { to: string; subject: string }[]; older: boolean; page: number } }).data
}

/** The outbox's status and, when it answers, whether the code is in it. */
async function visit(devOutbox: WebConfig['devOutbox'], addresses: { peer: string; client: string }) {
  const request = new Request('http://localhost:3999/dev/outbox')
  const result = await loader({ request, context: context(devOutbox, addresses), params: {} }).catch((thrown: unknown) => thrown)
  if (result && typeof result === 'object' && 'init' in result && 'data' in result) {
    const { init, data } = result as { init: { status?: number } | null; data: unknown }
    const status = init?.status ?? 200
    return { status, showsCode: status === 200 && JSON.stringify(data).includes('482913') }
  }
  throw new Error(`Unexpected answer ${String(result)}`)
}

const thisMachine = [
  { peer: '127.0.0.1', client: '127.0.0.1' },
  { peer: '::1', client: '::1' },
  { peer: '::ffff:127.0.0.1', client: '::ffff:127.0.0.1' },
  // The e2e suite: the test browser on this machine, TRUST_PROXY=1 and a loopback X-Forwarded-For.
  { peer: '::1', client: '127.44.3.9' },
]

const elsewhere = [
  // Straight from another machine.
  { peer: '203.0.113.7', client: '203.0.113.7' },
  { peer: '::ffff:192.168.1.20', client: '::ffff:192.168.1.20' },
  { peer: '2001:db8::7', client: '2001:db8::7' },
  // From another machine with a forged X-Forwarded-For: 127.0.0.1 (trusted with TRUST_PROXY=1).
  { peer: '203.0.113.7', client: '127.0.0.1' },
  // Through a reverse proxy on this machine, which reports the real visitor.
  { peer: '127.0.0.1', client: '203.0.113.7' },
  { peer: '::1', client: '::ffff:10.1.2.3' },
  // Addresses that only look like loopback.
  { peer: '127.0.0.1.evil', client: '127.0.0.1.evil' },
  { peer: '::ffff:128.0.0.1', client: '::ffff:128.0.0.1' },
  { peer: '', client: '' },
]

describe('/dev/outbox (issue 10 §4)', () => {
  it.each(thisMachine)('shows the codes to this machine by default (%j)', async (addresses) => {
    expect(await visit('loopback', addresses)).toEqual({ status: 200, showsCode: true })
  })

  it.each(elsewhere)('answers 404 to anyone else by default (%j)', async (addresses) => {
    expect(await visit('loopback', addresses)).toEqual({ status: 404, showsCode: false })
  })

  it('answers everyone with DEV_OUTBOX=open', async () => {
    for (const addresses of elsewhere) expect(await visit('open', addresses)).toEqual({ status: 200, showsCode: true })
  })

  it('answers nobody with DEV_OUTBOX=off (and in production)', async () => {
    for (const addresses of [...thisMachine, ...elsewhere]) {
      expect(await visit('off', addresses)).toEqual({ status: 404, showsCode: false })
    }
  })
})

describe('/dev/outbox: one address, and older emails (issue 29 §4)', () => {
  it("shows a new member's code however many emails were sent after it, and pages back through the rest", async () => {
    // A new member's code, then 120 of the demo's survey emails to other people.
    await database.db
      .insertInto('email_outbox')
      .values({ to_address: 'New.Member@Example.com', subject: 'Your code for Circle 55', text_body: 'Your code is 771204.', kind: 'sign_in_code', locale: 'en', created_at: new Date(Date.now() - 60_000) })
      .execute()
    await database.db
      .insertInto('email_outbox')
      .values(Array.from({ length: 120 }, (_, index) => ({ to_address: `member${index}@demo.test`, subject: 'How was it?', text_body: 'Tell us.', kind: 'notification', locale: 'en' })))
      .execute()

    const newest = await read('')
    expect(newest.messages).toHaveLength(50)
    expect(newest.messages.some((message) => message.to === 'New.Member@Example.com')).toBe(false)
    expect(newest.older).toBe(true)

    const mine = await read('?to=new.member%40example.com')
    expect(mine.messages.map((message) => message.subject)).toEqual(['Your code for Circle 55'])
    expect(mine.older).toBe(false)

    const third = await read('?page=3')
    expect(third.page).toBe(3)
    expect(third.messages.map((message) => message.to)).toContain('New.Member@Example.com')
    expect(third.older).toBe(false)
  })
})

describe('/dev/outbox: how the mail server took each email (issue 29 §5)', () => {
  it('says which emails were sent, which are being retried and which failed for good, in the page’s language', async () => {
    web = await createWebHarness(database)
    web.services.config = { ...web.services.config, devOutbox: 'loopback' }
    web.services.outbox = (limit, filter) => readOutbox(database.db, limit, filter)
    const at = new Date('2026-11-28T09:30:00Z')
    await database.db
      .insertInto('email_outbox')
      .values([
        { to_address: 'sent@example.com', subject: 'Sent one', text_body: '…', kind: 'welcome', locale: 'en', sent_at: at },
        { to_address: 'retry@example.com', subject: 'Retried one', text_body: '…', kind: 'newMessage', locale: 'en', attempts: 3, last_error: '451 Try again later' },
        { to_address: 'failed@example.com', subject: 'Failed one', text_body: '…', kind: 'experienceCanceled', locale: 'en', attempts: 37, last_error: 'connect ECONNREFUSED 127.0.0.1:25', failed_at: at },
      ])
      .execute()
    const handle = createDocumentHandler([{ id: 'routes/dev+/outbox', path: 'dev/outbox', module: outboxRoute as never }])
    const page = async (language: string) => {
      const response = await handle(new Request(`${TEST_PUBLIC_URL}/dev/outbox`, { headers: { 'Accept-Language': language } }), web!.newContext())
      expect(response.status).toBe(200)
      return readableHtml(await response.text())
    }
    const english = await page('en')
    expect(english).toContain('Sent at 2026-11-28 09:30 UTC')
    expect(english).toContain('Not delivered yet: 3 attempts failed, trying again. Last error: 451 Try again later')
    expect(english).toContain('Not delivered: given up at 2026-11-28 09:30 UTC after 37 failed attempts. Last error: connect ECONNREFUSED 127.0.0.1:25')
    expect(await page('fr')).toContain('Non remis : abandonné à 2026-11-28 09:30 UTC après 37 tentatives échouées.')
    expect(await page('nl')).toContain('Niet bezorgd: opgegeven om 2026-11-28 09:30 UTC na 37 mislukte pogingen.')
  })
})
