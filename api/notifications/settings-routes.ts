import { createRoute } from '@hono/zod-openapi'
import {
  deviceListSchema,
  globalSettingsSchema,
  updateGlobalSettingsSchema,
  unsubscribeSchema,
  updateWorkflowSettingsSchema,
  workflowSettingsSchema,
} from '#contract/notification-settings.ts'
import { oneOf } from '#contract/common.ts'
import {
  auth,
  errors,
  jsonBody,
  jsonBodyErrors,
  jsonContent,
  pathParams,
  readJson,
  serve,
  type ApiRoutes,
} from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import {
  getGlobalSettings,
  getWorkflowSettings,
  listDevices,
  updateGlobalSettings,
  updateWorkflowSettings,
} from './settings.ts'
import { unsubscribe, unsubscribeTopic } from './unsubscribe.ts'

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

  const devicesRoute = createRoute({
    method: 'get',
    path: '/v1/notifications/devices',
    tags,
    security: auth.required,
    summary:
      'The caller’s phones and computers set up for alerts (web push), newest first, without their push addresses. Empty: alerts are not set up.',
    responses: {
      200: jsonContent('The caller’s devices', deviceListSchema),
      ...errors(auth.required),
    },
  })
  serve(routes, devicesRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await listDevices(c.var.services.db, caller))
  })

  // One-click unsubscribe (RFC 8058, decision 047): the link in an email is the credential.
  const unsubscribeInfoRoute = createRoute({
    method: 'get',
    path: '/v1/notifications/unsubscribe/{token}',
    tags,
    security: auth.none,
    summary: 'Which topic an email’s unsubscribe link stops (for the page that asks to confirm). No sign-in: the signed link is enough.',
    request: { params: pathParams('token') },
    responses: {
      200: jsonContent('The topic', oneOf(unsubscribeSchema)),
      ...errors(auth.none, { 404: 'The link was not made by Circle 55' }),
    },
  })
  serve(routes, unsubscribeInfoRoute, (c) => {
    const topic = unsubscribeTopic(c.var.services.codeSecret, c.req.param('token'))
    return c.json({ data: [{ topic }] as [{ topic: typeof topic }] })
  })

  const unsubscribeRoute = createRoute({
    method: 'post',
    path: '/v1/notifications/unsubscribe/{token}',
    tags,
    security: auth.none,
    summary:
      'Turn off the emails of the link’s topic for its member: what mail programs POST (`List-Unsubscribe=One-Click`, RFC 8058) and what the confirmation page sends. No sign-in; doing it twice changes nothing.',
    request: { params: pathParams('token') },
    responses: {
      200: jsonContent('The topic now off by email', oneOf(unsubscribeSchema)),
      ...errors(auth.none, { 404: 'The link was not made by Circle 55' }),
    },
  })
  serve(routes, unsubscribeRoute, async (c) => {
    const topic = await unsubscribe(c.var.services.db, c.var.services.codeSecret, c.req.param('token'))
    return c.json({ data: [{ topic }] as [{ topic: typeof topic }] })
  })
}
