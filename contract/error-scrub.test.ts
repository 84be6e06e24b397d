import { describe, expect, it } from 'vitest'
import { filtered, redactText, scrubBreadcrumb, scrubEvent, scrubValue, withoutQuery } from './error-scrub.ts'

/** What error reports may carry (decision 083): the request id, never message text, emails or phone numbers. */

const requestId = '43211234-1234-4abc-8def-503555014212'

describe('redactText', () => {
  it('takes out emails and phone numbers, in any usual writing, and keeps ids, dates and counts', () => {
    expect(redactText('Could not email margaret.k+club@example.co.uk today')).toBe(`Could not email ${filtered} today`)
    for (const phone of ['503-555-0142', '(503) 555-0142', '+1 503 555 0142', '5035550142', '+44 20 7946 0958', '503.555.0142']) {
      expect(redactText(`Call ${phone}.`), phone).toBe(`Call ${filtered}.`)
    }
    expect(redactText(`request ${requestId} failed`)).toBe(`request ${requestId} failed`)
    expect(redactText('on 2025-06-01 at 10:30, 12 seats, 400 ms')).toBe('on 2025-06-01 at 10:30, 12 seats, 400 ms')
    expect(redactText('/unsubscribe?to=margaret%40example.com')).toBe(`/unsubscribe?to=${filtered}`)
  })
})

describe('withoutQuery', () => {
  it('keeps the path, never the query', () => {
    expect(withoutQuery('https://circle55.example/activities?q=Portland&email=a%40b.com#top')).toBe(`https://circle55.example/activities?${filtered}`)
    expect(withoutQuery('/messenger')).toBe('/messenger')
  })
})

describe('scrubValue', () => {
  it('drops what members wrote and how to reach them, by key and by shape, keeping the rest', () => {
    expect(
      scrubValue({
        requestId,
        method: 'POST',
        path: '/messenger',
        text: 'Meet me at the library',
        body: { text: 'Hello' },
        user: { id: 'u1', email: 'a@b.com', phone_number: '+15035550142', firstName: 'Margaret' },
        note: 'reach margaret@example.com',
        url: '/activities?q=Salem',
        errorCode: 'ECONNREFUSED',
        nested: [{ feedback: 'Too loud' }],
      }),
    ).toEqual({
      requestId,
      method: 'POST',
      path: '/messenger',
      text: filtered,
      body: filtered,
      user: { id: 'u1', email: filtered, phone_number: filtered, firstName: filtered },
      note: `reach ${filtered}`,
      url: `/activities?${filtered}`,
      errorCode: 'ECONNREFUSED',
      nested: [{ feedback: filtered }],
    })
  })
})

describe('scrubEvent (Sentry’s beforeSend)', () => {
  it('leaves the request id and the error, and takes the body, query, cookies, user details and message text out', () => {
    const event = scrubEvent({
      message: 'Failed for ruth@example.com',
      exception: { values: [{ value: 'Could not text +1 (503) 555-0142', stacktrace: { frames: [{ vars: { text: 'My secret', count: 2 } }] } }] },
      request: {
        url: 'https://circle55.example/help/chat?email=ruth%40example.com',
        query_string: 'email=ruth%40example.com',
        data: 'text=How+do+I+change+my+email%3F',
        cookies: { __Host_session: 'abc' },
        headers: { cookie: '__Host-session=abc', authorization: 'Bearer x', 'user-agent': 'Firefox', 'x-request-id': requestId },
      },
      user: { id: 'u1', email: 'ruth@example.com', ip_address: '203.0.113.9', username: 'Ruth' },
      breadcrumbs: [
        { category: 'console', message: 'sending to 503-555-0142', data: { arguments: ['Hello there', 'ruth@example.com'] } },
        { category: 'navigation', data: { from: '/help/chat?q=x', to: '/messenger?channel=1' } },
        { category: 'fetch', data: { url: '/help/chat.data?panel', method: 'POST', status_code: 500 } },
      ],
      extra: { requestId, method: 'POST', path: '/help/chat', text: 'How do I change my email?' },
      tags: { request_id: requestId },
      contexts: { member: { note: 'ruth@example.com' }, runtime: { name: 'node', version: 'v24' } },
    })
    expect(event).toEqual({
      message: `Failed for ${filtered}`,
      exception: { values: [{ value: `Could not text ${filtered}`, stacktrace: { frames: [{ vars: { text: filtered, count: 2 } }] } }] },
      request: { url: `https://circle55.example/help/chat?${filtered}`, query_string: filtered, headers: { 'user-agent': 'Firefox', 'x-request-id': requestId } },
      user: { id: 'u1' },
      breadcrumbs: [
        { category: 'console', message: `sending to ${filtered}`, data: {} },
        { category: 'navigation', data: { from: `/help/chat?${filtered}`, to: `/messenger?${filtered}` } },
        { category: 'fetch', data: { url: `/help/chat.data?${filtered}`, method: 'POST', status_code: 500 } },
      ],
      extra: { requestId, method: 'POST', path: '/help/chat', text: filtered },
      tags: { request_id: requestId },
      contexts: { member: { note: filtered }, runtime: { name: 'node', version: 'v24' } },
    })
  })

  it('scrubs a breadcrumb on its own (Sentry’s beforeBreadcrumb)', () => {
    expect(scrubBreadcrumb({ category: 'ui.click', message: 'button.send "Call 503 555 0142"' })).toEqual({ category: 'ui.click', message: `button.send "Call ${filtered}"` })
  })
})
