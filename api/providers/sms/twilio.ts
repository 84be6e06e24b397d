import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The text-message provider's vendor adapter: Twilio's Programmable Messaging REST API
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded, HTTP basic auth with the
 * account sid and auth token) and the signature of its webhooks (`X-Twilio-Signature`).
 */
export interface TwilioOptions {
  accountSid: string
  authToken: string
  /** The sending number (E.164); or, instead, a Messaging Service that picks it. */
  from?: string | undefined
  messagingServiceSid?: string | undefined
  /** Twilio's API address; tests and proxies set it. */
  baseUrl?: string
  /** Gives up on an API that does not answer within this many ms (default 10 s). */
  timeoutMs?: number
}

/**
 * Twilio's documented error answer: `{ code, message, more_info, status }`. `status` is the HTTP
 * status; `retryable` is false for a refusal that will not change (an invalid or unsubscribed
 * number, a bad request), true for rate limits, server errors and a network that failed.
 */
export class TwilioError extends Error {
  override name = 'TwilioError'
  readonly status: number
  readonly code: number | null
  readonly moreInfo: string | null
  constructor(message: string, status: number, code: number | null, moreInfo: string | null) {
    super(message)
    this.status = status
    this.code = code
    this.moreInfo = moreInfo
  }
  get retryable() {
    return this.status === 0 || this.status === 429 || this.status >= 500
  }
}

export function createTwilioClient(options: TwilioOptions) {
  const base = (options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '')
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`
  return {
    /** Sends one text; answers Twilio's message sid. Throws a `TwilioError`. */
    async send(to: string, body: string): Promise<{ sid: string }> {
      const form = new URLSearchParams({ To: to, Body: body })
      if (options.messagingServiceSid) form.set('MessagingServiceSid', options.messagingServiceSid)
      else if (options.from) form.set('From', options.from)
      let response: Response
      try {
        response = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        })
      } catch (error) {
        throw new TwilioError(`Twilio could not be reached: ${(error as Error).message}`, 0, null, null)
      }
      const json = (await response.json().catch(() => null)) as Record<string, unknown> | null
      if (!response.ok || typeof json?.sid !== 'string') {
        throw new TwilioError(
          typeof json?.message === 'string' ? json.message : `Twilio answered ${response.status}`,
          response.ok ? 502 : response.status,
          typeof json?.code === 'number' ? json.code : null,
          typeof json?.more_info === 'string' ? json.more_info : null,
        )
      }
      return { sid: json.sid }
    },
  }
}
export type TwilioClient = ReturnType<typeof createTwilioClient>

/**
 * `X-Twilio-Signature` of a webhook: base64 HMAC-SHA1, keyed with the auth token, of the full
 * URL Twilio called followed by each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams | Record<string, string>) {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params)
  const data = entries
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .reduce((text, [name, value]) => text + name + value, url)
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64')
}

/** Whether `signature` is Twilio's for this request (compared in constant time). */
export function verifyTwilioSignature(authToken: string, url: string, params: URLSearchParams, signature: string | undefined) {
  if (!signature) return false
  const expected = Buffer.from(twilioSignature(authToken, url, params))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** Twilio's options from the environment (TWILIO_*), or undefined for the built-in outbox. */
export function twilioOptionsFrom(env: {
  TWILIO_ACCOUNT_SID?: string | undefined
  TWILIO_AUTH_TOKEN?: string | undefined
  TWILIO_FROM_NUMBER?: string | undefined
  TWILIO_MESSAGING_SERVICE_SID?: string | undefined
}): TwilioOptions | undefined {
  if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN) return undefined
  return {
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN,
    from: env.TWILIO_FROM_NUMBER,
    messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
  }
}
