import type { DB } from '../db/database.ts'
import {
  notificationChannels,
  notificationTopics,
  type ChannelSwitches,
  type NotificationChannel,
  type NotificationTopic,
} from '#contract/notification-settings.ts'

/**
 * A member's notification preferences (decision 044): the defaults for older members, what the
 * member changed (the rows of `notification_global_settings` and `notification_workflow_settings`
 * hold only the member's own choices; a missing row is the default), and `channelsFor`, which
 * delivery asks before sending anything.
 */

const all = (value: boolean): ChannelSwitches => ({
  in_app: value,
  email: value,
  push: value,
  sms: value,
})

/**
 * The global switches before the member chooses: in-app and email on; push once the member
 * allowed it on a device (a registered device); text messages only when the member asks.
 */
export function defaultGlobal(hasDevice: boolean): ChannelSwitches {
  return { in_app: true, email: true, push: hasDevice, sms: false }
}

/**
 * Each topic's channels before the member chooses. Push is on for every topic, so that allowing
 * push (the global switch) is enough; texts only for what cannot wait (a seat, a change, a
 * reminder) once texts are on; suggestions of activities are opt-in (issue 15 §1).
 */
export const defaultTopics: Record<NotificationTopic, ChannelSwitches> = {
  activity_updates: { in_app: true, email: true, push: true, sms: true },
  reminders: { in_app: true, email: true, push: true, sms: true },
  direct_messages: { in_app: true, email: true, push: true, sms: false },
  hosting: { in_app: true, email: true, push: true, sms: false },
  feedback: { in_app: true, email: true, push: true, sms: false },
  recommendations: all(false),
  distance: all(false),
  out_of_state: { in_app: true, email: true, push: true, sms: false },
  product_updates: { in_app: true, email: true, push: false, sms: false },
}

const isChannel = (value: string): value is NotificationChannel =>
  (notificationChannels as readonly string[]).includes(value)
const isTopic = (value: string): value is NotificationTopic =>
  (notificationTopics as readonly string[]).includes(value)

/** The member's global switches: their choices over the defaults. */
export async function globalSwitches(db: DB, userId: string): Promise<ChannelSwitches> {
  const [rows, device] = await Promise.all([
    db
      .selectFrom('notification_global_settings')
      .select(['channel', 'enabled'])
      .where('user_id', '=', userId)
      .execute(),
    db.selectFrom('devices').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
  ])
  const switches = defaultGlobal(device !== undefined)
  for (const row of rows) if (isChannel(row.channel)) switches[row.channel] = row.enabled
  return switches
}

/** Every topic's channels for the member: their choices over the defaults. */
export async function topicSwitches(
  db: DB,
  userId: string,
  only?: NotificationTopic,
): Promise<Record<NotificationTopic, ChannelSwitches>> {
  let query = db
    .selectFrom('notification_workflow_settings')
    .select(['template_id', 'channel', 'enabled'])
    .where('user_id', '=', userId)
  if (only) query = query.where('template_id', '=', only)
  const rows = await query.execute()
  const topics = Object.fromEntries(
    notificationTopics.map((topic) => [topic, { ...defaultTopics[topic] }]),
  ) as Record<NotificationTopic, ChannelSwitches>
  for (const row of rows)
    if (isTopic(row.template_id) && isChannel(row.channel))
      topics[row.template_id][row.channel] = row.enabled
  return topics
}

/**
 * The channels that reach `userId` for `topic`: the topic's channel is on and so is the global
 * switch for that channel. Whether a text can be sent (a confirmed phone) or a push (a live
 * subscription) is the channel's own business at delivery.
 */
export async function channelsFor(
  db: DB,
  userId: string,
  topic: NotificationTopic,
): Promise<NotificationChannel[]> {
  const [global, topics] = await Promise.all([
    globalSwitches(db, userId),
    topicSwitches(db, userId, topic),
  ])
  return notificationChannels.filter((channel) => global[channel] && topics[topic][channel])
}
