import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { http, passthrough } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { createSmsDelivery, createSmsSender, textsStopped } from '#api/providers/sms/sender.ts'
import { TwilioError, createTwilioClient, twilioSignature } from '#api/providers/sms/twilio.ts'
import { TEST_PUBLIC_URL, createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { twilioHandlers } from '#tests/msw/twilio.ts'
import { smsReplyHint } from './service.ts'

/**
 * Text messages (issue 15 §3, decision 049): texts go only to confirmed phones of visible
 * members; Twilio sends them when configured (msw handlers written from Twilio's API reference);
 * a confirmed member's "C" cancels their seat at the activity of the latest text and the notify
 * list gets it; the phone is confirmed with a texted code.
 */
const accountSid = 'AC0123456789abcdef0123456789abcdef'
const authToken = 'twilio-test-auth-token'
const fromNumber = '+15035550100'
const twilio = twilioHandlers({ accountSid, authToken })
const mswServer = setupServer(...twilio.handlers)
const twilioOptions = { accountSid, authToken, from: fromNumber }

let database: TestDatabase
let api: ApiHarness
let twilioApi: ApiHarness
let phoneSeq = 200

beforeAll(async () => {
  mswServer.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  twilioApi = await createApiHarness(database.db, { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM_NUMBER: fromNumber })
})
beforeEach(() => {
  twilio.messages.length = 0
  twilio.invalidNumbers.clear()
  twilio.unsubscribed.clear()
  twilio.down.value = false
})
afterEach(() => mswServer.resetHandlers())

/** An API configured for production, without Twilio. */
function productionWithoutTwilio() {
  return createApiHarness(database.db, {
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(40),
    SMTP_URL: 'smtp://mail.example:587',
    PAYMENTS: 'off',
    SEED_DEMO_DATA: 'false',
    OIDC_COOKIE_KEYS: 'a,b',
    OIDC_JWKS: '{"keys":[]}',
    OIDC_CLIENT_SECRET: 'x'.repeat(40),
  })
}
afterAll(async () => {
  mswServer.close()
  await database?.drop()
})

/** A fresh US number per member, so replies never find another test's member. */
const nextPhone = () => `+1503555${String(phoneSeq++).padStart(4, '0')}`

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, { phone: nextPhone(), phone_confirmed_at: new Date(), ...overrides })
  return { user, token: await api.signToken(user.id) }
}

const outboxFor = (userId: string) => database.db.selectFrom('sms_outbox').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()
const loadUser = (id: string) => database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

function inbound(harness: ApiHarness, params: Record<string, string>, signature?: string) {
  const body = new URLSearchParams(params).toString()
  return harness.request('POST', 'v1/sms/inbound', {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
  })
}
const inboundUrl = `${TEST_PUBLIC_URL}/api/v1/sms/inbound`
const signed = (params: Record<string, string>) => inbound(twilioApi, params, twilioSignature(authToken, inboundUrl, params))
const twiml = async (harness: ApiHarness, params: Record<string, string>, signature?: string) => {
  const response = await harness.app.fetch(
    new Request(inboundUrl, {
      method: 'POST',
      body: new URLSearchParams(params),
      headers: signature ? { 'x-twilio-signature': signature } : {},
    }),
  )
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
}

describe('the sender', () => {
  it('texts only a visible member whose phone is confirmed, recording the text in the outbox', async () => {
    const sms = createSmsSender({ db: database.db })
    const confirmed = (await member()).user
    const unconfirmed = (await member({ phone_confirmed_at: null })).user
    const noPhone = (await member({ phone: null })).user
    const suspended = (await member({ state: 'suspended' })).user
    const banned = (await member({ banned: true })).user
    const experience = await createExperience(database.db, confirmed.id)
    const message = (userId: string) => ({ userId, text: `A reminder. ${smsReplyHint('en')}`, kind: 'reminder', locale: 'en', experienceId: experience.id })

    expect(await sms.send(message(confirmed.id))).toBe(true)
    for (const other of [unconfirmed, noPhone, suspended, banned]) expect(await sms.send(message(other.id))).toBe(false)

    expect(await outboxFor(confirmed.id)).toMatchObject([
      { to_number: confirmed.phone, body: 'A reminder. Reply C to cancel your seat.', kind: 'reminder', locale: 'en', experience_id: experience.id, sent_at: null, provider_ref: null },
    ])
    for (const other of [unconfirmed, noPhone, suspended, banned]) expect(await outboxFor(other.id)).toEqual([])
  })

  it('writes the text and its delivery job with the transaction, so both vanish when it rolls back', async () => {
    const jobs: { name: string; data: object }[] = []
    const sms = createSmsSender({ db: database.db, twilio: twilioOptions, queue: { send: async (name, data) => void jobs.push({ name, data }) } })
    const { user } = await member()
    await database.db
      .transaction()
      .execute(async (trx) => {
        expect(await sms.send({ userId: user.id, text: 'Hello', kind: 'seat_offer', locale: 'en' }, { transaction: trx })).toBe(true)
        throw new Error('rolled back')
      })
      .catch(() => undefined)
    expect(await outboxFor(user.id)).toEqual([])
    expect(await sms.send({ userId: user.id, text: 'Hello', kind: 'seat_offer', locale: 'en' })).toBe(true)
    const [row] = await outboxFor(user.id)
    expect(jobs.at(-1)).toEqual({ name: 'sms.deliver', data: { id: row!.id } })
  })

  it("the Twilio job sends the text form-encoded with basic auth, once, and stores Twilio's sid", async () => {
    const { user } = await member()
    const sms = createSmsSender({ db: database.db, twilio: twilioOptions, queue: { send: async () => undefined } })
    await sms.send({ userId: user.id, text: 'Your walk is tomorrow at 10:00.', kind: 'reminder', locale: 'en' })
    const [row] = await outboxFor(user.id)
    const deliver = createSmsDelivery(database.db, twilioOptions)
    await deliver(row!.id)
    await deliver(row!.id)
    expect(twilio.messages).toHaveLength(1)
    const { sid, form } = twilio.messages[0]!
    expect(Object.fromEntries(form)).toEqual({ To: user.phone, From: fromNumber, Body: 'Your walk is tomorrow at 10:00.' })
    expect(await loadUser(user.id)).toMatchObject({ phone: user.phone })
    const [sent] = await outboxFor(user.id)
    expect(sent).toMatchObject({ provider_ref: sid })
    expect(sent!.sent_at).toBeInstanceOf(Date)
  })

  it('uses the Messaging Service instead of a number when it is configured', async () => {
    const client = createTwilioClient({ accountSid, authToken, messagingServiceSid: 'MG0123' })
    await client.send('+15035550142', 'Hi')
    expect(Object.fromEntries(twilio.messages[0]!.form)).toEqual({ To: '+15035550142', MessagingServiceSid: 'MG0123', Body: 'Hi' })
  })

  it("reads Twilio's error JSON: wrong credentials, an invalid number (not retried) and an outage (retried)", async () => {
    const wrong = createTwilioClient({ accountSid, authToken: 'wrong', from: fromNumber })
    await expect(wrong.send('+15035550142', 'Hi')).rejects.toMatchObject({ status: 401, code: 20003, message: 'Authenticate' })
    twilio.invalidNumbers.add('+15035550143')
    const client = createTwilioClient(twilioOptions)
    const invalid = await client.send('+15035550143', 'Hi').catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(TwilioError)
    expect(invalid).toMatchObject({ status: 400, code: 21211, moreInfo: 'https://www.twilio.com/docs/errors/21211', retryable: false })
    twilio.down.value = true
    expect(await client.send('+15035550142', 'Hi').catch((error: unknown) => error)).toMatchObject({ status: 503, retryable: true })
  })

  it('a number Twilio says texted STOP (21610) joins ours: not retried, and no text is tried again', async () => {
    const { user } = await member()
    twilio.unsubscribed.add(user.phone!)
    const sms = createSmsSender({ db: database.db, twilio: twilioOptions, queue: { send: async () => undefined } })
    expect(await sms.send({ userId: user.id, text: 'A reminder.', kind: 'reminder', locale: 'en' })).toBe(true)
    const [row] = await outboxFor(user.id)
    const refused = await createSmsDelivery(database.db, twilioOptions)(row!.id).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 400, code: 21610, retryable: false })
    expect(await textsStopped(database.db, user.phone!)).toBe(true)
    expect(await sms.send({ userId: user.id, text: 'Another reminder.', kind: 'reminder', locale: 'en' })).toBe(false)
    expect(await sms.sendNow({ to: user.phone!, userId: user.id, text: 'Code 123456', kind: 'phone_code', locale: 'en' })).toEqual({ sent: false, stopped: true })
    expect(await outboxFor(user.id)).toHaveLength(1)
  })

  it('a code sent now reports Twilio refusing it, and the text stays unsent in the outbox', async () => {
    const { user } = await member({ phone_confirmed_at: null })
    twilio.invalidNumbers.add(user.phone!)
    const sms = createSmsSender({ db: database.db, twilio: twilioOptions, queue: { send: async () => undefined } })
    expect(await sms.sendNow({ to: user.phone!, userId: user.id, text: 'Code 123456', kind: 'phone_code', locale: 'en' })).toEqual({ sent: false })
    expect(await outboxFor(user.id)).toMatchObject([{ kind: 'phone_code', sent_at: null }])
  })

  it('in production without Twilio, sends and records nothing, and says so', async () => {
    const sms = createSmsSender({ db: database.db, production: true })
    expect(sms.twilio).toBe(false)
    const { user } = await member()
    expect(await sms.send({ userId: user.id, text: 'A reminder.', kind: 'reminder', locale: 'en' })).toBe(false)
    expect(await sms.sendNow({ to: user.phone!, userId: user.id, text: 'Code 123456', kind: 'phone_code', locale: 'en' })).toEqual({ sent: false })
    expect(await outboxFor(user.id)).toEqual([])
    // With Twilio, production sends as before.
    const withTwilio = createSmsSender({ db: database.db, twilio: twilioOptions, queue: { send: async () => undefined }, production: true })
    expect(await withTwilio.sendNow({ to: user.phone!, userId: user.id, text: 'Code 123456', kind: 'phone_code', locale: 'en' })).toEqual({ sent: true })
  })
})

describe('phone confirmation', () => {
  const codeOf = async (userId: string) => /\b(\d{6})\b/.exec((await outboxFor(userId)).at(-1)!.body)![1]!

  it('texts a code to the unconfirmed phone and confirms it with that code', async () => {
    const { user, token } = await member({ phone: nextPhone(), phone_confirmed_at: null, locale: 'fr' })
    const me = await api.request('GET', 'v1/users/me', { token })
    expect(me.json.data[0].phone_confirmed).toBe(false)
    const started = await api.request('POST', 'v1/users/me/phone/confirmation', { token })
    expect(started.status).toBe(202)
    expect(started.json).toEqual({ phone: expect.stringMatching(/^\(503\) 555-/), expires_in_minutes: 10 })
    const [text] = await outboxFor(user.id)
    expect(text).toMatchObject({ to_number: user.phone, kind: 'phone_code', locale: 'fr' })
    expect(text!.body).toMatch(/^Circle 55 : votre code est \d{6}\./)

    const confirmed = await api.request('PUT', 'v1/users/me/phone/confirmation', { token, body: { code: await codeOf(user.id) } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.data[0]).toMatchObject({ phone: user.phone, phone_confirmed: true })
    expect((await loadUser(user.id)).phone_confirmed_at).toBeInstanceOf(Date)
    // The try that succeeded is forgiven: it does not count against the member.
    expect(await database.db.selectFrom('rate_limits').select('count').where('key', '=', `phone-code-check:${user.id}`).executeTakeFirst()).toEqual({ count: 0 })
    expect((await api.request('POST', 'v1/users/me/phone/confirmation', { token })).json.error.code).toBe('phone_confirmed')
  })

  it('refuses a wrong code, then a code tried too often, and an expired code', async () => {
    const { user, token } = await member({ phone_confirmed_at: null })
    await api.request('POST', 'v1/users/me/phone/confirmation', { token })
    const code = await codeOf(user.id)
    const wrong = code === '000000' ? '111111' : '000000'
    const refused = await api.request('PUT', 'v1/users/me/phone/confirmation', { token, body: { code: wrong } })
    expect(refused.status).toBe(422)
    expect(refused.json.error.fields.code).toEqual(['code_invalid'])
    for (let attempt = 0; attempt < 4; attempt++) await api.request('PUT', 'v1/users/me/phone/confirmation', { token, body: { code: wrong } })
    const spent = await api.request('PUT', 'v1/users/me/phone/confirmation', { token, body: { code } })
    expect(spent.json.error.fields.code).toEqual(['code_expired'])

    await api.request('POST', 'v1/users/me/phone/confirmation', { token })
    await database.db.updateTable('login_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('email', '=', user.phone!).where('consumed_at', 'is', null).execute()
    const expired = await api.request('PUT', 'v1/users/me/phone/confirmation', { token, body: { code: await codeOf(user.id) } })
    expect(expired.status).toBe(422)
    expect(expired.json.error.fields.code).toEqual(['code_expired'])
    expect((await loadUser(user.id)).phone_confirmed_at).toBeNull()
  })

  it('answers 409 texts_stopped for a phone that texted STOP, and texts no code', async () => {
    const { user, token } = await member({ phone_confirmed_at: null })
    await inbound(api, { From: user.phone!, Body: 'STOP' })
    const started = await api.request('POST', 'v1/users/me/phone/confirmation', { token })
    expect(started.status).toBe(409)
    expect(started.json.error.code).toBe('texts_stopped')
    expect(await outboxFor(user.id)).toEqual([])
  })

  it('answers 409 without a phone, and stops after five codes in 15 minutes', async () => {
    const { token } = await member({ phone: null, phone_confirmed_at: null })
    expect((await api.request('POST', 'v1/users/me/phone/confirmation', { token })).json.error.code).toBe('phone_missing')
    const other = await member({ phone_confirmed_at: null })
    for (let sent = 0; sent < 5; sent++) expect((await api.request('POST', 'v1/users/me/phone/confirmation', { token: other.token })).status).toBe(202)
    const sixth = await api.request('POST', 'v1/users/me/phone/confirmation', { token: other.token })
    expect(sixth.status).toBe(429)
    expect(await outboxFor(other.user.id)).toHaveLength(5)
  })

  it('changing the phone clears the confirmation; saving the same number keeps it', async () => {
    const { user, token } = await member()
    const same = await api.request('PUT', 'v1/users/me', { token, body: { phone: user.phone } })
    expect(same.json.data[0].phone_confirmed).toBe(true)
    const changed = await api.request('PUT', 'v1/users/me', { token, body: { phone: '(503) 555-0199' } })
    expect(changed.json.data[0]).toMatchObject({ phone: '+15035550199', phone_confirmed: false })
    expect((await loadUser(user.id)).phone_confirmed_at).toBeNull()
    expect(await createSmsSender({ db: database.db }).send({ userId: user.id, text: 'Hi', kind: 'reminder', locale: 'en' })).toBe(false)
  })
})

describe('inbound texts', () => {
  /** A host's full activity, `attendee` seated, `waiting` first on the notify list, and a reminder texted to `attendee`. */
  async function sceneWithText(options: { startsInDays?: number } = {}) {
    const host = (await member()).user
    const attendee = (await member()).user
    const waiting = (await member()).user
    const experience = await createExperience(database.db, host.id, { max_attendees: 1, attendees_count: 1, start_at: new Date(Date.now() + (options.startsInDays ?? 5) * 86_400_000) })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()
    await database.db.insertInto('waitlist_entries').values({ experience_id: experience.id, user_id: waiting.id }).execute()
    await createSmsSender({ db: database.db }).send({ userId: attendee.id, text: `Reminder. ${smsReplyHint('en')}`, kind: 'reminder', locale: 'en', experienceId: experience.id })
    return { host, attendee, waiting, experience }
  }
  const seatsOf = async (experienceId: string) =>
    (await database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experienceId).execute()).map((row) => row.user_id)
  const notificationTypes = async (userId: string) =>
    (await database.db.selectFrom('notifications').select('type').where('user_id', '=', userId).execute()).map((row) => row.type)

  it('"C" from a confirmed phone cancels the seat, the notify list gets it, and the member is told (built-in outbox)', async () => {
    const { attendee, waiting, experience } = await sceneWithText()
    const response = await twiml(api, { From: attendee.phone!, To: fromNumber, Body: ' c ', MessageSid: 'SMin1' })
    expect(response).toMatchObject({ status: 200, text: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>' })
    expect(await seatsOf(experience.id)).toEqual([waiting.id])
    expect(await notificationTypes(waiting.id)).toEqual(['waitlist.selected'])
    const cancellations = await database.db.selectFrom('attendance_cancellations').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(cancellations).toEqual([{ user_id: attendee.id }])
    expect((await outboxFor(attendee.id)).at(-1)).toMatchObject({ kind: 'reply', body: 'Circle 55: your seat at “Riverside walk” is canceled. Thank you for letting us know.', sent_at: null })
  })

  it.each(['Annuler', 'annuleer'])('"%s" cancels too', async (word) => {
    const { attendee, experience } = await sceneWithText()
    await inbound(api, { From: attendee.phone!, Body: word })
    expect(await seatsOf(experience.id)).not.toContain(attendee.id)
  })

  const sendReminder = (userId: string) => createSmsSender({ db: database.db }).send({ userId, text: 'A reminder.', kind: 'reminder', locale: 'en' })

  it('STOP stops every text to the number until START, each confirmed in the outbox (built in)', async () => {
    const { attendee, experience } = await sceneWithText()
    const token = await api.signToken(attendee.id)
    const me = async (): Promise<unknown> => (await api.request('GET', 'v1/users/me', { token })).json.data[0]
    expect(await me()).toMatchObject({ phone_confirmed: true, texts_stopped: false })

    await inbound(api, { From: attendee.phone!, Body: ' Stop ' })
    expect((await outboxFor(attendee.id)).at(-1)).toMatchObject({ kind: 'reply', body: 'Circle 55: you will get no more texts from us. Reply START to get them again.' })
    expect(await me()).toMatchObject({ phone_confirmed: true, texts_stopped: true })
    expect(await sendReminder(attendee.id)).toBe(false)
    expect(await seatsOf(experience.id)).toContain(attendee.id)

    await inbound(api, { From: attendee.phone!, Body: 'START' })
    expect((await outboxFor(attendee.id)).at(-1)).toMatchObject({ kind: 'reply', body: 'Circle 55: texts from us are on again. Reply STOP to stop them.' })
    expect(await me()).toMatchObject({ texts_stopped: false })
    expect(await sendReminder(attendee.id)).toBe(true)
  })

  it('"CANCEL" is STOP, as carriers read it: the seat stays and the texts stop', async () => {
    const { attendee, experience } = await sceneWithText()
    await inbound(api, { From: attendee.phone!, Body: 'CANCEL' })
    expect(await seatsOf(experience.id)).toContain(attendee.id)
    expect(await textsStopped(database.db, attendee.phone!)).toBe(true)
  })

  it("with Twilio: STOP, or Twilio's OptOutType for a word of its own, stops the texts and leaves the confirmation to Twilio", async () => {
    const { attendee } = await sceneWithText()
    const before = (await outboxFor(attendee.id)).length
    const stop = await twiml(twilioApi, { From: attendee.phone!, Body: 'STOP' }, twilioSignature(authToken, inboundUrl, { From: attendee.phone!, Body: 'STOP' }))
    expect(stop.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
    expect(await textsStopped(database.db, attendee.phone!)).toBe(true)
    expect(await signed({ From: attendee.phone!, Body: 'unstop' })).toMatchObject({ status: 200 })
    expect(await textsStopped(database.db, attendee.phone!)).toBe(false)
    await signed({ From: attendee.phone!, Body: 'ARRET', OptOutType: 'STOP' })
    expect(await textsStopped(database.db, attendee.phone!)).toBe(true)
    expect(await outboxFor(attendee.id)).toHaveLength(before)
  })

  it("HELP gets our help text built in; with Twilio, HELP, INFO and OptOutType=HELP get Twilio's own only", async () => {
    const { attendee } = await sceneWithText()
    await inbound(api, { From: attendee.phone!, Body: 'help' })
    expect((await outboxFor(attendee.id)).at(-1)!.body).toMatch(/^Circle 55: to cancel your seat at the activity in our last text, reply C\./)
    const before = (await outboxFor(attendee.id)).length
    const helps: Record<string, string>[] = [{ From: attendee.phone!, Body: 'HELP' }, { From: attendee.phone!, Body: ' Info ' }, { From: attendee.phone!, Body: 'AIDE', OptOutType: 'HELP' }]
    for (const params of helps) {
      const response = await twiml(twilioApi, params, twilioSignature(authToken, inboundUrl, params))
      expect(response.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
    }
    expect(await outboxFor(attendee.id)).toHaveLength(before)
    const other = { From: attendee.phone!, Body: 'What time?' }
    expect((await twiml(twilioApi, other, twilioSignature(authToken, inboundUrl, other))).text).toMatch(/<Message>Circle 55: to cancel your seat/)
  })

  it('a number that texted STOP before any member confirmed it gets no texts once one does', async () => {
    const phone = nextPhone()
    const unknown = await twiml(api, { From: phone, Body: 'STOP' })
    expect(unknown.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
    const { user } = await member({ phone })
    expect(await sendReminder(user.id)).toBe(false)
    expect(await outboxFor(user.id)).toEqual([])
  })

  it('with Twilio: a signed "C" cancels and the answer comes back as TwiML in the member\'s language', async () => {
    const { attendee, waiting, experience } = await sceneWithText()
    await database.db.updateTable('users').set({ locale: 'nl' }).where('id', '=', attendee.id).execute()
    const params = { From: attendee.phone!, To: fromNumber, Body: 'C', MessageSid: 'SMin2', AccountSid: accountSid }
    const response = await twiml(twilioApi, params, twilioSignature(authToken, inboundUrl, params))
    expect(response.status).toBe(200)
    expect(response.type).toMatch(/^text\/xml/)
    expect(response.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>Circle 55: uw plaats bij ‘Riverside walk’ is geannuleerd. Dank u wel dat u het ons liet weten.</Message></Response>')
    expect(await seatsOf(experience.id)).toEqual([waiting.id])
    expect((await outboxFor(attendee.id)).at(-1)!.sent_at).toBeInstanceOf(Date)
    expect(twilio.messages).toEqual([])
  })

  it('with Twilio: a missing, wrong or tampered signature is refused with 403 and nothing changes', async () => {
    const { attendee, experience } = await sceneWithText()
    const params = { From: attendee.phone!, Body: 'C' }
    expect((await inbound(twilioApi, params)).status).toBe(403)
    expect((await inbound(twilioApi, params, twilioSignature('another token', inboundUrl, params))).status).toBe(403)
    const tampered = await inbound(twilioApi, { ...params, Body: 'CANCEL' }, twilioSignature(authToken, inboundUrl, params))
    expect(tampered.status).toBe(403)
    expect(tampered.json.error.code).toBe('forbidden')
    expect(await seatsOf(experience.id)).toContain(attendee.id)
    expect((await signed(params)).status).toBe(200)
    expect(await seatsOf(experience.id)).not.toContain(attendee.id)
  })

  it('ignores unknown and unconfirmed numbers: no cancellation, no answer', async () => {
    const { attendee, experience } = await sceneWithText()
    await database.db.updateTable('users').set({ phone_confirmed_at: null }).where('id', '=', attendee.id).execute()
    const fromUnconfirmed = await twiml(api, { From: attendee.phone!, Body: 'C' })
    const fromUnknown = await twiml(api, { From: '+15035559999', Body: 'C' })
    for (const response of [fromUnconfirmed, fromUnknown]) expect(response.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
    expect(await seatsOf(experience.id)).toContain(attendee.id)
    expect((await outboxFor(attendee.id)).map((row) => row.kind)).toEqual(['reminder'])
  })

  it('anything else gets the help text; "C" without a seat left says there is nothing to cancel', async () => {
    const { attendee, experience } = await sceneWithText()
    await inbound(api, { From: attendee.phone!, Body: 'What time?' })
    expect((await outboxFor(attendee.id)).at(-1)!.body).toMatch(/^Circle 55: to cancel your seat at the activity in our last text, reply C\./)
    expect(await seatsOf(experience.id)).toContain(attendee.id)
    await inbound(api, { From: attendee.phone!, Body: 'C' })
    await inbound(api, { From: attendee.phone!, Body: 'C' })
    expect((await outboxFor(attendee.id)).at(-1)!.body).toMatch(/^Circle 55: we found no upcoming seat to cancel/)
  })

  it('does not cancel at an activity that has started or was cancelled', async () => {
    const started = await sceneWithText()
    await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 60_000) }).where('id', '=', started.experience.id).execute()
    await inbound(api, { From: started.attendee.phone!, Body: 'C' })
    expect(await seatsOf(started.experience.id)).toContain(started.attendee.id)
    const cancelled = await sceneWithText()
    await database.db.updateTable('experiences').set({ canceled_at: new Date() }).where('id', '=', cancelled.experience.id).execute()
    await inbound(api, { From: cancelled.attendee.phone!, Body: 'C' })
    expect(await seatsOf(cancelled.experience.id)).toContain(cancelled.attendee.id)
  })

  it('with Twilio: a signed request sent again is acted on once, also when the copies arrive together (issue 29 §5)', async () => {
    const { attendee, experience } = await sceneWithText()
    const cancel = { From: attendee.phone!, To: fromNumber, Body: 'C', MessageSid: 'SMreplayC0000000000000000000000001', AccountSid: accountSid }
    const signature = twilioSignature(authToken, inboundUrl, cancel)
    expect((await twiml(twilioApi, cancel, signature)).text).toMatch(/<Message>Circle 55: your seat at “Riverside walk” is canceled/)
    expect(await seatsOf(experience.id)).not.toContain(attendee.id)
    // The member changes their mind and takes a seat again; the captured request comes back.
    await database.db.updateTable('experiences').set({ max_attendees: 5 }).where('id', '=', experience.id).execute()
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: await api.signToken(attendee.id), body: { user_id: attendee.id } })).status).toBe(200)
    const replays = await Promise.all(Array.from({ length: 5 }, () => twiml(twilioApi, cancel, signature)))
    for (const replay of replays) expect(replay).toMatchObject({ status: 200, text: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>' })
    expect(await seatsOf(experience.id)).toContain(attendee.id)

    // STOP, then START; the STOP sent again does not stop the texts.
    const stop = { From: attendee.phone!, Body: 'STOP', MessageSid: 'SMreplayStop00000000000000000000001' }
    const start = { From: attendee.phone!, Body: 'START', MessageSid: 'SMreplayStart0000000000000000000001' }
    for (const params of [stop, start, stop]) await twiml(twilioApi, params, twilioSignature(authToken, inboundUrl, params))
    expect(await textsStopped(database.db, attendee.phone!)).toBe(false)
    // Copies that arrive together: one is acted on.
    const help = { From: attendee.phone!, Body: 'What time?', MessageSid: 'SMreplayHelp0000000000000000000001' }
    const before = (await outboxFor(attendee.id)).length
    const answers = await Promise.all(Array.from({ length: 4 }, () => twiml(twilioApi, help, twilioSignature(authToken, inboundUrl, help))))
    expect(answers.filter((answer) => answer.text.includes('<Message>'))).toHaveLength(1)
    expect(await outboxFor(attendee.id)).toHaveLength(before + 1)
  })

  it('without Twilio, answers only this machine, as the development outbox does: a forged "C" or STOP from elsewhere changes nothing (issue 29 §5)', async () => {
    const { attendee, experience } = await sceneWithText()
    // Served over HTTP on this machine, as server.ts serves the API.
    const listener = getRequestListener(api.app.fetch)
    const server = createServer((req, res) => void listener(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/sms/inbound`
    // This file's msw server answers Twilio's API; these requests go to the real server.
    mswServer.use(http.post(url, () => passthrough()))
    try {
      const post = (params: Record<string, string>, headers: Record<string, string> = {}) => fetch(url, { method: 'POST', body: new URLSearchParams(params), headers })
      // From another computer behind a proxy on this machine (the proxy says who), and with an
      // address of this machine's forged in front of it.
      for (const forwarded of ['203.0.113.7', '127.0.0.1, 203.0.113.7', '10.0.0.8']) {
        for (const Body of ['C', 'STOP']) {
          const response = await post({ From: attendee.phone!, Body, MessageSid: `SMforged${Body}${forwarded.length}` }, { 'x-forwarded-for': forwarded })
          expect({ forwarded, Body, status: response.status }).toEqual({ forwarded, Body, status: 404 })
        }
      }
      // A connection from another computer, as Hono's Node server hands it over.
      const remote = await api.app.fetch(new Request(url, { method: 'POST', body: new URLSearchParams({ From: attendee.phone!, Body: 'C' }) }), {
        incoming: { socket: { remoteAddress: '198.51.100.20' } } as IncomingMessage,
      })
      expect(remote.status).toBe(404)
      expect(await seatsOf(experience.id)).toContain(attendee.id)
      expect(await textsStopped(database.db, attendee.phone!)).toBe(false)
      // This machine (the outbox's "Reply as this member") is answered.
      expect((await post({ From: attendee.phone!, Body: 'C', MessageSid: 'SMlocal000000000000000000000000001' })).status).toBe(200)
      expect(await seatsOf(experience.id)).not.toContain(attendee.id)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
    // With the outbox off, nobody is.
    const off = await createApiHarness(database.db, { DEV_OUTBOX: 'off' })
    expect((await inbound(off, { From: attendee.phone!, Body: 'STOP' })).status).toBe(404)
  })

  it('without Twilio, the endpoint is not served in production', async () => {
    const production = await productionWithoutTwilio()
    expect((await inbound(production, { From: '+15035550142', Body: 'C' })).status).toBe(404)
  })

  it('without Twilio in production, the confirmation code is not "sent" to an outbox nobody reads', async () => {
    const production = await productionWithoutTwilio()
    const { user } = await member({ phone_confirmed_at: null })
    const started = await production.request('POST', 'v1/users/me/phone/confirmation', { token: await production.signToken(user.id) })
    expect(started.status).toBe(503)
    expect(started.json.error.code).toBe('sms_not_sent')
    expect(await outboxFor(user.id)).toEqual([])
  })
})
