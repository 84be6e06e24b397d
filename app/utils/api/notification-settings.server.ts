import {
  deviceListSchema,
  globalSettingsSchema,
  workflowSettingsSchema,
  unsubscribeSchema,
  type GlobalSettings,
  type UpdateGlobalSettings,
  type UpdateWorkflowSettings,
  type WorkflowSettings,
} from '#contract/notification-settings.ts'
import { oneOf } from '#contract/common.ts'
import type { ApiTransport } from '../api.server.ts'

/** Notification settings (spec §7, decision 044): the only code that knows their paths. */
export function notificationSettingsClient(api: ApiTransport) {
  return {
    /** The member's channel switches (email subscription, push allowed, in-app, texts). */
    global: (): Promise<GlobalSettings> =>
      api.json('GET', 'v1/notifications/settings/global', globalSettingsSchema),
    updateGlobal: (body: UpdateGlobalSettings): Promise<GlobalSettings> =>
      api.json('PUT', 'v1/notifications/settings/global', globalSettingsSchema, { body }),
    /** Every topic with the member's channels for it. */
    workflow: (): Promise<WorkflowSettings> =>
      api.json('GET', 'v1/notifications/settings/workflow', workflowSettingsSchema),
    updateWorkflow: (body: UpdateWorkflowSettings): Promise<WorkflowSettings> =>
      api.json('PUT', 'v1/notifications/settings/workflow', workflowSettingsSchema, { body }),
    /** How many of the member's phones and computers are set up for alerts (web push). */
    devices: async (): Promise<number> =>
      (await api.json('GET', 'v1/notifications/devices', deviceListSchema)).data.length,
    /** The topic an email's one-click link stops (no sign-in: the link is the credential). */
    unsubscribeTopic: async (token: string) =>
      (await api.json('GET', `v1/notifications/unsubscribe/${encodeURIComponent(token)}`, oneOf(unsubscribeSchema))).data[0].topic,
    unsubscribe: async (token: string) =>
      (await api.json('POST', `v1/notifications/unsubscribe/${encodeURIComponent(token)}`, oneOf(unsubscribeSchema))).data[0].topic,
  }
}
