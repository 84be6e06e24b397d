import { randomBytes } from 'node:crypto'
import { http, HttpResponse } from 'msw'
import { signStripePayload } from '#api/providers/verification/stripe.ts'

/**
 * Stripe Identity as its API reference documents it (https://docs.stripe.com/api/identity/verification_sessions):
 * `POST /v1/identity/verification_sessions` (form-encoded, bearer secret key; `type` is
 * `document` or `id_number`; nested parameters in brackets) answers a VerificationSession
 * (`vs_…`, `status: requires_input`, a hosted `url` on verify.stripe.com), and
 * `GET /v1/identity/verification_sessions/{id}` reads one back. Errors are
 * `{ error: { type, message } }`: 401 for a wrong key, 400 for a bad parameter.
 * `event()` builds a webhook delivery as Stripe sends it (https://docs.stripe.com/webhooks),
 * signed with the endpoint's secret (`Stripe-Signature: t=…,v1=…`).
 */
export interface StripeSession {
  id: string
  object: 'identity.verification_session'
  type: string
  status: 'requires_input' | 'processing' | 'verified' | 'canceled'
  url: string | null
  client_secret: string
  client_reference_id: string | null
  return_url: string | null
  metadata: Record<string, string>
  options: { document?: { require_matching_selfie?: boolean } }
  last_error: { code: string; reason: string } | null
  livemode: false
  created: number
}

export interface StripeIdentityMock {
  handlers: ReturnType<typeof http.post>[]
  sessions: Map<string, StripeSession>
  /** Each create call's form parameters, in order. */
  creates: URLSearchParams[]
  /** A signed webhook delivery about `session` (its status set as the event says). */
  event(
    type: 'identity.verification_session.verified' | 'identity.verification_session.requires_input' | 'identity.verification_session.canceled',
    session: StripeSession,
    options?: { secret?: string; at?: Date; lastError?: StripeSession['last_error'] },
  ): { payload: string; signature: string }
}

const API = 'https://api.stripe.com/v1/identity/verification_sessions'

const stripeError = (status: number, type: string, message: string, param?: string) =>
  HttpResponse.json({ error: { type, message, ...(param ? { param } : {}) } }, { status })

export function stripeIdentityHandlers(options: { secretKey: string; webhookSecret: string }): StripeIdentityMock {
  const sessions = new Map<string, StripeSession>()
  const creates: URLSearchParams[] = []
  const authorized = (request: Request) => request.headers.get('authorization') === `Bearer ${options.secretKey}`

  const handlers = [
    http.post(API, async ({ request }) => {
      if (!authorized(request)) return stripeError(401, 'invalid_request_error', 'Invalid API Key provided.')
      if (!/^application\/x-www-form-urlencoded/.test(request.headers.get('content-type') ?? '')) {
        return stripeError(400, 'invalid_request_error', 'Invalid request: expected form-encoded parameters.')
      }
      const form = new URLSearchParams(await request.text())
      creates.push(form)
      const type = form.get('type')
      if (type !== 'document' && type !== 'id_number') {
        return stripeError(400, 'invalid_request_error', 'Invalid type: must be one of document or id_number', 'type')
      }
      const metadata: Record<string, string> = {}
      for (const [name, value] of form) {
        const key = /^metadata\[([^\]]+)\]$/.exec(name)?.[1]
        if (key) metadata[key] = value
      }
      const id = `vs_${randomBytes(12).toString('hex')}`
      const session: StripeSession = {
        id,
        object: 'identity.verification_session',
        type,
        status: 'requires_input',
        url: `https://verify.stripe.com/start/test_${randomBytes(16).toString('hex')}`,
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        client_reference_id: form.get('client_reference_id'),
        return_url: form.get('return_url'),
        metadata,
        options: { document: { require_matching_selfie: form.get('options[document][require_matching_selfie]') === 'true' } },
        last_error: null,
        livemode: false,
        created: Math.floor(Date.now() / 1000),
      }
      sessions.set(id, session)
      return HttpResponse.json(session)
    }),
    http.get(`${API}/:id`, ({ request, params }) => {
      if (!authorized(request)) return stripeError(401, 'invalid_request_error', 'Invalid API Key provided.')
      const session = sessions.get(String(params.id))
      if (!session) return stripeError(404, 'invalid_request_error', `No such verificationsession: '${String(params.id)}'`, 'id')
      return HttpResponse.json(session)
    }),
  ]

  function event(type: Parameters<StripeIdentityMock['event']>[0], session: StripeSession, eventOptions: Parameters<StripeIdentityMock['event']>[2] = {}) {
    const status = type.slice('identity.verification_session.'.length) as StripeSession['status']
    const updated: StripeSession = {
      ...session,
      status,
      url: status === 'requires_input' ? session.url : null,
      last_error: status === 'requires_input' ? (eventOptions.lastError ?? { code: 'document_expired', reason: 'The document is expired.' }) : null,
    }
    sessions.set(session.id, updated)
    const at = eventOptions.at ?? new Date()
    const payload = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2024-06-20',
      created: Math.floor(at.getTime() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      data: { object: updated },
    })
    return { payload, signature: signStripePayload(payload, eventOptions.secret ?? options.webhookSecret, at) }
  }

  return { handlers, sessions, creates, event }
}
