import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sentryHandlers } from '#tests/msw/sentry.ts'
import { flushErrorReports, initErrorReporting } from './error-reporting.ts'
import { createLogger } from './logger.ts'

/**
 * Server errors reach Sentry (decision 083) with the request id, and without message text,
 * emails or phone numbers: the SDK's real envelope, sent to a Sentry ingestion endpoint in msw.
 */
const dsn = 'https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.example/4242'
const sentry = sentryHandlers(dsn)
const server = setupServer(...sentry.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }))
afterAll(() => server.close())

describe('reporting to Sentry', () => {
  it('sends the error with the request id as a tag, and nothing a member wrote or how to reach them', async () => {
    const report = await initErrorReporting({ SENTRY_DSN: dsn, NODE_ENV: 'test' }, createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }))
    const requestId = 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d'
    // Made at run time: Sentry sends the source lines around the error, and these must not be there as literals.
    const email = ['margaret', 'kowalczyk'].join('.') + '@example.com'
    const phone = ['+1', '503', '555', '0142'].join(' ')
    const text = ['How do I change', 'my email?'].join(' ')
    report(new Error(`Could not text ${phone} for ${email}`), { requestId, method: 'POST', path: '/help/chat', text: `${text} It is ${email}`, email, phone })
    expect(await flushErrorReports(5_000)).toBe(true)

    const events = sentry.envelopes.flatMap((envelope) => envelope.items.filter((item) => item.header.type === 'event').map((item) => ({ payload: item.payload as Record<string, unknown>, raw: envelope.raw })))
    expect(events).toHaveLength(1)
    const [{ payload, raw }] = events as [(typeof events)[number]]
    expect(payload.tags).toMatchObject({ request_id: requestId })
    expect(payload.extra).toMatchObject({ requestId, method: 'POST', path: '/help/chat', text: '[Filtered]', email: '[Filtered]', phone: '[Filtered]' })
    expect(JSON.stringify(payload.exception)).toContain('Could not text [Filtered] for [Filtered]')
    for (const secret of ['margaret.kowalczyk', '555 0142', '5035550142', 'How do I change my email']) expect(raw).not.toContain(secret)
  })
})
