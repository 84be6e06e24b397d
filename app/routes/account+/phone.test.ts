import { describe, expect, it } from 'vitest'
import { readOutbox } from '#api/providers/email/outbox.ts'
import { createSmsSender, readSmsOutbox } from '#api/providers/sms/sender.ts'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import { readableHtml } from '#tests/web-document.ts'
import { testContext } from '#tests/web-harness.ts'
import * as outbox from '../dev+/outbox.tsx'
import * as account from './_index.tsx'
import * as settings from './notification-settings.tsx'
import * as phone from './phone.tsx'

/**
 * `/account/phone` (issue 15 §3, decision 049) as a browser without JavaScript uses it: the code
 * is texted, typed back, and the phone is confirmed; and the development outbox's "Reply as this
 * member" goes through the inbound webhook ("C" cancels the seat).
 */
const pages = routePages([
  { id: 'routes/account+/phone', path: 'account/phone', module: phone as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/account+/notification-settings', path: 'account/notification-settings', module: settings as never },
  { id: 'routes/dev+/outbox', path: 'dev/outbox', module: outbox as never },
])
const { text, post } = pages

let phoneSeq = 300
async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, { phone: `+1503555${String(phoneSeq++).padStart(4, '0')}`, ...overrides })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}
const lastText = async (userId: string) =>
  (await pages.database.db.selectFrom('sms_outbox').select('body').where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirstOrThrow()).body

describe('/account/phone', () => {
  it('sends a code, refuses a wrong one next to the field, and confirms the phone with the right one', async () => {
    const { user, cookie } = await member()
    const before = await text('/account/phone', cookie)
    expect(before).toContain('Not confirmed yet. No texts are sent until it is.')
    expect(before).toContain('Send me a code')
    expect(await validationOf(before)).toEqual([])

    const sent = await post('/account/phone', cookie, { intent: 'send' })
    expect(sent.response.status).toBe(302)
    expect(sent.response.headers.get('location')).toBe('/account/phone?step=code')
    const codeStep = await text('/account/phone?step=code', cookie)
    expect(codeStep).toMatch(/We have texted a 6-digit code to \(503\) 555-\d{4}\. It works for 10 minutes\./)
    expect(codeStep).toContain('The 6-digit code from the text')
    expect(await validationOf(codeStep)).toEqual([])

    const code = /\b(\d{6})\b/.exec(await lastText(user.id))![1]!
    const wrong = await post('/account/phone', cookie, { intent: 'verify', code: code === '000000' ? '111111' : '000000' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.html).toMatch(/<span id="code-error" class="field-error">.{0,80}That code is not right\. Check the text and try again<\/span><input id="code"[^>]*aria-invalid="true"/)
    expect(await validationOf(wrong.html)).toEqual([])
    const malformed = await post('/account/phone', cookie, { intent: 'verify', code: '12' })
    expect(malformed.html).toContain('The code is 6 digits, like 123456')

    const done = await post('/account/phone', cookie, { intent: 'verify', code })
    expect(done.response.headers.get('location')).toBe('/account/phone')
    expect(await text('/account/phone', cookie)).toContain('Your phone is confirmed. Texts can be sent to it.')
  })

  it('tells a member without a phone where to add one, in French too', async () => {
    const { cookie } = await member({ phone: null, locale: 'fr' })
    const html = await text('/account/phone', cookie, { 'accept-language': 'fr' })
    expect(html).toContain('Vous n’avez pas encore ajouté de numéro de téléphone.')
    expect(html).toContain('href="/account/edit"')
  })

  it('says plainly when the phone texted STOP, and why no code can be sent to it, in Dutch too', async () => {
    const { user, cookie } = await member()
    await pages.database.db.insertInto('sms_opt_outs').values({ phone: user.phone! }).execute()
    const html = await text('/account/phone', cookie)
    expect(html).toContain('This phone asked us to stop texting it (it replied STOP), so we send it no texts. To get them again, reply START to one of our texts.')
    expect(await text('/account/notification-settings', cookie)).toContain('Your phone asked us to stop texting it (it replied STOP)')
    const refused = await post('/account/phone', cookie, { intent: 'send' })
    expect(refused.response.status).toBe(409)
    expect(refused.html).toContain('This phone asked us to stop texting it. Reply START to one of our texts first, then ask for a code.')
    expect(await validationOf(refused.html)).toEqual([])
    await pages.database.db.updateTable('users').set({ locale: 'nl' }).where('id', '=', user.id).execute()
    const dutch = await text('/account/phone', cookie, { 'accept-language': 'nl' })
    expect(dutch).toContain('Deze telefoon vroeg ons geen sms’jes meer te sturen (hij antwoordde STOP)')
  })

  it('is linked from /account, and from the notification settings while the phone is not confirmed', async () => {
    const { user, cookie } = await member()
    expect(await text('/account', cookie)).toContain('href="/account/phone"')
    expect(await text('/account/notification-settings', cookie)).toContain('Confirm your phone to get texts')
    await pages.database.db.updateTable('users').set({ phone_confirmed_at: new Date() }).where('id', '=', user.id).execute()
    expect(await text('/account/notification-settings', cookie)).not.toContain('Confirm your phone to get texts')
  })
})

describe('/dev/outbox: texts and "Reply as this member"', () => {
  const outboxContext = () =>
    testContext({
      ...pages.web.services,
      config: { ...pages.web.services.config, devOutbox: 'loopback' },
      outbox: (limit) => readOutbox(pages.database.db, limit),
      smsOutbox: (limit) => readSmsOutbox(pages.database.db, limit),
    })
  const visit = (init: RequestInit = {}) => pages.handle(new Request(`${TEST_PUBLIC_URL}/dev/outbox`, init), outboxContext())

  it('lists the texts, and a reply "C" cancels the seat of the activity the text was about', async () => {
    const host = await member()
    const { user } = await member({ phone_confirmed_at: new Date() })
    const experience = await createExperience(pages.database.db, host.user.id, { title: 'Garden tour', attendees_count: 1 })
    await pages.database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: user.id }).execute()
    await createSmsSender({ db: pages.database.db }).send({ userId: user.id, text: 'Garden tour tomorrow. Reply C to cancel your seat.', kind: 'reminder', locale: 'en', experienceId: experience.id })

    const html = readableHtml(await (await visit()).text())
    expect(html).toContain('Garden tour tomorrow. Reply C to cancel your seat.')
    expect(html).toContain('Reply as this member')
    expect(await validationOf(html)).toEqual([])

    const replied = await visit({ method: 'POST', body: new URLSearchParams({ from: user.phone!, body: 'C' }) })
    expect(replied.status).toBe(302)
    const seat = await pages.database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).where('user_id', '=', user.id).executeTakeFirst()
    expect(seat).toBeUndefined()
    expect(readableHtml(await (await visit()).text())).toContain('Circle 55: your seat at “Garden tour” is canceled.')
  })

  it('answers 404 to another machine, replies included', async () => {
    const away = pages.handle(
      new Request(`${TEST_PUBLIC_URL}/dev/outbox`, { method: 'POST', body: new URLSearchParams({ from: '+15035550142', body: 'C' }) }),
      testContext({ ...pages.web.services, config: { ...pages.web.services.config, devOutbox: 'loopback' }, outbox: (limit) => readOutbox(pages.database.db, limit) }, { peerAddress: '203.0.113.9', clientAddress: '203.0.113.9' }),
    )
    expect((await away).status).toBe(404)
  })
})
