import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import type { Logger } from '#api/logger.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createApiHarness, signedInMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { revokeMedicareConsent } from './service.ts'

/**
 * Stop notices (issue 33 §2, decision 086), through the API and against the real database: the
 * words promise that the agency is told within one business day, so each way a consent ends —
 * "Stop these calls", a texted STOP, the account deleted — emails the agency that held it at
 * once, in the same transaction, with only what it needs to drop the person; nothing goes (and a
 * warning is logged) when the agency has no address; the record of it is append-only; the team
 * sees how many went.
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

function person(overrides: Partial<NewUser> = {}) {
  return signedInMember(api, { last_sign_in_at: new Date(), ...overrides })
}
type Person = Awaited<ReturnType<typeof person>>

const noticesEmail = 'stops@evergreen-benefits.example'
const agency = {
  name: 'Evergreen Benefits Agency',
  license: 'Oregon license 1234567',
  phone: '(503) 555-0100',
  disclaimer: 'Evergreen is not affiliated with any plan.',
  organization_count: 3,
  plan_count: 14,
  callback_days: 2,
  active: true,
  notices_email: noticesEmail,
}

let admin: Person

beforeAll(async () => {
  admin = await person({ staff_role: 'admin' })
  expect((await admin.call('PUT', 'v1/admin/medicare/partner', agency)).status).toBe(200)
})

/** `member` agrees to be called at `phone` about dental and hearing; the consent's id. */
async function agree(member: Person, phone = '(503) 555-0177') {
  const offer = (await member.call('GET', 'v1/users/me/medicare?locale=fr')).json.data[0].offer
  const given = await member.call('POST', 'v1/users/me/medicare', { phone, topics: ['dental', 'hearing'], agree: true, version: offer.version, partner_revision: offer.partner_revision, locale: 'fr' })
  expect(given.status).toBe(201)
  return given.json.data[0].consent.id as string
}

const noticesFor = (consentId: string) => database.db.selectFrom('email_outbox').selectAll().where('kind', '=', 'medicareStopNotice').where('subject', '=', `Stop calls: Circle 55 consent ${consentId.slice(0, 8)}`).execute()

/** The one notice for `consentId`: to the agency, in English, with only the consent, the name, the number, when and how, and the instruction. */
async function theNotice(consentId: string, expected: { first: string; last: string; how: RegExp }) {
  const emails = await noticesFor(consentId)
  expect(emails).toHaveLength(1)
  const email = emails[0]!
  expect(email).toMatchObject({ to_address: noticesEmail, locale: 'en', subject: `Stop calls: Circle 55 consent ${consentId.slice(0, 8)}` })
  expect(email.text_body).toContain(`Consent: ${consentId}`)
  expect(email.text_body).toContain(`First name: ${expected.first}`)
  expect(email.text_body).toContain(`Last name: ${expected.last}`)
  expect(email.text_body).toContain('Phone number: (503) 555-0177 (+15035550177)')
  expect(email.text_body).toMatch(/Stopped: [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M E[SD]T \(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\)/)
  expect(email.text_body).toMatch(expected.how)
  expect(email.text_body).toContain("Do not call this person about Medicare plans: they have withdrawn the permission they gave through Circle 55.")
  // Nothing more: not the topics, not the words in French, not the member's email.
  expect(email.text_body).not.toMatch(/dental|hearing|dentaire|audition/i)
  expect(email.text_body).not.toContain('@')
  const record = await database.db.selectFrom('medicare_stop_notices').selectAll().where('consent_id', '=', consentId).execute()
  expect(record).toEqual([{ consent_id: consentId, partner_id: expect.any(String), to_address: noticesEmail, email_id: email.id, queued_at: expect.any(Date) }])
  return email
}

describe('a stop notice', () => {
  it('is emailed to the agency once when the member presses “Stop these calls”', async () => {
    const member = await person({ first_name: 'Walter', last_name: 'Brooks', email: 'walter.brooks@example.com' })
    const consentId = await agree(member)
    expect(await noticesFor(consentId)).toEqual([])
    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    await theNotice(consentId, { first: 'Walter', last: 'Brooks', how: /How: The member pressed “Stop these calls” in their Circle 55 account\./ })
    // Again: nothing in force, nothing more is sent.
    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    expect(await noticesFor(consentId)).toHaveLength(1)
  })

  it('is emailed to the agency once when the number texts STOP', async () => {
    const member = await person({ first_name: 'Rosa', last_name: 'Delgado' })
    const consentId = await agree(member)
    const stop = () => api.request('POST', 'v1/sms/inbound', { body: 'From=%2B15035550177&Body=STOP', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect((await stop()).status).toBe(200)
    await theNotice(consentId, { first: 'Rosa', last: 'Delgado', how: /How: The member texted STOP to Circle 55 from the phone number above\./ })
    expect((await stop()).status).toBe(200)
    expect(await noticesFor(consentId)).toHaveLength(1)
  })

  it('is emailed when the account is deleted, with the name and number as they were, before both are blanked', async () => {
    const member = await person({ first_name: 'Ines', last_name: 'Okafor' })
    const consentId = await agree(member)
    expect((await member.call('DELETE', `v1/users/${member.user.id}`)).status).toBe(204)
    await theNotice(consentId, { first: 'Ines', last: 'Okafor', how: /How: The member deleted their Circle 55 account\./ })
    const kept = await database.db.selectFrom('medicare_consents').select(['phone', 'topics']).where('id', '=', consentId).executeTakeFirstOrThrow()
    expect(kept).toEqual({ phone: null, topics: [] })
    expect(await database.db.selectFrom('users').select('first_name').where('id', '=', member.user.id).executeTakeFirstOrThrow()).toEqual({ first_name: null })
  })

  it('goes to the agency the consent named, even after the team named another', async () => {
    const member = await person({ first_name: 'Tom', last_name: 'Reyes' })
    const consentId = await agree(member)
    await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, name: 'Cascade Insurance Partners', notices_email: 'stops@cascade.example', new_agency: true })
    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    await theNotice(consentId, { first: 'Tom', last: 'Reyes', how: /pressed “Stop these calls”/ })
    expect((await noticesFor(consentId))[0]!.text_body).toMatch(/^To Evergreen Benefits Agency:/)
    await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, new_agency: true })
  })

  it('is not sent when the agency has no address (named before stop notices): the stop is recorded and a warning logged', async () => {
    const member = await person({ first_name: 'Agnes', last_name: 'Lindqvist' })
    const consentId = await agree(member)
    await database.db.updateTable('medicare_partners').set({ notices_email: null }).where('retired_at', 'is', null).execute()
    const warn = vi.fn()
    const logger = { warn } as unknown as Logger
    expect(await revokeMedicareConsent({ db: database.db, mailer: createMailer({ db: database.db }), logger }, member.user)).toEqual({ stopped: 1 })
    expect(await database.db.selectFrom('medicare_consent_revocations').select('method').where('consent_id', '=', consentId).execute()).toEqual([{ method: 'member' }])
    expect(await noticesFor(consentId)).toEqual([])
    expect(await database.db.selectFrom('medicare_stop_notices').select('consent_id').where('consent_id', '=', consentId).execute()).toEqual([])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatchObject({ consentId })
    // The team sees it, and saving the agency with an address fixes it (without asking members to read the words again).
    const before = (await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0].partner
    expect(before.notices_email).toBeNull()
    const saved = await admin.call('PUT', 'v1/admin/medicare/partner', agency)
    expect(saved.json.data[0].partner).toMatchObject({ notices_email: noticesEmail, revision: before.revision })
  })
})

describe('the stop-notice address', () => {
  it('is required to save the agency, checked as an email address, and its change is audited without a new revision', async () => {
    const fields = async (body: object): Promise<unknown> => (await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, ...body })).json.error.fields
    const { notices_email: _left, ...withoutAddress } = agency
    expect((await admin.call('PUT', 'v1/admin/medicare/partner', withoutAddress)).json.error.fields).toEqual({ notices_email: ['notices_email_required'] })
    expect(await fields({ notices_email: '  ' })).toEqual({ notices_email: ['notices_email_required'] })
    expect(await fields({ notices_email: 'stops at evergreen' })).toEqual({ notices_email: ['notices_email_invalid'] })
    const before = (await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0].partner
    const changed = await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, notices_email: ' optout@evergreen-benefits.example ' })
    expect(changed.json.data[0].partner).toMatchObject({ notices_email: 'optout@evergreen-benefits.example', revision: before.revision })
    const audit = await database.db.selectFrom('audit_log').select(['action', 'data']).where('target_id', '=', before.id).orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(audit).toMatchObject({ action: 'medicare.partner.update', data: { before: { notices_email: noticesEmail }, after: { notices_email: 'optout@evergreen-benefits.example' }, revision: before.revision } })
    await admin.call('PUT', 'v1/admin/medicare/partner', agency)
  })
})

describe('the record of stop notices', () => {
  it('is append-only in PostgreSQL', async () => {
    const member = await person({ first_name: 'Lena', last_name: 'Park' })
    const consentId = await agree(member)
    await member.call('DELETE', 'v1/users/me/medicare')
    const refused = (statement: Promise<unknown>) => expect(statement).rejects.toThrow(/append-only/)
    await refused(database.db.updateTable('medicare_stop_notices').set({ to_address: 'else@example.com' }).where('consent_id', '=', consentId).execute())
    await refused(database.db.deleteFrom('medicare_stop_notices').where('consent_id', '=', consentId).execute())
    await refused(sql`TRUNCATE medicare_stop_notices`.execute(database.db))
    expect(await database.db.selectFrom('medicare_stop_notices').select('to_address').where('consent_id', '=', consentId).execute()).toEqual([{ to_address: noticesEmail }])
  })

  it('is counted for the team: stops emailed to the current agency in the last 30 days, and those not delivered', async () => {
    const counts = async () => (await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0].stop_notices as { last_30_days: number; not_delivered: number }
    const start = await counts()
    const member = await person({ first_name: 'Omar', last_name: 'Haddad' })
    const consentId = await agree(member)
    await member.call('DELETE', 'v1/users/me/medicare')
    expect(await counts()).toEqual({ last_30_days: start.last_30_days + 1, not_delivered: start.not_delivered })
    // The mail server gave up on it (api/providers/email/smtp.ts marks the outbox row failed).
    const email = (await noticesFor(consentId))[0]!
    await database.db.updateTable('email_outbox').set({ failed_at: new Date() }).where('id', '=', email.id).execute()
    expect(await counts()).toEqual({ last_30_days: start.last_30_days + 1, not_delivered: start.not_delivered + 1 })
    // Finance and admins only.
    const someone = await person()
    expect((await someone.call('GET', 'v1/admin/medicare/partner')).status).toBe(403)
  })
})
