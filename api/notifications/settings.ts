import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { requirePermission } from '../policy/permissions.ts'
import {
  type DeviceList,
  notificationChannels,
  notificationTopics,
  topicTriggers,
  type GlobalSettings,
  type UpdateGlobalSettings,
  type UpdateWorkflowSettings,
  type WorkflowSettings,
} from '#contract/notification-settings.ts'
import { globalSwitches, topicSwitches } from './preferences.ts'

/**
 * `GET/PUT v1/notifications/settings/global` and `…/workflow` (spec §7, decision 044): always
 * the caller's own settings. A PUT stores each choice the member sent, even one equal to today's
 * default, so a later change of defaults never overrides what the member chose.
 */

export async function getGlobalSettings(db: DB, caller: User): Promise<GlobalSettings> {
  requirePermission(caller, 'read:notification_settings')
  return { global: { channels: await globalSwitches(db, caller.id) } }
}

export async function updateGlobalSettings(
  db: DB,
  caller: User,
  input: UpdateGlobalSettings,
): Promise<GlobalSettings> {
  requirePermission(caller, 'update:notification_settings')
  await db
    .insertInto('notification_global_settings')
    .values(
      input.preferences.map((entry) => ({
        user_id: caller.id,
        channel: entry.type,
        enabled: entry.enabled,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'channel'])
        .doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
    )
    .execute()
  return getGlobalSettings(db, caller)
}

export async function getWorkflowSettings(db: DB, caller: User): Promise<WorkflowSettings> {
  requirePermission(caller, 'read:notification_settings')
  const topics = await topicSwitches(db, caller.id)
  return {
    workflow: {
      settings: notificationTopics.map((topic) => ({
        template_id: topic,
        trigger: topicTriggers[topic],
        preference: { channels: topics[topic] },
      })),
    },
  }
}

export async function updateWorkflowSettings(
  db: DB,
  caller: User,
  input: UpdateWorkflowSettings,
): Promise<WorkflowSettings> {
  requirePermission(caller, 'update:notification_settings')
  const values = input.settings.flatMap((setting) =>
    notificationChannels.flatMap((channel) => {
      const enabled = setting.preference.channels[channel]
      return enabled === undefined
        ? []
        : [{ user_id: caller.id, template_id: setting.template_id, channel, enabled }]
    }),
  )
  if (values.length > 0) {
    await db
      .insertInto('notification_workflow_settings')
      .values(values)
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'template_id', 'channel'])
          .doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
      )
      .execute()
  }
  return getWorkflowSettings(db, caller)
}

/**
 * `GET v1/notifications/devices`: the caller's browsers set up for alerts, newest first, without
 * their push addresses (issue 29 §4: the settings page says whether alerts are set up at all).
 */
export async function listDevices(db: DB, caller: User): Promise<DeviceList> {
  requirePermission(caller, 'read:notification_settings')
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'last_seen_at'])
    .where('user_id', '=', caller.id)
    .where('kind', '=', 'web_push')
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .execute()
  return { data: rows.map((row) => ({ id: row.id, kind: 'web_push', last_seen_at: row.last_seen_at.toISOString() })) }
}
