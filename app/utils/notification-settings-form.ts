import {
  notificationChannels,
  notificationTopics,
  type ChannelSwitches,
  type NotificationChannel,
  type NotificationTopic,
} from '#contract/notification-settings.ts'

/**
 * The notification settings form (`/account/notification-settings`, decisions 044 and the
 * settings part of issue 29 §4), shared by its action and its components: the names of its
 * checkboxes, how the topics are grouped on the page, and which ways the page showed.
 */

export type Group = 'global' | NotificationTopic
/** Every group of checkboxes: the global switches, then each topic. */
export const groups: readonly Group[] = ['global', ...notificationTopics]
export type Settings = Record<Group, ChannelSwitches>

/** A checkbox's name (and its field id): `global.email`, `reminders.sms`. */
export const fieldName = (group: Group, channel: NotificationChannel) => `${group}.${channel}`
export const fieldId = (name: string) => `ns-${name.replace('.', '-')}`
/** The fetcher that saves one checkbox with JavaScript; the page reads it too (a way turned off hides its topic boxes at once). */
export const fetcherKey = (name: string) => `notification-setting:${name}`

export function parseField(value: unknown): { group: Group; channel: NotificationChannel } | null {
  if (typeof value !== 'string') return null
  const [group, channel] = value.split('.')
  if (
    !(groups as readonly string[]).includes(group ?? '') ||
    !(notificationChannels as readonly string[]).includes(channel ?? '')
  )
    return null
  return { group: group as Group, channel: channel as NotificationChannel }
}

/**
 * The topics by what matters to the member: news about what they take part in, then what they
 * can do without (suggestions, some off until asked for, and news of the product). Every topic
 * is in exactly one group (checked by the page's test).
 */
export const topicGroups = [
  { id: 'yours', topics: ['activity_updates', 'reminders', 'direct_messages', 'hosting', 'feedback'] },
  { id: 'extras', topics: ['recommendations', 'distance', 'out_of_state', 'product_updates'] },
] as const satisfies readonly { id: string; topics: readonly NotificationTopic[] }[]

/**
 * Whether a way can reach the member at all: `ready`, or `notSetUp` (no browser set up for
 * alerts, no confirmed phone, no email address) or `stopped` (the phone texted STOP, decision
 * 057). Only a ready way has a checkbox; the others say so and how to set them up.
 */
export type WayState = 'ready' | 'notSetUp' | 'stopped'

/**
 * Hidden fields naming the ways the page showed: `ways` among the global switches, `topic-ways`
 * for each topic (a way turned off is not offered per topic). Saving without JavaScript changes
 * only what was shown, so a box never offered is never turned off by its absence.
 */
export const waysField = 'ways'
export const topicWaysField = 'topic-ways'

/** A `ways` field's channels; every channel when the field is missing (a page from before it existed showed them all). */
export function parseWays(value: FormDataEntryValue | null): NotificationChannel[] {
  if (value === null) return [...notificationChannels]
  if (typeof value !== 'string') return []
  const named = new Set(value.split(','))
  return notificationChannels.filter((channel) => named.has(channel))
}

/** The answer to one checkbox saved with JavaScript: a saved one says the state it was saved in. */
export type ToggleAnswer = { saved: string; enabled: boolean } | { failed: string }
