import { randomBytes } from 'node:crypto'
import { http, HttpResponse } from 'msw'

/**
 * Twilio's Programmable Messaging as its API reference documents it
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * `POST https://api.twilio.com/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth
 * (account sid, auth token), form-encoded `To`, `From` or `MessagingServiceSid`, `Body`. It
 * answers 201 with the Message resource (`sid` `SM…`, `status: queued`). Errors are Twilio's
 * error JSON (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions):
 * `{ code, message, more_info, status }`: 401 with code 20003 for wrong credentials, 400 with
 * 21211 for an invalid `To`, 400 with 21604 when `Body` is missing, 21606/21603 without a sender,
 * 400 with 21610 for a `To` that texted STOP to the sender (https://www.twilio.com/docs/errors/21610).
 */
export interface TwilioMock {
  handlers: ReturnType<typeof http.post>[]
  /** Each accepted message's form parameters and sid, in order. */
  messages: { sid: string; form: URLSearchParams }[]
  /** Numbers Twilio refuses as invalid (21211). */
  invalidNumbers: Set<string>
  /** Numbers that texted STOP: Twilio refuses to text them (21610). */
  unsubscribed: Set<string>
  /** While true, Twilio answers 503 (a retryable outage). */
  down: { value: boolean }
}

export function twilioHandlers(options: { accountSid: string; authToken: string }): TwilioMock {
  const messages: TwilioMock['messages'] = []
  const invalidNumbers = new Set<string>()
  const unsubscribed = new Set<string>()
  const down = { value: false }
  const error = (status: number, code: number, message: string) =>
    HttpResponse.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status })

  const handlers = [
    http.post('https://api.twilio.com/2010-04-01/Accounts/:accountSid/Messages.json', async ({ request, params }) => {
      if (down.value) return error(503, 20500, 'Service Unavailable')
      const expected = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`
      if (params.accountSid !== options.accountSid || request.headers.get('authorization') !== expected) {
        return error(401, 20003, 'Authenticate')
      }
      if (!request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')) {
        return error(400, 20001, 'Invalid content type')
      }
      const form = new URLSearchParams(await request.text())
      const to = form.get('To')
      if (!to) return error(400, 21604, "A 'To' phone number is required.")
      if (!form.get('Body')) return error(400, 21602, 'Message body is required.')
      if (!form.get('From') && !form.get('MessagingServiceSid')) return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.")
      if (!/^\+[1-9]\d{6,14}$/.test(to) || invalidNumbers.has(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`)
      if (unsubscribed.has(to)) return error(400, 21610, 'Attempt to send to unsubscribed recipient')
      const sid = `SM${randomBytes(16).toString('hex')}`
      messages.push({ sid, form })
      return HttpResponse.json(
        {
          sid,
          account_sid: options.accountSid,
          to,
          from: form.get('From'),
          messaging_service_sid: form.get('MessagingServiceSid'),
          body: form.get('Body'),
          status: 'queued',
          num_segments: '1',
          direction: 'outbound-api',
          api_version: '2010-04-01',
          date_created: new Date().toUTCString(),
          error_code: null,
          error_message: null,
          uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
        },
        { status: 201 },
      )
    }),
  ]
  return { handlers, messages, invalidNumbers, unsubscribed, down }
}
