import { z } from 'zod'
import { languages } from './enums.ts'
import { maxEmailLength } from './limits.ts'
import { hasControlCharacters } from './input-validation.ts'
import { medicarePagePattern, medicarePartnerLimits, medicareTopics } from './medicare-rules.ts'

/**
 * Permission to be called about Medicare plans (spec §3 "Medicare registration: phone, permission
 * to contact, coverage types"; issue 33 §2; decision 086). One licensed insurance agency, named by
 * the team, may call the members who agreed, about the topics they chose; each agreement is kept
 * as given (the words shown, their version, the agency, the phone number, when) and ends, at
 * once, when the member says stop. The rules without zod are in `medicare-rules.ts`.
 */
export * from './medicare-rules.ts'

const topicsSchema = z.array(z.enum(medicareTopics, { error: 'topics_invalid' }), { error: 'topics_required' })

/** The agency as a member is told about it. */
export const medicarePartnerSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    license: z.string().meta({ description: 'Its license number(s) and the states it is licensed in, as the team wrote them.' }),
    phone: z.string().meta({ description: 'The number it calls from (E.164).' }),
    formatted_phone: z.string().meta({ description: 'The same number as people write it in the US (`(503) 555-0100`).' }),
    callback_days: z.number().int().meta({ description: 'It calls within this many business days.' }),
  })
  .meta({ id: 'MedicarePartner' })
export type MedicarePartner = z.infer<typeof medicarePartnerSchema>

/** A consent in force: what the member agreed to, when, and to whom. */
export const medicareConsentSchema = z
  .object({
    id: z.uuid(),
    partner: z.object({ id: z.uuid(), name: z.string(), formatted_phone: z.string() }),
    phone: z.string().meta({ description: 'The number the agency may call (E.164).' }),
    formatted_phone: z.string(),
    topics: z.array(z.enum(medicareTopics)),
    version: z.string().meta({ description: 'The version of the words agreed to.' }),
    locale: z.enum(languages),
    text: z.string().meta({ description: 'The words agreed to, exactly as shown (paragraphs separated by a blank line).' }),
    given_at: z.string().meta({ description: 'When (ISO 8601).' }),
  })
  .meta({ id: 'MedicareConsent' })
export type MedicareConsent = z.infer<typeof medicareConsentSchema>

/** `GET v1/users/me/medicare`: the member's consent in force, and what they would agree to now. */
export const medicareStateSchema = z
  .object({
    consent: medicareConsentSchema.nullable().meta({ description: 'The consent in force; null when none (never given, or stopped).' }),
    offer: z
      .object({
        partner: medicarePartnerSchema,
        version: z.string().meta({ description: 'Send it back unchanged with the agreement.' }),
        partner_revision: z.number().int().meta({ description: 'The agency details’ revision the words name; send it back unchanged.' }),
        locale: z.enum(languages),
        text: z.string().meta({ description: 'The words to show next to the box, exactly (paragraphs separated by a blank line); the last paragraph is the box’s label.' }),
        agency_disclaimer: z.string().meta({ description: 'The agency’s own disclaimer, also inside `text`.' }),
      })
      .nullable()
      .meta({ description: 'What a member may agree to now; null when no agency is offered (none configured, or paused).' }),
  })
  .meta({ id: 'MedicareState' })
export type MedicareState = z.infer<typeof medicareStateSchema>

/** `GET v1/users/me/medicare?locale=`: the words in this language (the request's Accept-Language otherwise). */
export const medicareStateQuerySchema = z.object({ locale: z.enum(languages, { error: 'locale_invalid' }).optional() })

/** `POST v1/users/me/medicare`: the member agrees, with the box ticked, to the words they were shown. */
export const giveMedicareConsentBodySchema = z
  .object({
    phone: z
      .string({ error: 'phone_required' })
      .trim()
      .min(1, 'phone_required')
      .max(40, 'phone_invalid')
      .meta({ description: 'A US phone number (any usual way of writing it); checked with libphonenumber-js.' }),
    topics: topicsSchema.min(1, 'topics_required').max(medicareTopics.length, 'topics_invalid').meta({ description: 'At least one topic.' }),
    agree: z.literal(true, { error: 'agree_required' }).meta({ description: 'The box was ticked (it is never ticked for the member).' }),
    version: z.string({ error: 'version_required' }).max(100, 'version_required').meta({ description: 'The `offer.version` shown.' }),
    partner_revision: z.number({ error: 'partner_revision_required' }).int('partner_revision_required').meta({ description: 'The `offer.partner_revision` shown.' }),
    locale: z.enum(languages, { error: 'locale_invalid' }).optional().meta({ description: 'The language the words were shown in (the request’s Accept-Language otherwise).' }),
    page: z.string().regex(medicarePagePattern, 'page_invalid').optional().meta({ description: 'The page of the web app it was given on (`/account/medicare`): recorded, and the method is then `web_form`.' }),
    user_agent: z.string().max(500, 'user_agent_invalid').optional().meta({ description: 'The member’s browser, as the web app received it: recorded.' }),
  })
  .meta({ id: 'GiveMedicareConsent' })
export type GiveMedicareConsentBody = z.input<typeof giveMedicareConsentBodySchema>

const plainText = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .refine((value) => !hasControlCharacters(value, { multiline: true }) && !/[<>]/.test(value), 'text_invalid')

const count = (code: string) => z.number({ error: code }).int(code).min(medicarePartnerLimits.count.min, code).max(medicarePartnerLimits.count.max, code)

/** `PUT v1/admin/medicare/partner`: the agency's details, as the team types them. */
export const medicarePartnerBodySchema = z
  .object({
    name: plainText(medicarePartnerLimits.name, 'name_required', 'name_too_long'),
    license: plainText(medicarePartnerLimits.license, 'license_required', 'license_too_long'),
    phone: z.string({ error: 'phone_required' }).trim().min(1, 'phone_required').max(40, 'phone_invalid').meta({ description: 'The US number it calls from.' }),
    disclaimer: plainText(medicarePartnerLimits.disclaimer, 'disclaimer_required', 'disclaimer_too_long').meta({ description: 'Its own disclaimer, shown with the words members agree to.' }),
    organization_count: count('organization_count_invalid').meta({ description: 'How many organizations it represents (the TPMO disclaimer, 42 CFR 422.2267(e)(41)).' }),
    plan_count: count('plan_count_invalid').meta({ description: 'How many plans (products) those offer in the members’ areas.' }),
    callback_days: z
      .number({ error: 'callback_days_invalid' })
      .int('callback_days_invalid')
      .min(medicarePartnerLimits.callbackDays.min, 'callback_days_invalid')
      .max(medicarePartnerLimits.callbackDays.max, 'callback_days_invalid'),
    active: z.boolean({ error: 'active_invalid' }).meta({ description: 'Offered to members now (false: paused; consents given stay in force until stopped).' }),
    notices_email: z
      .string({ error: 'notices_email_required' })
      .trim()
      .min(1, 'notices_email_required')
      .max(maxEmailLength, 'notices_email_invalid')
      .pipe(z.email({ error: 'notices_email_invalid' }))
      .meta({
        description:
          'Where the agency receives stop notices: each consent that ends (the member, a texted STOP, the account deleted) is emailed there at once, in English. Not in the words members read; changing it does not raise the revision.',
      }),
    new_agency: z
      .boolean({ error: 'new_agency_invalid' })
      .optional()
      .meta({ description: 'true: this is a different agency. The current one is retired and no consent given to it passes to the new one (each names its agency).' }),
  })
  .meta({ id: 'MedicarePartnerInput' })
export type MedicarePartnerBody = z.infer<typeof medicarePartnerBodySchema>

/** The agency as the team edits it. */
export const adminMedicarePartnerSchema = medicarePartnerSchema
  .extend({
    disclaimer: z.string(),
    organization_count: z.number().int(),
    plan_count: z.number().int(),
    active: z.boolean(),
    revision: z.number().int().meta({ description: 'Goes up with each change; the words members agree to name the revision.' }),
    notices_email: z.string().nullable().meta({ description: 'Where its stop notices go; null for an agency named before stop notices existed (no notice can go until it is set).' }),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminMedicarePartner' })
export type AdminMedicarePartner = z.infer<typeof adminMedicarePartnerSchema>

/** `GET` and `PUT v1/admin/medicare/partner`: the agency (null before the team names one), and how many consents to it are in force. */
export const adminMedicareSchema = z
  .object({
    partner: adminMedicarePartnerSchema.nullable(),
    consents_in_force: z.number().int(),
    stop_notices: z
      .object({
        last_30_days: z.number().int().meta({ description: 'Stops emailed to the current agency in the last 30 days.' }),
        not_delivered: z.number().int().meta({ description: 'Of those, the ones the mail server failed to deliver for more than a day (given up).' }),
      })
      .meta({ description: 'The stop notices sent to the current agency (decision 086).' }),
  })
  .meta({ id: 'AdminMedicare' })
export type AdminMedicare = z.infer<typeof adminMedicareSchema>

/** `GET v1/admin/medicare/export?format=`: CSV (default) or JSON. */
export const medicareExportQuerySchema = z.object({
  format: z.enum(['csv', 'json'], { error: 'format_invalid' }).optional().meta({ description: '`csv` (default) or `json`.' }),
})

/**
 * One row of the agency's list: only what the words agreed to name (name, phone, topics,
 * language) and which consent it is (its reference, version and time).
 */
export const medicareExportRowSchema = z
  .object({
    consent_id: z.uuid(),
    given_at: z.string(),
    version: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string(),
    topics: z.array(z.enum(medicareTopics)),
    language: z.enum(languages),
  })
  .meta({ id: 'MedicareExportRow' })
export type MedicareExportRow = z.infer<typeof medicareExportRowSchema>
