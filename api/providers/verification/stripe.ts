import { createHmac, timingSafeEqual } from 'node:crypto'
import {
  InvalidSignatureError,
  VerificationVendorError,
  type StripeIdentity,
  type StripeIdentityEvent,
} from './provider.ts'

/**
 * Stripe Identity over its REST API, no SDK (decision 025):
 * - a VerificationSession of type `document` with a matching selfie, our member's id in its
 *   metadata, created with a form-encoded POST (https://docs.stripe.com/api/identity/verification_sessions/create);
 * - webhooks checked as Stripe documents (https://docs.stripe.com/webhooks#verify-manually):
 *   `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=…]`, each `v1` an HMAC-SHA256 of
 *   `${t}.${raw body}` with the endpoint's signing secret, compared in constant time, and `t`
 *   within five minutes of now (replays of old deliveries are refused).
 */
export const STRIPE_API_BASE = 'https://api.stripe.com'
export const SIGNATURE_TOLERANCE_SECONDS = 300

export interface StripeIdentityOptions {
  secretKey: string
  webhookSecret: string
  fetch?: typeof fetch
  /** Fails a call to Stripe that takes longer (a member is waiting). */
  timeoutMs?: number
}

export function createStripeIdentity(options: StripeIdentityOptions): StripeIdentity {
  const fetcher = options.fetch ?? fetch
  return {
    async createSession({ userId, returnUrl }) {
      const body = new URLSearchParams({
        type: 'document',
        'options[document][require_matching_selfie]': 'true',
        'metadata[user_id]': userId,
        client_reference_id: userId,
        return_url: returnUrl,
      })
      let response: Response
      try {
        response = await fetcher(`${STRIPE_API_BASE}/v1/identity/verification_sessions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.secretKey}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        })
      } catch (error) {
        throw new VerificationVendorError(`Stripe could not be reached: ${(error as Error).message}`)
      }
      const json = (await response.json().catch(() => null)) as { id?: unknown; url?: unknown; error?: { message?: string } } | null
      if (!response.ok || typeof json?.id !== 'string' || typeof json.url !== 'string') {
        throw new VerificationVendorError(`Stripe answered ${response.status}: ${json?.error?.message ?? 'no session'}`)
      }
      return { id: json.id, url: json.url }
    },

    parseWebhook(payload, signatureHeader, now = new Date()) {
      verifyStripeSignature(payload, signatureHeader, options.webhookSecret, now)
      let event: StripeIdentityEvent
      try {
        event = JSON.parse(payload) as StripeIdentityEvent
      } catch {
        throw new InvalidSignatureError('The payload is not JSON')
      }
      if (typeof event?.type !== 'string' || typeof event.data?.object?.id !== 'string') {
        throw new InvalidSignatureError('Not an event')
      }
      return event
    },
  }
}

/** Throws InvalidSignatureError unless one `v1` of the header signs `${t}.${payload}` and `t` is recent. */
export function verifyStripeSignature(payload: string, header: string | undefined, secret: string, now = new Date()) {
  if (!header) throw new InvalidSignatureError('No Stripe-Signature header')
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2)
    if (name === 't' && value && /^\d+$/.test(value)) timestamp = Number(value)
    else if (name === 'v1' && value) signatures.push(value)
  }
  if (timestamp === undefined || signatures.length === 0) throw new InvalidSignatureError('No timestamp or v1 signature')
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new InvalidSignatureError('Timestamp outside the tolerance')
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest()
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex')
    return given.byteLength === expected.byteLength && timingSafeEqual(given, expected)
  })
  if (!matches) throw new InvalidSignatureError('No signature matches')
}

/** A `Stripe-Signature` header for `payload` (tests, and the msw handlers that play Stripe). */
export function signStripePayload(payload: string, secret: string, at = new Date()) {
  const t = Math.floor(at.getTime() / 1000)
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex')}`
}
