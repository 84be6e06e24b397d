import { createRoute, z } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import { devOutboxAllows } from '#contract/dev-outbox.ts'
import { phoneConfirmationSchema, phoneConfirmationStartedSchema } from '#contract/sms.ts'
import { userSchema } from '#contract/users.ts'
import type { ApiServices } from '../http/context.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requestAddresses, requireCaller } from '../http/request.ts'
import { createSmsSender, type SmsSender } from '../providers/sms/sender.ts'
import { twilioOptionsFrom, verifyTwilioSignature } from '../providers/sms/twilio.ts'
import { ownUserJson } from '../users/service.ts'
import { confirmPhone, handleInboundSmsOnce, startPhoneConfirmation, type SmsDeps } from './service.ts'

/** The runtime's sender, or the built-in outbox (with Twilio when configured) for a host that gave none. */
export function smsSenderOf(services: ApiServices): SmsSender {
  const { db, env, jobs: queue, logger } = services
  return services.sms ?? createSmsSender({ db, twilio: twilioOptionsFrom(env), queue, logger, production: env.isProduction })
}

const smsDeps = (services: ApiServices): SmsDeps => ({
  db: services.db,
  notify: services.notify,
  chatMirror: services.chatMirror,
  codeSecret: services.codeSecret,
  sms: smsSenderOf(services),
  media: services.media,
  mailer: services.mailer,
  logger: services.logger,
})

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)

/** Text messages (issue 15 §3, decision 049): the phone's confirmation code and Twilio's inbound webhook. */
export function smsRoutes(routes: ApiRoutes) {
  const tags = ['users']

  const startRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/phone/confirmation',
    tags,
    security: auth.required,
    summary: "Text a 6-digit code (10 minutes, 5 attempts) to the member's phone, to confirm it is theirs before any text is sent to it.",
    responses: {
      202: jsonContent('A code was texted to the phone', phoneConfirmationStartedSchema),
      ...errors(auth.required, {
        409: 'No phone on the account (code phone_missing), it is already confirmed (code phone_confirmed), or it texted STOP to us and not START since (code texts_stopped)',
        429: 'Too many codes for this member or this number (code too_many_attempts)',
        503: 'The text could not be sent (code sms_not_sent), or the database is unavailable (code service_unavailable)',
      }),
    },
  })
  serve(routes, startRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await startPhoneConfirmation(smsDeps(c.var.services), caller), 202)
  })

  const confirmRoute = createRoute({
    method: 'put',
    path: '/v1/users/me/phone/confirmation',
    tags,
    security: auth.required,
    summary: 'Confirm the phone with the code texted to it; texts may go to it from then on (until the number changes).',
    request: { body: jsonBody(phoneConfirmationSchema) },
    responses: {
      200: jsonContent('The member, phone confirmed', oneOf(userSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        409: 'No phone on the account (code phone_missing)',
        422: 'Wrong code (code_invalid), or none waiting, used up or expired (code_expired)',
        429: 'Too many attempts for this member (code too_many_attempts)',
      }),
    },
  })
  serve(routes, confirmRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, confirmRoute)
    const updated = await confirmPhone(smsDeps(c.var.services), caller, input)
    return c.json({ data: [await ownUserJson(c.var.services, updated)] })
  })

  const inboundRoute = createRoute({
    method: 'post',
    path: '/v1/sms/inbound',
    tags: ['sms'],
    security: auth.none,
    summary:
      "Twilio's incoming-message webhook (form-encoded `From`, `To`, `Body`, `MessageSid`…), authenticated by `X-Twilio-Signature`. STOP (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, REVOKE, or Twilio's `OptOutType=STOP`) stops every text to the number and START (UNSTOP, YES) allows them again, as carriers do; the confirmation is the carrier's. HELP and INFO (or `OptOutType=HELP`) get Twilio's own help text, not a second one. A confirmed member's \"C\" (ANNULER, ANNULEER) cancels their seat at the activity of the latest text about one; anything else gets a help text; unknown numbers get nothing. Each `MessageSid` is acted on once: a request sent again answers an empty Response and changes nothing. Answers TwiML. Without Twilio, served outside production only, to whom the development outbox is served (DEV_OUTBOX: this machine by default), for its replies.",
    request: {
      body: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: z
              .object({ From: z.string(), To: z.string().optional(), Body: z.string(), MessageSid: z.string().optional(), OptOutType: z.enum(['STOP', 'START', 'HELP']).optional() })
              .passthrough(),
          },
        },
      },
    },
    responses: {
      200: { description: 'TwiML: the answer text, or an empty Response', content: { 'text/xml': { schema: z.string() } } },
      ...errors(auth.none, {
        400: 'Not a form with From and Body (code invalid_body)',
        403: 'The Twilio signature is missing or does not match (code forbidden)',
        404: 'Twilio is not configured, in production or for a client the development outbox does not serve (code not_found)',
        413: 'A body over 100 KB (code payload_too_large)',
      }),
    },
  })
  serve(routes, inboundRoute, async (c) => {
    const services = c.var.services
    const twilio = twilioOptionsFrom(services.env)
    if (!twilio && services.env.isProduction) throw problems.notFound()
    // Built in, it stands in for Twilio for the development outbox only: served to whom the outbox
    // is (this machine unless DEV_OUTBOX says otherwise), or anyone could text "C" or STOP as any
    // member (decision 066).
    if (!twilio && !devOutboxAllows(services.env.DEV_OUTBOX, requestAddresses(c))) throw problems.notFound()
    const params = new URLSearchParams(await c.req.text())
    if (twilio) {
      const url = new URL(c.req.url)
      const publicUrl = `${services.env.PUBLIC_URL}${url.pathname}${url.search}`
      if (!verifyTwilioSignature(twilio.authToken, publicUrl, params, c.req.header('x-twilio-signature'))) {
        services.logger.warn({ requestId: c.var.requestId }, 'Twilio webhook refused: bad signature')
        throw new ApiProblem(403, 'forbidden', 'The Twilio signature is missing or does not match.')
      }
    }
    const from = params.get('From')
    const body = params.get('Body')
    if (from === null || body === null) throw new ApiProblem(400, 'invalid_body', 'From and Body are required.')
    // Each MessageSid is acted on once: Twilio's signature has no time in it (decision 066).
    const { outcome, reply } = await handleInboundSmsOnce(smsDeps(services), params.get('MessageSid'), from, body, params.get('OptOutType') ?? undefined)
    services.logger.info({ requestId: c.var.requestId, outcome }, 'Inbound text message')
    // With Twilio the answer goes back in the TwiML; built in, it already waits in the outbox.
    const message = twilio && reply ? `<Message>${escapeXml(reply)}</Message>` : ''
    return c.body(`<?xml version="1.0" encoding="UTF-8"?><Response>${message}</Response>`, 200, { 'content-type': 'text/xml; charset=utf-8' })
  })
}
