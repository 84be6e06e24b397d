import { createRoute } from '@hono/zod-openapi'
import { listOf, oneOf } from '#contract/common.ts'
import { evaluatedFlagsSchema, featureFlagBodySchema, featureFlagSchema, flagProviderInfoSchema } from '#contract/flags.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, pathParams, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { evaluatedFlags, flagProviderInfo, listFlags, saveFlag } from './service.ts'

/** Feature flags (issue 32 §3, decision 079): the caller's values, and the admins' editing. */
export function flagRoutes(routes: ApiRoutes) {
  const tags = ['flags']

  const mineRoute = createRoute({
    method: 'get',
    path: '/v1/flags',
    tags,
    security: auth.optional,
    summary: 'Every feature flag’s value for the caller (a visitor without a token too), evaluated on the server: `{ key: { on, variant } }`.',
    responses: { 200: jsonContent('The flags', oneOf(evaluatedFlagsSchema)), ...errors(auth.optional) },
  })
  serve(routes, mineRoute, async (c) => c.json({ data: [await evaluatedFlags(c.var.services.db, c.var.caller)] }))

  const providerRoute = createRoute({
    method: 'get',
    path: '/v1/admin/flag-provider',
    tags,
    security: auth.required,
    summary: 'Where the feature flags live (`manage:flags`, decision 080): `builtin` (edited here) or a vendor (`growthbook`, edited there), whether it could be read, and the keys it defines.',
    responses: { 200: jsonContent('The flag provider', oneOf(flagProviderInfoSchema)), ...errors(auth.required, { 403: 'Not an admin (code forbidden)' }) },
  })
  serve(routes, providerRoute, async (c) => c.json({ data: [await flagProviderInfo(c.var.services.db, requireCaller(c))] }))

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/admin/flags',
    tags,
    security: auth.required,
    summary: 'Every feature flag as admins edit it (`manage:flags`); refused while a vendor holds them (FLAGS_PROVIDER, decision 080).',
    responses: {
      200: jsonContent('The flags', listOf(featureFlagSchema)),
      ...errors(auth.required, { 403: 'Not an admin (code forbidden)', 409: 'The flags are edited at the vendor, FLAGS_PROVIDER (code flags_managed_by_vendor)' }),
    },
  })
  serve(routes, listRoute, async (c) => c.json({ data: await listFlags(c.var.services.db, requireCaller(c)) }))

  const saveRoute = createRoute({
    method: 'put',
    path: '/v1/admin/flags/{key}',
    tags,
    security: auth.required,
    summary: 'Create or change a feature flag (`manage:flags`; audited with its value before and after). It holds on this server at once, on others within seconds. `data` holds the flag.',
    request: { params: pathParams('key'), body: jsonBody(featureFlagBodySchema) },
    responses: {
      200: jsonContent('The flag', oneOf(featureFlagSchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 403: 'Not an admin (code forbidden)', 409: 'The flags are edited at the vendor, FLAGS_PROVIDER (code flags_managed_by_vendor)', 422: 'key_invalid, description_too_long, rollout_invalid, variant_invalid, role_invalid, region_invalid, language_invalid' }),
    },
  })
  serve(routes, saveRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, saveRoute)
    return c.json({ data: [await saveFlag(c.var.services.db, caller, c.req.param('key'), body, c.var.requestId)] })
  })
}
