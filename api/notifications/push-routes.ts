import { createRoute } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import { deviceSchema, pushKeySchema, registerDeviceSchema, unregisterDeviceSchema } from '#contract/push.ts'
import { requirePermission } from '../policy/permissions.ts'
import { loadVapidKeys } from '../secrets.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { registerDevice, unregisterDevice } from './push.ts'

/** Web push registration (spec §7 `PUT v1/notifications/register-device`, decision 048): the caller's own browsers only. */
export function pushRoutes(routes: ApiRoutes) {
  const tags = ['notifications']

  const keyRoute = createRoute({
    method: 'get',
    path: '/v1/notifications/push-key',
    tags,
    security: auth.required,
    summary: 'The VAPID public key a browser subscribes with (`applicationServerKey` of `pushManager.subscribe`).',
    responses: {
      200: jsonContent('The public key', pushKeySchema),
      ...errors(auth.required),
    },
  })
  serve(routes, keyRoute, async (c) => {
    const caller = requireCaller(c)
    requirePermission(caller, 'register:device')
    const { db, env } = c.var.services
    return c.json({ public_key: (await loadVapidKeys(db, env)).publicKey })
  })

  const registerRoute = createRoute({
    method: 'put',
    path: '/v1/notifications/register-device',
    tags,
    security: auth.required,
    summary:
      'Register the caller’s browser for push: its `PushSubscription` JSON (`endpoint`, `keys.p256dh`, `keys.auth`). ' +
      'Idempotent per endpoint. An endpoint another member registered moves to the caller only with the same keys ' +
      '(the same browser, e.g. a shared computer); otherwise 409. A member keeps at most 10 browsers: one more replaces ' +
      'the one seen longest ago. `data` holds the device.',
    request: { body: jsonBody(registerDeviceSchema) },
    responses: {
      200: jsonContent('The registered device', oneOf(deviceSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        409: 'endpoint_taken (another member registered this endpoint, with other keys)',
        422: 'endpoint_invalid (not https), key_invalid (keys.p256dh not a 65-byte key), auth_invalid (not a 16-byte secret)',
      }),
    },
  })
  serve(routes, registerRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, registerRoute)
    const { db, env } = c.var.services
    return c.json({ data: [await registerDevice(db, env, caller, input)] as [typeof deviceSchema._output] })
  })

  const unregisterRoute = createRoute({
    method: 'delete',
    path: '/v1/notifications/register-device',
    tags,
    security: auth.required,
    summary: 'Stop pushing to one of the caller’s browsers (answers 204, also when it was not registered).',
    request: { body: jsonBody(unregisterDeviceSchema) },
    responses: {
      204: { description: 'The browser gets no more pushes' },
      ...errors(auth.required, { ...jsonBodyErrors, 422: 'endpoint_invalid' }),
    },
  })
  serve(routes, unregisterRoute, async (c) => {
    const caller = requireCaller(c)
    const input = await readJson(c, unregisterRoute)
    await unregisterDevice(c.var.services.db, caller, input)
    return c.body(null, 204)
  })
}
