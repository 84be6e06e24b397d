import { createRoute } from '@hono/zod-openapi'
import {
  globalSettingsSchema,
  updateGlobalSettingsSchema,
  updateWorkflowSettingsSchema,
  workflowSettingsSchema,
} from '#contract/notification-settings.ts'
import {
  auth,
  errors,
  jsonBody,
  jsonBodyErrors,
  jsonContent,
  readJson,
  serve,
  type ApiRoutes,
} from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import {
  getGlobalSettings,
  getWorkflowSettings,
  updateGlobalSettings,
  updateWorkflowSettings,
} from './settings.ts'

/** Notification settings (spec §7, issue 15 §4, decision 044): only ever the caller's own. */
export function notificationSettingsRoutes(routes: ApiRoutes) {
  const tags = ['notifications']

  const getGlobalRoute = createRoute({
    method: 'get',
    path: '/v1/notifications/settings/global',
    tags,
    security: auth.required,
    summary:
      'The caller’s channel switches (`email`: the email subscription; `push`: push allowed), defaults included.',
    responses: {
      200: jsonContent('The caller’s global settings', globalSettingsSchema),
      ...errors(auth.required),
    },
  })
  serve(routes, getGlobalRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getGlobalSettings(c.var.services.db, caller))
  })

  const putGlobalRoute = createRoute({
    method: 'put',
    path: '/v1/notifications/settings/global',
    tags,
    security: auth.required,
    summary:
      'Turn channels on or off for the caller: a list of `type` and `enabled`; channels not listed keep their state.',
    request: { body: jsonBody(updateGlobalSettingsSchema) },
    responses: {
      200: jsonContent('The caller’s global settings after the change', globalSettingsSchema),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        422: 'preferences_required, duplicate_type, an unknown type or a non-boolean enabled',
      }),
    },
  })
  serve(routes, putGlobalRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, putGlobalRoute)
    return c.json(await updateGlobalSettings(c.var.services.db, caller, input))
  })

  const getWorkflowRoute = createRoute({
    method: 'get',
    path: '/v1/notifications/settings/workflow',
    tags,
    security: auth.required,
    summary:
      'Every topic (`template_id`) with its trigger and the caller’s channels for it, defaults included.',
    responses: {
      200: jsonContent('The caller’s settings per topic', workflowSettingsSchema),
      ...errors(auth.required),
    },
  })
  serve(routes, getWorkflowRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await getWorkflowSettings(c.var.services.db, caller))
  })

  const putWorkflowRoute = createRoute({
    method: 'put',
    path: '/v1/notifications/settings/workflow',
    tags,
    security: auth.required,
    summary:
      'Turn channels on or off per topic for the caller; topics and channels not listed keep their state.',
    request: { body: jsonBody(updateWorkflowSettingsSchema) },
    responses: {
      200: jsonContent('The caller’s settings per topic after the change', workflowSettingsSchema),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        422: 'settings_required, duplicate_template_id, an unknown topic or channel, or a non-boolean',
      }),
    },
  })
  serve(routes, putWorkflowRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, putWorkflowRoute)
    return c.json(await updateWorkflowSettings(c.var.services.db, caller, input))
  })
}
