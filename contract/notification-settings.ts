import { z } from 'zod'

/**
 * Notification settings (spec §3 "Notification settings", §7 `v1/notifications/settings/global`
 * and `…/workflow`, issue 15 §4, decision 044).
 *
 * - `global`: one switch per channel. The spec's topics "email subscription" and "push allowed"
 *   are the global `email` and `push` switches; `in_app` and `sms` sit beside them.
 * - `workflow`: one setting per topic (`template_id`), each with its channels. A channel reaches
 *   the member for a topic only when both the topic's channel and the global switch are on.
 */

export const notificationChannels = ['in_app', 'email', 'push', 'sms'] as const
export type NotificationChannel = (typeof notificationChannels)[number]

/** The topics of spec §3 that are per-topic settings ("email subscription" and "push allowed" are global). */
export const notificationTopics = [
  'activity_updates',
  'reminders',
  'direct_messages',
  'hosting',
  'feedback',
  'recommendations',
  'distance',
  'out_of_state',
  'product_updates',
] as const
export type NotificationTopic = (typeof notificationTopics)[number]

/** What sets each topic off (spec §3 "trigger"): the kind of event, shown to API clients. */
export const topicTriggers: Record<NotificationTopic, string> = {
  activity_updates: 'experience.changed',
  reminders: 'experience.reminder',
  direct_messages: 'message.new',
  hosting: 'experience.attendance_changed',
  feedback: 'experience.ended',
  recommendations: 'experience.recommended',
  distance: 'experience.nearby',
  out_of_state: 'experience.out_of_state',
  product_updates: 'product.update',
}

const channelSchema = z.enum(notificationChannels)
const topicSchema = z.enum(notificationTopics)

/** Every channel with whether it is on. */
export const channelSwitchesSchema = z
  .object({
    in_app: z.boolean(),
    email: z.boolean(),
    push: z.boolean(),
    sms: z.boolean(),
  })
  .meta({
    id: 'NotificationChannels',
    description: 'Channels keyed by type, each on (true) or off.',
  })
export type ChannelSwitches = z.infer<typeof channelSwitchesSchema>

/** `GET/PUT v1/notifications/settings/global`. */
export const globalSettingsSchema = z
  .object({
    global: z.object({
      channels: channelSwitchesSchema.meta({
        description:
          '`email` is the email subscription and `push` whether push is allowed (off until the member allows it on a device); `sms` is off until the member asks.',
      }),
    }),
  })
  .meta({ id: 'NotificationGlobalSettings' })
export type GlobalSettings = z.infer<typeof globalSettingsSchema>

/** `PUT v1/notifications/settings/global`: the channels to change, each with its new state. */
export const updateGlobalSettingsSchema = z
  .object({
    preferences: z
      .array(z.object({ type: channelSchema, enabled: z.boolean() }).strict())
      .min(1, 'preferences_required')
      .max(notificationChannels.length, 'too_many_preferences')
      .refine(
        (list) => new Set(list.map((entry) => entry.type)).size === list.length,
        'duplicate_type',
      ),
  })
  .strict()
  .meta({ id: 'NotificationGlobalSettingsUpdate' })
export type UpdateGlobalSettings = z.infer<typeof updateGlobalSettingsSchema>

export const workflowSettingSchema = z
  .object({
    template_id: topicSchema.meta({ description: 'The topic.' }),
    trigger: z.string().meta({ description: 'The kind of event that sets it off.' }),
    preference: z.object({ channels: channelSwitchesSchema }),
  })
  .meta({ id: 'NotificationWorkflowSetting' })
export type WorkflowSetting = z.infer<typeof workflowSettingSchema>

/** `GET/PUT v1/notifications/settings/workflow`: every topic, in the order the settings page shows them. */
export const workflowSettingsSchema = z
  .object({ workflow: z.object({ settings: z.array(workflowSettingSchema) }) })
  .meta({ id: 'NotificationWorkflowSettings' })
export type WorkflowSettings = z.infer<typeof workflowSettingsSchema>

/** `PUT v1/notifications/settings/workflow`: the topics to change, each with the channels to change. */
export const updateWorkflowSettingsSchema = z
  .object({
    settings: z
      .array(
        z
          .object({
            template_id: topicSchema,
            preference: z.object({ channels: channelSwitchesSchema.partial().strict() }).strict(),
          })
          .strict(),
      )
      .min(1, 'settings_required')
      .max(notificationTopics.length, 'too_many_settings')
      .refine(
        (list) => new Set(list.map((entry) => entry.template_id)).size === list.length,
        'duplicate_template_id',
      ),
  })
  .strict()
  .meta({ id: 'NotificationWorkflowSettingsUpdate' })
export type UpdateWorkflowSettings = z.infer<typeof updateWorkflowSettingsSchema>

/**
 * `GET v1/notifications/devices`: the caller's phones and computers set up for alerts (web push,
 * decision 048), so the settings page can say whether alerts are set up at all (issue 29 §4).
 * Their push addresses are not given back: nothing needs them, and they are the caller's keys.
 */
export const deviceListSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.uuid(),
        kind: z.enum(['web_push']),
        last_seen_at: z.string().meta({ description: 'ISO 8601: when the browser last registered.' }),
      }),
    ),
  })
  .meta({ id: 'NotificationDeviceList' })
export type DeviceList = z.infer<typeof deviceListSchema>

/** `GET/POST v1/notifications/unsubscribe/{token}`: the topic whose emails the link stops. */
export const unsubscribeSchema = z
  .object({ topic: topicSchema })
  .meta({ id: 'Unsubscribe', description: 'The topic whose emails the one-click link turns off.' })
export type Unsubscribe = z.infer<typeof unsubscribeSchema>
