import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { listOf, oneOf } from '#contract/common.ts'
import {
  adminMedicareSchema,
  giveMedicareConsentBodySchema,
  medicareExportQuerySchema,
  medicareExportRowSchema,
  medicarePartnerBodySchema,
  medicareStateQuerySchema,
  medicareStateSchema,
} from '#contract/medicare.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, readQuery, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import {
  adminMedicare,
  exportCsv,
  exportMedicareConsents,
  giveMedicareConsent,
  medicareState,
  revokeMedicareConsent,
  saveMedicarePartner,
  wordsLanguage,
} from './service.ts'

/**
 * Permission to be called about Medicare plans (spec §3 "Medicare registration", issue 33 §2,
 * decision 086): the member's own (see, give, stop), and the team's agency and its list.
 */
export function medicareRoutes(routes: ApiRoutes) {
  const tags = ['medicare']
  const onlyTheMember = 'While the team views Circle 55 as the member (code impersonation_refused): only the member gives or stops this'

  const stateRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/medicare',
    tags,
    security: auth.required,
    summary:
      'The caller’s permission to be called about Medicare plans: the consent in force (or null), and the words to show before agreeing, naming the one agency offered (or null when none is, or the `medicare-calls` flag is off for the caller: the consent in force is shown all the same).',
    request: { query: medicareStateQuerySchema },
    responses: {
      200: jsonContent('The consent in force and the offer', oneOf(medicareStateSchema)),
      ...errors(auth.required, { 422: 'locale_invalid' }),
    },
  })
  serve(routes, stateRoute, async (c) => {
    const caller = requireCaller(c)
    const query = readQuery(c, stateRoute)
    const language = wordsLanguage(query.locale, c.req.header('accept-language'), caller)
    return c.json({ data: [await medicareState(c.var.services.db, caller, language)] })
  })

  const giveRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/medicare',
    tags,
    security: auth.required,
    summary:
      'The caller agrees, box ticked, to the words they were shown (`version` and `partner_revision` of the offer): the agency may call them at `phone` about `topics`. Recorded with the exact words, never changed; `data` holds the new state.',
    request: { body: jsonBody(giveMedicareConsentBodySchema) },
    responses: {
      201: jsonContent('The consent in force', oneOf(medicareStateSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: onlyTheMember,
        409: 'No agency is offered, or the `medicare-calls` flag is off for the caller (code medicare_not_offered); the words or the agency’s details changed since they were shown (code medicare_words_changed); a consent is already in force (code medicare_consent_in_force)',
        422: 'phone_required, phone_invalid (not a US number a person answers), topics_required, topics_invalid, agree_required, version_required, partner_revision_required, locale_invalid, page_invalid, user_agent_invalid',
      }),
    },
  })
  serve(routes, giveRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, giveRoute)
    const language = wordsLanguage(body.locale, c.req.header('accept-language'), caller)
    return c.json({ data: [await giveMedicareConsent(c.var.services.db, caller, body, language)] }, 201)
  })

  const stopRoute = createRoute({
    method: 'delete',
    path: '/v1/users/me/medicare',
    tags,
    security: auth.required,
    summary:
      '“Stop these calls”: the caller’s consent in force ends now, in one step (recorded, never undone), and its agency is emailed a stop notice at once (decision 086). Nothing in force: nothing changes. Never behind a feature flag.',
    responses: {
      204: { description: 'Stopped (or nothing was in force)' },
      ...errors(auth.required, { 403: onlyTheMember }),
    },
  })
  serve(routes, stopRoute, async (c) => {
    await revokeMedicareConsent(c.var.services, requireCaller(c))
    return c.body(null, 204)
  })

  const notAllowed = 'Not finance or an admin (code forbidden)'
  const partnerRoute = createRoute({
    method: 'get',
    path: '/v1/admin/medicare/partner',
    tags,
    security: auth.required,
    summary:
      'The agency named now (null before the team names one), how many consents to it are in force, and how many stops it was emailed in the last 30 days (`manage:medicare_partner`: finance and admins).',
    responses: { 200: jsonContent('The agency', oneOf(adminMedicareSchema)), ...errors(auth.required, { 403: notAllowed }) },
  })
  serve(routes, partnerRoute, async (c) => c.json({ data: [await adminMedicare(c.var.services.db, requireCaller(c))] }))

  const savePartnerRoute = createRoute({
    method: 'put',
    path: '/v1/admin/medicare/partner',
    tags,
    security: auth.required,
    summary:
      'Names the agency or changes its details (`manage:medicare_partner`; audited). A change raises its revision: members who read the old words are asked to read them again. `new_agency: true` retires the current agency; no consent passes to the new one.',
    request: { body: jsonBody(medicarePartnerBodySchema) },
    responses: {
      200: jsonContent('The agency', oneOf(adminMedicareSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: notAllowed,
        422: 'name_required, name_too_long, license_required, license_too_long, phone_required, phone_invalid, disclaimer_required, disclaimer_too_long, text_invalid, organization_count_invalid, plan_count_invalid, callback_days_invalid, active_invalid, notices_email_required, notices_email_invalid, new_agency_invalid',
      }),
    },
  })
  serve(routes, savePartnerRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, savePartnerRoute)
    return c.json({ data: [await saveMedicarePartner(c.var.services.db, caller, body, c.var.requestId)] })
  })

  const exportRoute = createRoute({
    method: 'get',
    path: '/v1/admin/medicare/export',
    tags,
    security: auth.required,
    summary:
      'The agency’s list (`export:medicare_consents`: finance and admins): only members whose consent to the current agency is in force, with only what the words name (name, phone, topics, language) and which consent it is. The whole list each time: anyone not on it must not be called. Every download is written to the audit log.',
    request: { query: medicareExportQuerySchema },
    responses: {
      200: {
        description: 'The list: a CSV file (an attachment, the default) or, with `format=json`, JSON',
        content: {
          'text/csv': { schema: z.string() },
          'application/json': { schema: listOf(medicareExportRowSchema) },
        },
      },
      ...errors(auth.required, { 403: notAllowed, 409: 'No agency is named (code medicare_not_offered)', 422: 'format_invalid' }),
    },
  })
  serve(routes, exportRoute, async (c) => {
    const caller = requireCaller(c)
    const format = readQuery(c, exportRoute).format ?? 'csv'
    const rows = await exportMedicareConsents(c.var.services.db, caller, c.var.requestId, format)
    if (format === 'json') return c.json({ data: rows })
    const day = new Date().toISOString().slice(0, 10)
    return c.body(exportCsv(rows), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="medicare-calls-${day}.csv"`,
    })
  })
}
