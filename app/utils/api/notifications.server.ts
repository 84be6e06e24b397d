import { pageOf } from '#contract/common.ts'
import { notificationSchema, type Notification } from '#contract/notifications.ts'
import type { ApiTransport } from '../api.server.ts'

/** In-app notifications (spec §7 `users/notifications`, decision 043): the only code that knows their paths. */
export function notificationsClient(api: ApiTransport) {
  return {
    /** A page of the member's notifications, newest first. */
    list: (page = 1) => api.json('GET', 'users/notifications', pageOf(notificationSchema), { query: { page } }),
    /** Marks one seen; answers it (with its link). */
    markSeen: (id: string): Promise<Notification> => api.one('PUT', `users/notifications/${encodeURIComponent(id)}/seen`, notificationSchema),
    markAllSeen: () => api.empty('PUT', 'users/notifications/seen'),
  }
}
