import { deviceSchema, pushKeySchema, type Device, type RegisterDevice } from '#contract/push.ts'
import type { ApiTransport } from '../api.server.ts'

/** Web push registration (spec §7 `v1/notifications/register-device`, decision 048): the only code that knows its paths. */
export function pushClient(api: ApiTransport) {
  return {
    /** The VAPID public key the browser subscribes with. */
    key: async (): Promise<string> => (await api.json('GET', 'v1/notifications/push-key', pushKeySchema)).public_key,
    /** Keeps this browser's push subscription for the member. */
    register: (body: RegisterDevice): Promise<Device> => api.one('PUT', 'v1/notifications/register-device', deviceSchema, { body }),
    /** Stops pushing to this browser. */
    unregister: (endpoint: string): Promise<void> => api.empty('DELETE', 'v1/notifications/register-device', { body: { endpoint } }),
  }
}
