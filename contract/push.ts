import { z } from 'zod'

/**
 * Web push (issue 15 §3, spec §7 `PUT v1/notifications/register-device`, decision 048): a
 * browser's push subscription as `PushSubscription.toJSON()` gives it, and the VAPID public key
 * the browser subscribes with.
 */

const base64url = (bytes: number, code: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, code)
    .refine((value) => {
      const digits = value.replace(/=+$/, '').length
      return digits % 4 !== 1 && Math.floor((digits * 3) / 4) === bytes
    }, code)

/** Where the push service takes our pushes for this browser: https (or, for tests on this machine, http://localhost). */
export const pushEndpointSchema = z
  .string()
  .max(2048, 'endpoint_invalid')
  .refine((value) => {
    if (!URL.canParse(value)) return false
    const url = new URL(value)
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
  }, 'endpoint_invalid')
  .meta({ description: 'The push service’s address for this browser (https).' })

export const registerDeviceSchema = z
  .object({
    endpoint: pushEndpointSchema,
    keys: z
      .object({
        p256dh: base64url(65, 'key_invalid').meta({ description: 'The browser’s P-256 public key (65 bytes, base64url).' }),
        auth: base64url(16, 'auth_invalid').meta({ description: 'The browser’s authentication secret (16 bytes, base64url).' }),
      })
      .strict(),
    /** Only browsers for now; native apps come later. */
    kind: z.enum(['web_push']).default('web_push'),
    /** `PushSubscription.toJSON()` also carries this; it is not kept (push services expire subscriptions themselves). */
    expirationTime: z.number().nullable().optional(),
  })
  .strict()
  .meta({ id: 'RegisterDevice', description: 'A browser’s PushSubscription JSON, and optionally its kind.' })
export type RegisterDevice = z.input<typeof registerDeviceSchema>

export const unregisterDeviceSchema = z
  .object({ endpoint: pushEndpointSchema })
  .strict()
  .meta({ id: 'UnregisterDevice' })
export type UnregisterDevice = z.infer<typeof unregisterDeviceSchema>

export const deviceSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['web_push']),
    endpoint: z.string(),
    last_seen_at: z.string(),
  })
  .meta({ id: 'Device', description: 'A browser that receives the caller’s push notifications.' })
export type Device = z.infer<typeof deviceSchema>

export const pushKeySchema = z
  .object({ public_key: z.string().meta({ description: 'The VAPID public key (base64url): `applicationServerKey` for `pushManager.subscribe`.' }) })
  .meta({ id: 'PushKey' })
export type PushKey = z.infer<typeof pushKeySchema>
