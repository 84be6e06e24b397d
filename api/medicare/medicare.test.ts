import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEDICARE_CONSENT_VERSION } from '#contract/medicare.ts'
import type { NewUser } from '#api/db/schema.ts'
import { createApiHarness, signedInMember, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { disclosureText, memberPhone, paragraphSeparator } from './service.ts'

/**
 * Permission to be called about Medicare plans (issue 33 §2, decision 086), through the API and
 * against the real database: what a consent records, that PostgreSQL keeps it as given, that
 * "Stop these calls" works at once and the agency's list follows, what the list holds and that
 * every download is recorded, and that nobody but the member gives or stops it.
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

const agency = {
  name: 'Evergreen Benefits Agency',
  license: 'Oregon license 1234567',
  phone: '(503) 555-0100',
  disclaimer: 'Evergreen is not affiliated with any plan. Calls may be recorded for quality.',
  organization_count: 3,
  plan_count: 14,
  callback_days: 2,
  active: true,
  notices_email: 'stops@evergreen-benefits.example',
}

/** The words offered to `member` now, in `locale`, and the agreement a form sends with them. */
async function offerFor(member: Person, locale = 'en') {
  const state = await member.call('GET', `v1/users/me/medicare?locale=${locale}`)
  expect(state.status).toBe(200)
  const offer = state.json.data[0].offer
  return { offer, agreement: { phone: '503 555 0177', topics: ['hearing', 'dental'], agree: true, version: offer.version, partner_revision: offer.partner_revision, locale } }
}

let finance: Person
let admin: Person

beforeAll(async () => {
  finance = await person({ staff_role: 'finance' })
  admin = await person({ staff_role: 'admin' })
})

describe('before the team names an agency', () => {
  it('offers nothing, refuses an agreement and has no list to send', async () => {
    const member = await person()
    const state = await member.call('GET', 'v1/users/me/medicare')
    expect(state.json.data[0]).toEqual({ consent: null, offer: null })
    const refused = await member.call('POST', 'v1/users/me/medicare', { phone: '5035550177', topics: ['vision'], agree: true, version: MEDICARE_CONSENT_VERSION, partner_revision: 1 })
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('medicare_not_offered')
    expect((await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0]).toEqual({ partner: null, consents_in_force: 0, stop_notices: { last_30_days: 0, not_delivered: 0 } })
    expect((await finance.call('GET', 'v1/admin/medicare/export')).json.error.code).toBe('medicare_not_offered')
  })
})

describe('the agency', () => {
  it('is named by finance or an admin, audited; a change raises its revision; members and the other roles may not', async () => {
    for (const role of [undefined, 'moderator', 'support'] as const) {
      const someone = await person({ staff_role: role ?? null })
      expect((await someone.call('PUT', 'v1/admin/medicare/partner', agency)).status).toBe(403)
      expect((await someone.call('GET', 'v1/admin/medicare/partner')).status).toBe(403)
      expect((await someone.call('GET', 'v1/admin/medicare/export')).status).toBe(403)
    }
    const wrong = await finance.call('PUT', 'v1/admin/medicare/partner', { ...agency, phone: '+44 20 7183 8750', name: ' ', callback_days: 30 })
    expect(wrong.status).toBe(422)
    expect(wrong.json.error.fields).toEqual({ name: ['name_required'], callback_days: ['callback_days_invalid'] })
    expect((await finance.call('PUT', 'v1/admin/medicare/partner', { ...agency, phone: '+44 20 7183 8750' })).json.error.fields).toEqual({ phone: ['phone_invalid'] })

    const named = await finance.call('PUT', 'v1/admin/medicare/partner', agency)
    expect(named.status).toBe(200)
    expect(named.json.data[0]).toMatchObject({ partner: { name: agency.name, phone: '+15035550100', formatted_phone: '(503) 555-0100', revision: 1, active: true }, consents_in_force: 0 })
    const id = named.json.data[0].partner.id as string
    // The same details again change nothing; new ones raise the revision.
    expect((await admin.call('PUT', 'v1/admin/medicare/partner', agency)).json.data[0].partner.revision).toBe(1)
    expect((await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, callback_days: 3 })).json.data[0].partner).toMatchObject({ id, revision: 2, callback_days: 3 })
    const audit = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'data']).where('target_id', '=', id).orderBy('id').execute()
    expect(audit.map((row) => [row.actor_id, row.action])).toEqual([
      [finance.user.id, 'medicare.partner.create'],
      [admin.user.id, 'medicare.partner.update'],
    ])
    expect(audit[1]!.data).toMatchObject({ before: { callback_days: 2 }, after: { callback_days: 3 }, revision: 2 })
  })
})

describe('a member’s permission to be called', () => {
  it('is recorded with the exact words shown, their version and language, the agency and its revision, the phone number, the topics, the page and the browser', async () => {
    const member = await person({ first_name: 'Hélène', last_name: 'Dubois' })
    const { offer, agreement } = await offerFor(member, 'fr')
    expect(offer.partner).toMatchObject({ name: agency.name, formatted_phone: '(503) 555-0100', callback_days: 3 })
    expect(offer.text).toContain('Circle 55 n’est pas Medicare')
    expect(offer.text.split(paragraphSeparator).at(-1)).toMatch(/^J’accepte qu’un agent d’assurance agréé de l’agence Evergreen Benefits Agency m’appelle/)

    const given = await member.call('POST', 'v1/users/me/medicare', { ...agreement, page: '/account/medicare', user_agent: 'Mozilla/5.0 (iPad)' })
    expect(given.status).toBe(201)
    expect(given.json.data[0].consent).toMatchObject({ phone: '+15035550177', formatted_phone: '(503) 555-0177', topics: ['dental', 'hearing'], version: MEDICARE_CONSENT_VERSION, locale: 'fr', text: offer.text, partner: { name: agency.name } })
    const row = await database.db.selectFrom('medicare_consents').selectAll().where('user_id', '=', member.user.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      partner_id: offer.partner.id,
      partner_revision: offer.partner_revision,
      phone: '+15035550177',
      phone_last4: '0177',
      topics: ['dental', 'hearing'],
      text_version: MEDICARE_CONSENT_VERSION,
      text_shown: offer.text,
      locale: 'fr',
      method: 'web_form',
      page: '/account/medicare',
      user_agent: 'Mozilla/5.0 (iPad)',
      erased_at: null,
    })
    // Once in force, a second agreement is refused until the first is stopped.
    expect((await member.call('POST', 'v1/users/me/medicare', agreement)).json.error.code).toBe('medicare_consent_in_force')
  })

  it('needs a US number a person answers, a topic, the box ticked, and the words as they are now', async () => {
    const member = await person()
    const { agreement } = await offerFor(member)
    const fields = async (body: object): Promise<unknown> => (await member.call('POST', 'v1/users/me/medicare', { ...agreement, ...body })).json.error.fields
    expect(await fields({ phone: '' })).toEqual({ phone: ['phone_required'] })
    for (const phone of ['+44 20 7183 8750', '1-800-633-4227', '555-0177', 'call me']) expect(await fields({ phone }), phone).toEqual({ phone: ['phone_invalid'] })
    expect(await fields({ topics: [] })).toEqual({ topics: ['topics_required'] })
    expect(await fields({ topics: ['yoga'] })).toEqual({ 'topics.0': ['topics_invalid'] })
    expect(await fields({ agree: false })).toEqual({ agree: ['agree_required'] })
    const stale = await member.call('POST', 'v1/users/me/medicare', { ...agreement, version: '2020-01-1' })
    expect([stale.status, stale.json.error.code]).toEqual([409, 'medicare_words_changed'])
    // The team changes the agency's number after the member read the words: they read them again.
    await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, callback_days: 3, phone: '503-555-0101' })
    expect((await member.call('POST', 'v1/users/me/medicare', agreement)).json.error.code).toBe('medicare_words_changed')
    const again = await offerFor(member)
    expect(again.offer.text).toContain('(503) 555-0101')
    expect((await member.call('POST', 'v1/users/me/medicare', again.agreement)).status).toBe(201)
    expect(await database.db.selectFrom('medicare_consents').select('method').where('user_id', '=', member.user.id).execute()).toEqual([{ method: 'api' }])
  })

  it('stops at once in one step, and the agency’s list leaves the member out from then on', async () => {
    const member = await person({ first_name: 'Walter', last_name: 'Brooks' })
    const { agreement } = await offerFor(member)
    const consentId = (await member.call('POST', 'v1/users/me/medicare', agreement)).json.data[0].consent.id as string
    const listed = async () => ((await finance.call('GET', 'v1/admin/medicare/export?format=json')).json.data as Array<{ consent_id: string }>).map((row) => row.consent_id)
    expect(await listed()).toContain(consentId)

    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    expect((await member.call('GET', 'v1/users/me/medicare')).json.data[0].consent).toBeNull()
    expect(await listed()).not.toContain(consentId)
    expect(await database.db.selectFrom('medicare_consent_revocations').select('method').where('consent_id', '=', consentId).execute()).toEqual([{ method: 'member' }])
    // Again: nothing to stop, nothing changes.
    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    // A new agreement after stopping is a new record; the first stays as it was.
    const second = await member.call('POST', 'v1/users/me/medicare', agreement)
    expect(second.json.data[0].consent.id).not.toBe(consentId)
    expect(await listed()).toContain(second.json.data[0].consent.id)
  })

  it('stops when the number texts STOP', async () => {
    const member = await person()
    const { agreement } = await offerFor(member)
    await member.call('POST', 'v1/users/me/medicare', { ...agreement, phone: '(503) 555-0166' })
    const inbound = await api.request('POST', 'v1/sms/inbound', { body: 'From=%2B15035550166&Body=STOP', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(inbound.status).toBe(200)
    expect((await member.call('GET', 'v1/users/me/medicare')).json.data[0].consent).toBeNull()
    const revoked = await database.db
      .selectFrom('medicare_consent_revocations as r')
      .innerJoin('medicare_consents as c', 'c.id', 'r.consent_id')
      .select('r.method')
      .where('c.user_id', '=', member.user.id)
      .execute()
    expect(revoked).toEqual([{ method: 'sms_stop' }])
  })

  it('is never given, changed or stopped by the team viewing Circle 55 as the member, even when acting for them', async () => {
    const member = await person()
    const { agreement } = await offerFor(member)
    const support = await person({ staff_role: 'support' })
    const started = await support.call('POST', `v1/admin/users/${member.user.id}/impersonation`, { reason: 'She asked for help with her account.' })
    expect(started.status).toBe(200)
    const as = { 'x-impersonation': started.json.data[0].id as string }
    // Reading is allowed (the page shows "Only the member can do this").
    expect((await support.call('GET', 'v1/users/me/medicare', undefined, as)).status).toBe(200)
    expect((await support.call('POST', 'v1/users/me/medicare', agreement, as)).json.error.code).toBe('impersonation_refused')
    expect((await support.call('POST', 'v1/impersonation/acting', { reason: 'She asked me on the phone.' }, as)).status).toBe(200)
    for (const method of ['POST', 'DELETE']) {
      const refused = await support.call(method, 'v1/users/me/medicare', method === 'POST' ? agreement : undefined, as)
      expect([method, refused.status, refused.json.error.code]).toEqual([method, 403, 'impersonation_refused'])
    }
    expect(await database.db.selectFrom('medicare_consents').select('id').where('user_id', '=', member.user.id).execute()).toEqual([])
  })
})

describe('the agency’s list', () => {
  it('holds only consents in force to the current agency, only the fields the words name, and every download is recorded', async () => {
    const member = await person({ first_name: '=HYPERLINK("x")', last_name: 'O’Neil' })
    const { agreement } = await offerFor(member, 'nl')
    const consentId = (await member.call('POST', 'v1/users/me/medicare', { ...agreement, topics: ['vision', 'drug_coverage'] })).json.data[0].consent.id as string

    const json = await finance.call('GET', 'v1/admin/medicare/export?format=json')
    const mine = (json.json.data as Array<Record<string, unknown>>).find((row) => row.consent_id === consentId)
    expect(mine).toEqual({
      consent_id: consentId,
      given_at: expect.any(String),
      version: MEDICARE_CONSENT_VERSION,
      first_name: '=HYPERLINK("x")',
      last_name: 'O’Neil',
      phone: '+15035550177',
      topics: ['drug_coverage', 'vision'],
      language: 'nl',
    })

    const csv = await admin.call('GET', 'v1/admin/medicare/export')
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="medicare-calls-\d{4}-\d{2}-\d{2}\.csv"$/)
    const text = await (await api.fetch(new Request(`${api.env.PUBLIC_URL}/api/v1/admin/medicare/export`, { headers: { authorization: `Bearer ${admin.token}` } }))).text()
    const lines = text.trimEnd().split('\r\n')
    expect(lines[0]).toBe('consent_id,given_at,version,first_name,last_name,phone,topics,language')
    expect(lines.find((line) => line.startsWith(consentId))).toMatch(new RegExp(`^${consentId},[^,]+,${MEDICARE_CONSENT_VERSION},"'=HYPERLINK\\(""x""\\)",O’Neil,\\+15035550177,drug_coverage;vision,nl$`))
    const inForce = (await admin.call('GET', 'v1/admin/medicare/partner')).json.data[0].consents_in_force as number
    expect(lines).toHaveLength(inForce + 1)

    const downloads = await database.db.selectFrom('audit_log').select(['actor_id', 'action', 'data']).where('action', '=', 'medicare.export').orderBy('id').execute()
    expect(downloads.slice(-3).map((row) => [row.actor_id, (row.data as { format: string }).format])).toEqual([
      [finance.user.id, 'json'],
      [admin.user.id, 'csv'],
      [admin.user.id, 'csv'],
    ])
    expect(downloads.at(-1)!.data).toMatchObject({ count: inForce, consent_ids: expect.arrayContaining([consentId]) })
    expect((await admin.call('GET', 'v1/admin/medicare/export?format=xml')).status).toBe(422)
  })

  it('passes no one to a different agency: consents name theirs', async () => {
    const member = await person()
    const { agreement } = await offerFor(member)
    const consentId = (await member.call('POST', 'v1/users/me/medicare', agreement)).json.data[0].consent.id as string
    const replaced = await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, name: 'Cascade Insurance Partners', new_agency: true })
    expect(replaced.json.data[0]).toMatchObject({ partner: { name: 'Cascade Insurance Partners', revision: 1 }, consents_in_force: 0 })
    expect((await admin.call('GET', 'v1/admin/medicare/export?format=json')).json.data).toEqual([])
    // The member still sees what they agreed to, and to whom, and may stop it.
    const state = (await member.call('GET', 'v1/users/me/medicare')).json.data[0]
    expect(state.consent).toMatchObject({ id: consentId, partner: { name: agency.name } })
    expect(state.offer.partner.name).toBe('Cascade Insurance Partners')
    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    // Paused: nothing offered, the list still answers (empty).
    await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, name: 'Cascade Insurance Partners', active: false })
    expect((await member.call('GET', 'v1/users/me/medicare')).json.data[0].offer).toBeNull()
    expect((await admin.call('GET', 'v1/admin/medicare/export?format=json')).status).toBe(200)
    await admin.call('PUT', 'v1/admin/medicare/partner', { ...agency, name: 'Cascade Insurance Partners', active: true })
  })
})

describe('the record', () => {
  it('is append-only in PostgreSQL: no update, delete or truncate, but deleting an account’s one blanking', async () => {
    const member = await person()
    const { agreement } = await offerFor(member)
    const consentId = (await member.call('POST', 'v1/users/me/medicare', agreement)).json.data[0].consent.id as string
    const refused = (statement: Promise<unknown>) => expect(statement).rejects.toThrow(/append-only/)
    await refused(database.db.updateTable('medicare_consents').set({ phone: '+15035550199' }).where('id', '=', consentId).execute())
    await refused(database.db.updateTable('medicare_consents').set({ text_shown: 'Something else' }).where('id', '=', consentId).execute())
    await refused(database.db.deleteFrom('medicare_consents').where('id', '=', consentId).execute())
    await refused(sql`TRUNCATE medicare_consents CASCADE`.execute(database.db))
    // Blanking together with another change is refused too.
    await refused(database.db.updateTable('medicare_consents').set({ phone: null, topics: [], user_agent: null, erased_at: new Date(), text_shown: 'Nothing' }).where('id', '=', consentId).execute())

    expect((await member.call('DELETE', 'v1/users/me/medicare')).status).toBe(204)
    await refused(database.db.updateTable('medicare_consent_revocations').set({ revoked_at: new Date(0) } as never).where('consent_id', '=', consentId).execute())
    await refused(database.db.deleteFrom('medicare_consent_revocations').where('consent_id', '=', consentId).execute())
    await refused(sql`TRUNCATE medicare_consent_revocations CASCADE`.execute(database.db))

    expect((await member.call('DELETE', `v1/users/${member.user.id}`)).status).toBe(204)
    const kept = await database.db.selectFrom('medicare_consents').selectAll().where('id', '=', consentId).executeTakeFirstOrThrow()
    expect(kept).toMatchObject({ phone: null, phone_last4: '0177', topics: [], user_agent: null, text_version: MEDICARE_CONSENT_VERSION, erased_at: expect.any(Date) })
    expect(kept.text_shown).toContain('Cascade Insurance Partners')
    // Blanked once: not again.
    await refused(database.db.updateTable('medicare_consents').set({ erased_at: new Date() }).where('id', '=', consentId).execute())
  })
})

describe('the words', () => {
  // Each version's English words (rendered for the same agency), pinned by their hash.
  const pinnedEnglish: Record<string, string> = { '2026-05-1': '04a5393a8bb9e3c6' }
  const partner = { name: 'Agency', license: 'License 1', phone: '+15035550100', disclaimer: 'Ours.', organization_count: 2, plan_count: 5, callback_days: 2 }

  it('do not change under a version: new English words need a new version', () => {
    expect(Object.keys(pinnedEnglish)).toContain(MEDICARE_CONSENT_VERSION)
    for (const [version, hash] of Object.entries(pinnedEnglish)) {
      const english = createHash('sha256').update(disclosureText(partner, 'en', version)).digest('hex').slice(0, 16)
      expect(english, `The English words of ${version} changed: add a new \`disclosure.<version>\` in every language, move MEDICARE_CONSENT_VERSION to it and pin it here`).toBe(hash)
    }
  })

  it('name the agency, the not-required and not-government lines and the TPMO disclaimer in every language, and never say "Medicare advisor"', () => {
    for (const language of ['en', 'fr', 'nl'] as const) {
      const text = disclosureText(partner, language)
      expect(text.split(paragraphSeparator)).toHaveLength(8)
      expect(text).toContain('Agency')
      expect(text).toContain('(503) 555-0100')
      expect(text).toContain('Medicare.gov')
      expect(text).toContain('1-800-MEDICARE')
      expect(text).toContain('Ours.')
      expect(text).not.toMatch(/\{\{|\}\}/)
      const file = readFileSync(new URL(`../../public/locales/${language}/medicare.json`, import.meta.url), 'utf8')
      expect(file).not.toMatch(/medicare[- ]?(advisor|adviser|adviseur)|conseiller medicare/i)
    }
    expect(disclosureText(partner, 'en')).toContain('Circle 55 is not Medicare and is not connected with or endorsed by the U.S. government or the federal Medicare program.')
    expect(disclosureText(partner, 'en')).toContain('We do not offer every plan available in your area. Currently we represent 2 organizations which offer 5 products in your area.')
    expect(disclosureText({ ...partner, organization_count: 1, callback_days: 1 }, 'en')).toMatch(/within 1 business day,[\s\S]*represent 1 organization which offers 5 products/)
  })

  it('check phone numbers with libphonenumber-js: US numbers a person answers', () => {
    expect(memberPhone('(503) 555-0177')).toBe('+15035550177')
    expect(memberPhone('+1 503 555 0177')).toBe('+15035550177')
    expect(memberPhone('503.555.0177')).toBe('+15035550177')
    expect(memberPhone('+44 20 7183 8750')).toBeNull()
    expect(memberPhone('1-800-633-4227')).toBeNull()
    expect(memberPhone('06 12 34 56 78')).toBeNull()
  })
})
