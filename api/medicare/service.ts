import { sql, type Selectable } from 'kysely'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { memberPhone } from '#contract/medicare-phone.ts'
import type { Language } from '#contract/enums.ts'
import { languageFromAcceptHeader } from '#contract/languages.ts'
import {
  MEDICARE_CONSENT_VERSION,
  medicareTopics,
  type AdminMedicare,
  type AdminMedicarePartner,
  type MedicareConsent,
  type MedicareExportRow,
  type MedicarePartner,
  type MedicarePartnerBody,
  type MedicareRevocationMethod,
  type MedicareState,
  type MedicareTopic,
} from '#contract/medicare.ts'
import type { DB, Trx } from '../db/database.ts'
import type { MedicarePartnersTable, User } from '../db/schema.ts'
import { isOn } from '../flags/service.ts'
import { problems } from '../http/errors.ts'
import { medicareT } from '../i18n.ts'
import { impersonationRefused } from '../policy/impersonation.ts'
import { requirePermission, type RequestCaller } from '../policy/permissions.ts'
import { queueStopNotices, stopNoticeCounts, type StopNoticeDeps } from './stop-notices.ts'

/**
 * Permission to be called about Medicare plans (spec §3, issue 33 §2, decision 086).
 *
 * A member may let one licensed insurance agency, named by the team, call them about Medicare
 * plans and the topics they choose. The words they agree to name the agency, its license, the
 * number it calls from and how to stop; they are rendered here from the locale files (the same
 * words the page shows), in the language the page was shown in, and stored with the agreement
 * exactly as shown, with their version and the revision of the agency's details. The member's
 * agreement is a row of `medicare_consents`; stopping it, a row of `medicare_consent_revocations`
 * (PostgreSQL refuses to change or delete either). Nobody gives, changes or stops it for the
 * member: the impersonation policy refuses these calls, and this service refuses them again.
 */

export { memberPhone }

type PartnerRow = Selectable<MedicarePartnersTable>

/** The paragraphs of the words are separated by a blank line; the last is the box's label. */
export const paragraphSeparator = '\n\n'

/** The agency's number as E.164: any valid US number (toll-free ones included). */
export function agencyPhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, 'US')
  if (!parsed?.isValid() || parsed.country !== 'US') return null
  return parsed.number
}

/** `(503) 555-0100`. */
export function usPhone(e164: string) {
  return parsePhoneNumberFromString(e164, 'US')?.formatNational() ?? e164
}

/**
 * The words a member agrees to, exactly as the page shows them (paragraphs separated by a blank
 * line, the box's label last), for this agency's details, in `language`, of `version`.
 */
export function disclosureText(partner: Pick<PartnerRow, 'name' | 'license' | 'phone' | 'disclaimer' | 'organization_count' | 'plan_count' | 'callback_days'>, language: Language, version = MEDICARE_CONSENT_VERSION) {
  const t = medicareT(language)
  const key = (name: string) => `disclosure.${version}.${name}`
  const agency = partner.name
  return [
    t(key('share'), { agency, license: partner.license }),
    t(key('call'), { agency, phone: usPhone(partner.phone), count: partner.callback_days }),
    t(key('stop'), { agency }),
    t(key('notRequired')),
    t(key('notGovernment')),
    t(key('tpmo'), { agency, count: partner.organization_count, plans: partner.plan_count }),
    t(key('agencyDisclaimer'), { agency, disclaimer: partner.disclaimer }),
    t(key('agree'), { agency }),
  ].join(paragraphSeparator)
}

/** The language of the words: asked for, else the request's Accept-Language, else the member's own, else English. */
export function wordsLanguage(asked: Language | undefined, acceptLanguage: string | undefined, caller: Pick<User, 'locale'>): Language {
  return asked ?? languageFromAcceptHeader(acceptLanguage ?? null) ?? caller.locale ?? 'en'
}

/** Only the member: never while the team views Circle 55 as them (the policy refuses these calls first). */
function requireTheMember(caller: User) {
  requirePermission(caller, 'manage:medicare_consent')
  if ((caller as RequestCaller).impersonator_id) throw impersonationRefused()
}

/**
 * The `medicare-calls` feature flag (migration 0044), on unless an admin narrows it, evaluated for
 * the member: off, nothing is offered to them (as when no agency is) and a new consent is refused.
 * It only ever gates offering. A consent in force is still shown and stopped, the agency's list
 * still holds it, and a STOP text or deleting the account still ends it: never put a stop behind
 * this flag (decision 086: revocation by any reasonable means, honoured at once).
 */
export const medicareCallsFlag = 'medicare-calls'

/** The agency named now (retired ones are kept for the record), or undefined. */
function currentPartner(db: DB | Trx) {
  return db.selectFrom('medicare_partners').selectAll().where('retired_at', 'is', null)
}

function partnerJson(row: PartnerRow): MedicarePartner {
  return { id: row.id, name: row.name, license: row.license, phone: row.phone, formatted_phone: usPhone(row.phone), callback_days: row.callback_days }
}

/** The consents not stopped, with their agency. */
const consentsInForce = (db: DB | Trx) =>
  db
    .selectFrom('medicare_consents as c')
    .innerJoin('medicare_partners as p', 'p.id', 'c.partner_id')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('medicare_consent_revocations as r').select(sql`1`.as('one')).whereRef('r.consent_id', '=', 'c.id'))))

const notOffered = () => problems.conflict('medicare_not_offered', 'No agency is offered at the moment; nothing was recorded.')

/** The member's consent in force, if any. */
async function consentOf(db: DB | Trx, userId: string): Promise<MedicareConsent | null> {
  const row = await consentsInForce(db)
    .select(['c.id', 'c.phone', 'c.topics', 'c.text_version', 'c.locale', 'c.text_shown', 'c.created_at', 'p.id as partner_id', 'p.name as partner_name', 'p.phone as partner_phone'])
    .where('c.user_id', '=', userId)
    .orderBy('c.created_at', 'desc')
    .executeTakeFirst()
  if (!row || row.phone === null) return null
  return {
    id: row.id,
    partner: { id: row.partner_id, name: row.partner_name, formatted_phone: usPhone(row.partner_phone) },
    phone: row.phone,
    formatted_phone: usPhone(row.phone),
    topics: orderedTopics(row.topics),
    version: row.text_version,
    locale: row.locale,
    text: row.text_shown,
    given_at: row.created_at.toISOString(),
  }
}

const orderedTopics = (topics: readonly string[]) => medicareTopics.filter((topic) => topics.includes(topic))

/** The agency offered to the caller now: the current one if active and the `medicare-calls` flag is on for them. */
async function offeredPartner(db: DB, caller: User) {
  if (!(await isOn(db, caller, medicareCallsFlag, true))) return undefined
  return currentPartner(db).where('active', '=', true).executeTakeFirst()
}

/** `GET v1/users/me/medicare`: the member's consent in force, and the words they would agree to now (none when no agency is offered). */
export async function medicareState(db: DB, caller: User, language: Language): Promise<MedicareState> {
  requirePermission(caller, 'manage:medicare_consent')
  const [consent, partner] = await Promise.all([consentOf(db, caller.id), offeredPartner(db, caller)])
  return {
    consent,
    offer: partner
      ? {
          partner: partnerJson(partner),
          version: MEDICARE_CONSENT_VERSION,
          partner_revision: partner.revision,
          locale: language,
          text: disclosureText(partner, language),
          agency_disclaimer: partner.disclaimer,
        }
      : null,
  }
}

export interface GiveConsentInput {
  phone: string
  topics: MedicareTopic[]
  version: string
  partner_revision: number
  page?: string
  user_agent?: string
}

/**
 * `POST v1/users/me/medicare`: the member agrees to the words they were shown (the version and
 * the agency's revision they name must still be the ones offered: 409 `medicare_words_changed`
 * otherwise). One consent in force at a time (409 `medicare_consent_in_force`).
 */
export async function giveMedicareConsent(db: DB, caller: User, input: GiveConsentInput, language: Language): Promise<MedicareState> {
  requireTheMember(caller)
  const phone = memberPhone(input.phone)
  if (!phone) throw problems.invalid({ phone: ['phone_invalid'] })
  const topics = orderedTopics([...new Set(input.topics)])
  // The flag off for the caller: nothing is offered, refused as when no agency is.
  if (!(await isOn(db, caller, medicareCallsFlag, true))) throw notOffered()
  await db.transaction().execute(async (trx) => {
    // One agreement at a time per member: two presses at once make one consent.
    await sql`SELECT pg_advisory_xact_lock(hashtext('medicare-consent'), hashtext(${caller.id}))`.execute(trx)
    const partner = await currentPartner(trx).where('active', '=', true).forShare().executeTakeFirst()
    if (!partner) throw notOffered()
    if (input.version !== MEDICARE_CONSENT_VERSION || input.partner_revision !== partner.revision) {
      throw problems.conflict('medicare_words_changed', 'The words or the agency’s details changed since they were shown; show them again.')
    }
    if (await consentOf(trx, caller.id)) throw problems.conflict('medicare_consent_in_force', 'This member’s permission is already in force; stop it first to give a new one.')
    await trx
      .insertInto('medicare_consents')
      .values({
        user_id: caller.id,
        partner_id: partner.id,
        partner_revision: partner.revision,
        phone,
        phone_last4: phone.slice(-4),
        topics,
        text_version: MEDICARE_CONSENT_VERSION,
        text_shown: disclosureText(partner, language),
        locale: language,
        method: input.page ? 'web_form' : 'api',
        page: input.page ?? null,
        user_agent: input.user_agent ?? null,
      })
      .execute()
  })
  return medicareState(db, caller, language)
}

/**
 * Ends the consents in force that `pick` picks, in `trx`, recording how, and emails each one's
 * agency its stop notice in the same transaction (./stop-notices.ts).
 */
async function revokeWhere(deps: Omit<StopNoticeDeps, 'db'>, trx: Trx, method: MedicareRevocationMethod, pick: { userId?: string; phone?: string }) {
  let query = consentsInForce(trx).select('c.id')
  if (pick.userId) query = query.where('c.user_id', '=', pick.userId)
  if (pick.phone) query = query.where('c.phone', '=', pick.phone)
  const ids = (await query.execute()).map((row) => row.id)
  if (ids.length === 0) return 0
  const inserted = await trx
    .insertInto('medicare_consent_revocations')
    .values(ids.map((consent_id) => ({ consent_id, method })))
    .onConflict((conflict) => conflict.column('consent_id').doNothing())
    .returning('consent_id')
    .execute()
  await queueStopNotices(deps, trx, inserted.map((row) => row.consent_id))
  return inserted.length
}

/**
 * `DELETE v1/users/me/medicare`: "Stop these calls", at once and in one step, the agency emailed.
 * Nothing in force: nothing to do. Never behind the `medicare-calls` flag: a member must always be
 * able to stop what they agreed to.
 */
export async function revokeMedicareConsent(deps: StopNoticeDeps, caller: User): Promise<{ stopped: number }> {
  requireTheMember(caller)
  const stopped = await deps.db.transaction().execute((trx) => revokeWhere(deps, trx, 'member', { userId: caller.id }))
  return { stopped }
}

/** A STOP texted from `phone` (api/sms/service.ts) ends every consent in force that names that number; each agency is emailed. */
export async function revokeMedicareConsentsForPhone(deps: StopNoticeDeps, phone: string) {
  return deps.db.transaction().execute((trx) => revokeWhere(deps, trx, 'sms_stop', { phone }))
}

/**
 * Deleting an account (api/users/account.ts, in its transaction): the consents in force end
 * (`account_deleted`) and their agencies are emailed (with the name and number the record still
 * holds: before anything is blanked), then every consent of the member is blanked (phone, topics,
 * browser); the words agreed to, the agency, the times and the number's last four digits stay as
 * evidence.
 */
export async function endMedicareConsentsOfDeletedAccount(deps: Omit<StopNoticeDeps, 'db'>, trx: Trx, userId: string) {
  await revokeWhere(deps, trx, 'account_deleted', { userId })
  await trx
    .updateTable('medicare_consents')
    .set({ phone: null, topics: [], user_agent: null, erased_at: new Date() })
    .where('user_id', '=', userId)
    .where('erased_at', 'is', null)
    .execute()
}

// The team ----------------------------------------------------------------------------------------

function adminPartnerJson(row: PartnerRow): AdminMedicarePartner {
  return {
    ...partnerJson(row),
    disclaimer: row.disclaimer,
    organization_count: row.organization_count,
    plan_count: row.plan_count,
    active: row.active,
    revision: row.revision,
    notices_email: row.notices_email,
    updated_at: row.updated_at.toISOString(),
  }
}

async function countInForce(db: DB | Trx, partnerId: string) {
  const row = await consentsInForce(db)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('c.partner_id', '=', partnerId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** `GET v1/admin/medicare/partner`: the agency named now (or none), how many consents to it are in force, and the stops it was emailed. */
export async function adminMedicare(db: DB, caller: User): Promise<AdminMedicare> {
  requirePermission(caller, 'manage:medicare_partner')
  const partner = await currentPartner(db).executeTakeFirst()
  if (!partner) return { partner: null, consents_in_force: 0, stop_notices: { last_30_days: 0, not_delivered: 0 } }
  const [inForce, stopNotices] = await Promise.all([countInForce(db, partner.id), stopNoticeCounts(db, partner.id)])
  return { partner: adminPartnerJson(partner), consents_in_force: inForce, stop_notices: stopNotices }
}

async function audit(trx: Trx, caller: User, action: string, partnerId: string, data: Record<string, unknown>, requestId: string | null) {
  await trx
    .insertInto('audit_log')
    .values({ actor_id: caller.id, impersonator_id: (caller as RequestCaller).impersonator_id ?? null, action, target_type: 'medicare_partner', target_id: partnerId, data: JSON.stringify(data), request_id: requestId })
    .execute()
}

const detailsOf = (row: Pick<PartnerRow, 'name' | 'license' | 'phone' | 'disclaimer' | 'organization_count' | 'plan_count' | 'callback_days' | 'active'>) => ({
  name: row.name,
  license: row.license,
  phone: row.phone,
  disclaimer: row.disclaimer,
  organization_count: row.organization_count,
  plan_count: row.plan_count,
  callback_days: row.callback_days,
  active: row.active,
})

/**
 * `PUT v1/admin/medicare/partner`: names the agency (the first time, or `new_agency`: the current
 * one is retired and no consent passes to the new one) or changes its details (its revision goes
 * up when they change, so members who read the old words are asked to read them again; its
 * stop-notice address is not in the words, so changing only that does not). Audited.
 */
export async function saveMedicarePartner(db: DB, caller: User, body: MedicarePartnerBody, requestId: string | null): Promise<AdminMedicare> {
  requirePermission(caller, 'manage:medicare_partner')
  const phone = agencyPhone(body.phone)
  if (!phone) throw problems.invalid({ phone: ['phone_invalid'] })
  const details = detailsOf({ ...body, phone })
  const noticesEmail = body.notices_email
  await db.transaction().execute(async (trx) => {
    const now = new Date()
    const current = await currentPartner(trx).forUpdate().executeTakeFirst()
    if (current && !body.new_agency) {
      const before = { ...detailsOf(current), notices_email: current.notices_email }
      const after = { ...details, notices_email: noticesEmail }
      if (JSON.stringify(before) === JSON.stringify(after)) return
      const wordsChanged = JSON.stringify(detailsOf(current)) !== JSON.stringify(details)
      const revision = wordsChanged ? current.revision + 1 : current.revision
      await trx
        .updateTable('medicare_partners')
        .set({ ...after, revision, updated_by: caller.id, updated_at: now })
        .where('id', '=', current.id)
        .execute()
      await audit(trx, caller, 'medicare.partner.update', current.id, { before, after, revision }, requestId)
      return
    }
    if (current) {
      await trx.updateTable('medicare_partners').set({ retired_at: now, active: false, updated_by: caller.id, updated_at: now }).where('id', '=', current.id).execute()
      await audit(trx, caller, 'medicare.partner.retire', current.id, { name: current.name }, requestId)
    }
    const created = await trx
      .insertInto('medicare_partners')
      .values({ ...details, notices_email: noticesEmail, created_by: caller.id, updated_by: caller.id })
      .returning('id')
      .executeTakeFirstOrThrow()
    await audit(trx, caller, 'medicare.partner.create', created.id, { after: { ...details, notices_email: noticesEmail }, replaces: current?.id ?? null }, requestId)
  })
  return adminMedicare(db, caller)
}

/**
 * `GET v1/admin/medicare/export`: the agency's list, only members whose consent to the current
 * agency is in force (not deleted, not banned), with only what the words name: name, phone,
 * topics, language, and which consent (reference, version, time). Each download is written to
 * `audit_log` with the consents it held.
 */
export async function exportMedicareConsents(db: DB, caller: User, requestId: string | null, format: 'csv' | 'json'): Promise<MedicareExportRow[]> {
  requirePermission(caller, 'export:medicare_consents')
  return db.transaction().execute(async (trx) => {
    const partner = await currentPartner(trx).executeTakeFirst()
    if (!partner) throw problems.conflict('medicare_not_offered', 'No agency is named: there is no list to send.')
    const rows = await consentsInForce(trx)
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.created_at', 'c.text_version', 'c.phone', 'c.topics', 'c.locale', 'u.first_name', 'u.last_name'])
      .where('c.partner_id', '=', partner.id)
      .where('c.phone', 'is not', null)
      .where('u.state', '!=', 'deleted')
      .where('u.banned', '=', false)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute()
    const list = rows.map((row) => ({
      consent_id: row.id,
      given_at: row.created_at.toISOString(),
      version: row.text_version,
      first_name: row.first_name ?? '',
      last_name: row.last_name ?? '',
      phone: row.phone!,
      topics: orderedTopics(row.topics),
      language: row.locale,
    }))
    await audit(trx, caller, 'medicare.export', partner.id, { format, count: list.length, consent_ids: list.map((row) => row.consent_id) }, requestId)
    return list
  })
}

/**
 * The list as a CSV file (topics separated by `;`). What members typed (their names) has leading
 * formula characters neutralised; the phone number is E.164 as checked here, its `+` kept.
 */
export function exportCsv(rows: MedicareExportRow[]) {
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  const header = ['consent_id', 'given_at', 'version', 'first_name', 'last_name', 'phone', 'topics', 'language']
  const lines = rows.map((row) => [row.consent_id, row.given_at, row.version, cell(row.first_name), cell(row.last_name), row.phone, row.topics.join(';'), row.language].join(','))
  return [header.join(','), ...lines].join('\r\n') + '\r\n'
}
