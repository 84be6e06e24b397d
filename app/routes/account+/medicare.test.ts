import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { changeFlag } from '#tests/flags.ts'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import { readableHtml } from '#tests/web-document.ts'
import * as adminMedicare from '../admin+/medicare.tsx'
import * as adminExport from '../admin+/medicare_.export.ts'
import * as adminMember from '../admin+/members_.$id.tsx'
import * as onboarding from '../get-started+/medicare.tsx'
import * as home from '../_index.tsx'
import * as account from './_index.tsx'
import * as medicare from './medicare.tsx'

/**
 * Permission to be called about Medicare plans without JavaScript (issue 33 §2, decision 086):
 * the team names the agency at `/admin/medicare`; a member agrees at `/account/medicare` or in
 * onboarding (where "Not now" is the main button), with mistakes said next to their field and
 * nothing typed lost; they see what they agreed to and stop it with one press; the team's list
 * follows; and while the team views Circle 55 as the member, only the member can do this.
 */
const pages = routePages([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/account+/medicare', path: 'account/medicare', module: medicare as never },
  { id: 'routes/get-started+/medicare', path: 'get-started/medicare', module: onboarding as never },
  { id: 'routes/admin+/medicare', path: 'admin/medicare', module: adminMedicare as never },
  { id: 'routes/admin+/medicare_.export', path: 'admin/medicare/export', module: adminExport as never },
  { id: 'routes/admin+/members_.$id', path: 'admin/members/:id', module: adminMember as never },
])
const { post, text, page } = pages

async function person(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, { last_sign_in_at: new Date(), ...overrides })
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

const agency = {
  name: 'Evergreen Benefits Agency',
  license: 'Oregon license 1234567',
  phone: '(503) 555-0100',
  disclaimer: 'Evergreen is not affiliated with any plan.',
  organization_count: '3',
  plan_count: '14',
  callback_days: '2',
  notices_email: 'stops@evergreen-benefits.example',
  active: 'on',
}

/** The hidden fields the page sends back: the version and revision of the words it showed. */
function shownWords(html: string) {
  const version = /name="version" value="([^"]+)"/.exec(html)?.[1]
  const revision = /name="partner_revision" value="(\d+)"/.exec(html)?.[1]
  expect(version && revision).toBeTruthy()
  return { version: version!, partner_revision: revision! }
}

describe('Medicare calls, without JavaScript', () => {
  it('offers nothing before the team names an agency, with unbiased help and the anti-scam line', async () => {
    const member = await person()
    const html = await text('/account/medicare', member.cookie)
    expect(html).toContain('Nothing is offered here at the moment.')
    expect(html).toContain('A real agent will never ask for your Medicare number, bank or card details on the first call, and never asks you to pay to get a card.')
    expect(html).toContain('href="https://www.medicare.gov/"')
    expect(html).toContain('href="tel:+18006334227"')
    expect(html).not.toContain('name="agree"')
    expect(await validationOf(html)).toEqual([])
    // Onboarding says so too and goes on with Continue.
    const step = await text('/get-started/medicare', member.cookie)
    expect(step).toContain('Step 7 of 8')
    expect(step).toMatch(/<button[^>]*class="button"[^>]*name="intent" value="skip"[^>]*>Continue<\/button>|<button[^>]*name="intent"[^>]*value="skip"[^>]*class="button"[^>]*>Continue/)
  })

  it('the team names the agency: mistakes next to their field, nothing typed lost; then its count and its list', async () => {
    const admin = await person({ staff_role: 'admin' })
    const member = await person()
    expect((await page('/admin/medicare', member.cookie)).status).toBe(403)
    const empty = await text('/admin/medicare', admin.cookie)
    expect(empty).toContain('No agency is named yet, so members are not offered calls.')
    expect(await validationOf(empty)).toEqual([])

    const wrong = await post('/admin/medicare', admin.cookie, { ...agency, name: ' ', callback_days: '30' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.html).toMatch(/id="name-error"[^>]*><span[^>]*>Error: <\/span>Enter the agency’s name\./)
    expect(wrong.html).toMatch(/id="callback_days-error"[^>]*><span[^>]*>Error: <\/span>Enter a whole number of days from 1 to 10\./)
    expect(wrong.html).toContain('value="Oregon license 1234567"')
    expect(await validationOf(wrong.html)).toEqual([])
    const foreign = await post('/admin/medicare', admin.cookie, { ...agency, phone: '+44 20 7183 8750' })
    expect(foreign.response.status).toBe(400)
    expect(foreign.html).toMatch(/id="phone-error"[^>]*><span[^>]*>Error: <\/span>Enter a US phone number with its area code\./)
    expect(foreign.html).toContain('value="+44 20 7183 8750"')
    // Where the agency is told of each stop (decision 086): required, and an email address.
    const { notices_email: _none, ...withoutAddress } = agency
    const noAddress = await post('/admin/medicare', admin.cookie, withoutAddress)
    expect(noAddress.response.status).toBe(400)
    expect(noAddress.html).toMatch(/id="notices_email-error"[^>]*><span[^>]*>Error: <\/span>Enter the email address where the agency receives stop notices\./)
    const badAddress = await post('/admin/medicare', admin.cookie, { ...agency, notices_email: 'stops at evergreen' })
    expect(badAddress.response.status).toBe(400)
    expect(badAddress.html).toMatch(/id="notices_email-error"[^>]*><span[^>]*>Error: <\/span>Enter an email address, for example stops@agency\.com\./)
    expect(badAddress.html).toContain('value="stops at evergreen"')
    expect(badAddress.html).toContain('value="Evergreen Benefits Agency"')
    expect(await validationOf(badAddress.html)).toEqual([])
    expect(await pages.database.db.selectFrom('medicare_partners').select('id').execute()).toEqual([])

    const saved = await post('/admin/medicare', admin.cookie, agency)
    expect(saved.response.headers.get('location')).toBe('/admin/medicare')
    const named = await text('/admin/medicare', withSetCookies(admin.cookie, saved.response))
    expect(named).toContain('The agency’s details are saved.')
    expect(named).toContain('0 members have asked to be called and not stopped.')
    expect(named).toContain('0 stops were emailed to the agency in the last 30 days.')
    expect(named).toContain('value="stops@evergreen-benefits.example"')
    expect(named).not.toContain('has no address for stop notices')
    // An agency named before stop notices existed has no address: the page warns until one is saved.
    await pages.database.db.updateTable('medicare_partners').set({ notices_email: null }).execute()
    const unaddressed = await text('/admin/medicare', admin.cookie)
    expect(unaddressed).toContain('This agency has no address for stop notices, so it is not told when a member stops these calls. Add one below and save.')
    expect(await validationOf(unaddressed)).toEqual([])
    await post('/admin/medicare', admin.cookie, agency)
    expect(await text('/admin/medicare', admin.cookie)).not.toContain('has no address for stop notices')
    expect(named).toContain('href="/admin/medicare/export"')
    expect(await validationOf(named)).toEqual([])
    // Finance may too; a moderator may not.
    expect((await page('/admin/medicare', (await person({ staff_role: 'finance' })).cookie)).status).toBe(200)
    expect((await page('/admin/medicare', (await person({ staff_role: 'moderator' })).cookie)).status).toBe(403)
  })

  it('a member agrees on their account page: errors next to their fields, then what they agreed to, and “Stop these calls”', async () => {
    const admin = await person({ staff_role: 'admin' })
    const member = await person({ first_name: 'Walter', last_name: 'Brooks', phone: '+15035550142', phone_confirmed_at: new Date() })
    expect((await page('/account/medicare', member.cookie)).headers.get('cache-control')).toBe('private, no-store')
    const form = await text('/account/medicare', member.cookie)
    expect(form).toContain('a licensed insurance agent from Evergreen Benefits Agency can call you')
    expect(form).toContain('value="(503) 555-0142"')
    expect(form).toContain('Topics you’d like to talk about')
    expect(form).toContain('This is not required to use Circle 55.')
    expect(form).toContain('Circle 55 is not Medicare and is not connected with or endorsed by the U.S. government or the federal Medicare program.')
    expect(form).toContain('Evergreen Benefits Agency tells us: “We do not offer every plan available in your area. Currently we represent 3 organizations which offer 14 products in your area.')
    expect(form).toContain('The notice of Evergreen Benefits Agency: Evergreen is not affiliated with any plan.')
    expect(form).toContain('will call you from (503) 555-0100 within 2 business days')
    expect(form).not.toMatch(/medicare advis/i)
    // No box is ticked for the member.
    expect(form).not.toMatch(/<input[^>]*type="checkbox"[^>]*checked/)
    expect(await validationOf(form)).toEqual([])
    const words = shownWords(form)

    const nothing = await post('/account/medicare', member.cookie, { intent: 'give', phone: '', ...words })
    expect(nothing.response.status).toBe(400)
    expect(nothing.html).toMatch(/id="medicare-phone-error"[^>]*><span[^>]*>Error: <\/span>Enter your phone number\./)
    expect(nothing.html).toMatch(/id="medicare-topics-error"[^>]*><span[^>]*>Error: <\/span>Choose at least one topic\./)
    expect(nothing.html).toMatch(/id="medicare-agree-error"[^>]*><span[^>]*>Error: <\/span>Tick the box to agree, or choose “Not now”\./)
    expect(nothing.html).toContain('href="#medicare-phone"')
    expect(await validationOf(nothing.html)).toEqual([])
    // A number that is not a US one is said together with the other mistakes, in one round.
    const short = await post('/account/medicare', member.cookie, { intent: 'give', phone: '503 555', ...words })
    expect(short.html).toMatch(/id="medicare-phone-error"[^>]*><span[^>]*>Error: <\/span>Enter a US phone number with its area code/)
    expect(short.html).toMatch(/id="medicare-topics-error"/)
    expect(short.html).toContain('value="503 555"')

    const body = new URLSearchParams({ intent: 'give', phone: '+44 20 7183 8750', agree: 'yes', ...words })
    body.append('topics', 'hearing')
    body.append('topics', 'vision')
    const foreign = await page('/account/medicare', member.cookie, { method: 'POST', body })
    expect(foreign.status).toBe(400)
    const foreignHtml = readableHtml(await foreign.text())
    expect(foreignHtml).toMatch(/id="medicare-phone-error"[^>]*><span[^>]*>Error: <\/span>Enter a US phone number with its area code, for example \(503\) 555-0100\./)
    expect(foreignHtml).toContain('value="+44 20 7183 8750"')
    const ticked = (html: string) => (html.match(/<input[^>]*name="topics"[^>]*>/g) ?? []).filter((input) => / checked/.test(input)).map((input) => /value="(\w+)"/.exec(input)?.[1])
    expect(ticked(foreignHtml)).toEqual(['hearing', 'vision'])

    // The team changes the agency's details meanwhile: the member is asked to read them again, the box unticked.
    await post('/admin/medicare', admin.cookie, { ...agency, callback_days: '3' })
    body.set('phone', '(503) 555-0142')
    const changed = await page('/account/medicare', member.cookie, { method: 'POST', body })
    expect(changed.status).toBe(409)
    const changedHtml = readableHtml(await changed.text())
    expect(changedHtml).toContain('The words on this page have just changed. Please read them again before you agree.')
    expect(changedHtml).toContain('within 3 business days')
    expect(changedHtml).not.toMatch(/<input[^>]*name="agree"[^>]*checked/)
    expect(ticked(changedHtml)).toEqual(['hearing', 'vision'])

    body.set('partner_revision', shownWords(changedHtml).partner_revision)
    const given = await page('/account/medicare', member.cookie, { method: 'POST', body })
    expect(given.status).toBe(302)
    expect(given.headers.get('location')).toBe('/account/medicare')
    const agreed = await text('/account/medicare', withSetCookies(member.cookie, given))
    expect(agreed).toContain('Thank you. A licensed insurance agent will call you.')
    expect(agreed).toMatch(/you agreed that a licensed insurance agent from Evergreen Benefits Agency may call you at \(503\) 555-0142 about these topics: Hearing and Vision\./)
    expect(agreed).toContain('name="intent" value="stop"')
    expect(agreed).toContain('Stop these calls')
    expect(await validationOf(agreed)).toEqual([])
    const row = await pages.database.db.selectFrom('medicare_consents').select(['phone', 'topics', 'method', 'page', 'locale']).where('user_id', '=', member.user.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ phone: '+15035550142', topics: ['hearing', 'vision'], method: 'web_form', page: '/account/medicare', locale: 'en' })

    // The team's list holds them, and the download is recorded.
    const list = await page('/admin/medicare/export', admin.cookie)
    expect(list.status).toBe(200)
    expect(list.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(await list.text()).toContain(',Walter,Brooks,+15035550142,hearing;vision,en')
    expect(await pages.database.db.selectFrom('audit_log').select('actor_id').where('action', '=', 'medicare.export').execute()).toEqual([{ actor_id: admin.user.id }])
    expect((await page('/admin/medicare/export', member.cookie)).status).toBe(403)

    const stopped = await post('/account/medicare', member.cookie, { intent: 'stop' })
    expect(stopped.response.headers.get('location')).toBe('/account/medicare')
    const after = await text('/account/medicare', withSetCookies(member.cookie, stopped.response))
    expect(after).toContain('Done. These calls are stopped.')
    expect(after).toContain('name="agree"')
    expect(await (await page('/admin/medicare/export', admin.cookie)).text()).not.toContain('Walter')
    // The agency was emailed at once, and the team's page counts it.
    expect(await pages.database.db.selectFrom('email_outbox').select('to_address').where('kind', '=', 'medicareStopNotice').execute()).toEqual([{ to_address: 'stops@evergreen-benefits.example' }])
    expect(await text('/admin/medicare', admin.cookie)).toContain('1 stop was emailed to the agency in the last 30 days.')
  })

  it('in onboarding, “Not now” is the main button and goes on; agreeing goes on too, keeping where the member was going', async () => {
    const member = await person()
    const step = await text('/get-started/medicare?returnTo=%2Factivities', member.cookie)
    expect(step).toContain('Step 7 of 8')
    const notNow = /<button[^>]*>Not now<\/button>/.exec(step)?.[0] ?? ''
    expect(notNow).toMatch(/class="button"/)
    const agree = /<button[^>]*>Agree and ask for a call<\/button>/.exec(step)?.[0] ?? ''
    expect(agree).toMatch(/class="button button--secondary"/)
    expect(step.indexOf('>Not now<')).toBeLessThan(step.indexOf('name="phone"'))
    expect(await validationOf(step)).toEqual([])

    const skipped = await post('/get-started/medicare?returnTo=%2Factivities', member.cookie, { intent: 'skip' })
    expect(skipped.response.headers.get('location')).toBe('/get-started/success?returnTo=%2Factivities')
    expect(await pages.database.db.selectFrom('medicare_consents').select('id').where('user_id', '=', member.user.id).execute()).toEqual([])

    const other = await person()
    const body = new URLSearchParams({ intent: 'give', phone: '503-555-0188', agree: 'yes', topics: 'drug_coverage', ...shownWords(await text('/get-started/medicare', other.cookie)) })
    const given = await page('/get-started/medicare?returnTo=%2Factivities', other.cookie, { method: 'POST', body })
    expect(given.headers.get('location')).toBe('/get-started/success?returnTo=%2Factivities')
    expect(await pages.database.db.selectFrom('medicare_consents').select(['page', 'topics']).where('user_id', '=', other.user.id).execute()).toEqual([{ page: '/get-started/medicare', topics: ['drug_coverage'] }])
  })

  it('while the team views Circle 55 as the member, only the member can do this', async () => {
    const support = await person({ staff_role: 'support' })
    const member = await person({ first_name: 'Margaret', last_name: 'Hughes' })
    const started = await post(`/admin/members/${member.user.id}`, support.cookie, { reason: 'She asked about her account.' })
    expect(started.response.status).toBe(302)
    const viewing = withSetCookies(support.cookie, started.response)
    const shown = await text('/account/medicare', viewing)
    expect(shown).toContain('Only the member can do this. It is left out while viewing Circle 55 as them.')
    expect(shown).not.toContain('name="agree"')
    expect(shown).not.toContain('>Stop these calls<')
    expect(await validationOf(shown)).toEqual([])
    // Posted all the same: refused, nothing recorded.
    const refused = await post('/account/medicare', viewing, { intent: 'stop' })
    expect(refused.response.headers.get('location')).toBe('/account/medicare')
    expect(await text('/account/medicare', withSetCookies(viewing, refused.response))).toContain('This cannot be done while viewing Circle 55 as a member.')
    expect(await pages.database.db.selectFrom('medicare_consents').select('id').where('user_id', '=', member.user.id).execute()).toEqual([])
  })
})

describe('with the medicare-calls flag off (decision 086)', () => {
  it('offers nothing and hides the account link; a member with a consent in force still sees it, stops it, and the list held it until then', async () => {
    const admin = await person({ staff_role: 'admin' })
    await post('/admin/medicare', admin.cookie, agency)
    const newcomer = await person()
    const agreed = await person({ first_name: 'Dorothy', last_name: 'Klein' })
    const body = new URLSearchParams({ intent: 'give', phone: '(503) 555-0163', agree: 'yes', ...shownWords(await text('/account/medicare', agreed.cookie)) })
    body.append('topics', 'dental')
    expect((await page('/account/medicare', agreed.cookie, { method: 'POST', body })).status).toBe(302)
    const wordsShown = shownWords(await text('/account/medicare', newcomer.cookie))
    const linked = async (cookie: string) => (await text('/account', cookie)).includes('href="/account/medicare"')
    expect(await linked(newcomer.cookie)).toBe(true)

    const restore = await changeFlag(pages.web.api, 'medicare-calls', { enabled: false })
    try {
      // Nothing offered: no link, the page and the onboarding step say so, and Continue goes on.
      expect(await linked(newcomer.cookie)).toBe(false)
      const nothing = await text('/account/medicare', newcomer.cookie)
      expect(nothing).toContain('Nothing is offered here at the moment.')
      expect(nothing).not.toContain('name="agree"')
      const step = await text('/get-started/medicare', newcomer.cookie)
      expect(step).toContain('Nothing is offered here at the moment.')
      expect(step).toMatch(/name="intent"[^>]*value="skip"[^>]*>Continue|value="skip"[^>]*>Continue/)
      // Words shown before the flag was turned off, sent all the same: refused, nothing recorded.
      const late = new URLSearchParams({ intent: 'give', phone: '(503) 555-0164', agree: 'yes', ...wordsShown })
      late.append('topics', 'vision')
      const refused = await page('/account/medicare', newcomer.cookie, { method: 'POST', body: late })
      expect(refused.status).toBe(409)
      const refusedHtml = readableHtml(await refused.text())
      expect(refusedHtml).toContain('This is not offered at the moment. Nothing was sent.')
      expect(refusedHtml).toContain('Nothing is offered here at the moment.')
      expect(await validationOf(refusedHtml)).toEqual([])
      expect(await pages.database.db.selectFrom('medicare_consents').select('id').where('user_id', '=', newcomer.user.id).execute()).toEqual([])

      // The member who agreed: still linked, still shown, still on the team's list, and stopped in one press.
      expect(await linked(agreed.cookie)).toBe(true)
      const theirs = await text('/account/medicare', agreed.cookie)
      expect(theirs).toMatch(/you agreed that a licensed insurance agent from Evergreen Benefits Agency may call you at \(503\) 555-0163/)
      expect(theirs).toContain('Stop these calls')
      expect(await (await page('/admin/medicare/export', admin.cookie)).text()).toContain(',Dorothy,Klein,+15035550163,dental,en')
      const stopped = await post('/account/medicare', agreed.cookie, { intent: 'stop' })
      expect(stopped.response.headers.get('location')).toBe('/account/medicare')
      expect(await (await page('/admin/medicare/export', admin.cookie)).text()).not.toContain('Dorothy')
      // Nothing in force any more, and nothing offered: the link goes too.
      expect(await linked(agreed.cookie)).toBe(false)
    } finally {
      await restore()
    }
    expect(await linked(newcomer.cookie)).toBe(true)
  })
})
