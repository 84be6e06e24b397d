import {
  globalSettingsSchema,
  workflowSettingsSchema,
  type GlobalSettings,
  type UpdateGlobalSettings,
  type UpdateWorkflowSettings,
  type WorkflowSettings,
} from '#contract/notification-settings.ts'
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
  }
}
