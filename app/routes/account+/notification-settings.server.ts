import { data, type AppLoadContext } from '@remix-run/node'
import type { TFunction } from 'i18next'
import {
  notificationTopics,
  type ChannelSwitches,
  type GlobalSettings,
  type NotificationChannel,
  type WorkflowSettings,
} from '#contract/notification-settings.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import {
  fieldName,
  groups,
  parseField,
  parseWays,
  topicWaysField,
  waysField,
  type Settings,
  type ToggleAnswer,
} from '#app/utils/notification-settings-form.ts'
import { redirectWithToast, type Toast } from '#app/utils/toast.server.ts'

/**
 * `/account/notification-settings`'s two intents (decision 044; issue 29 §4): `save`, the whole
 * form without JavaScript, which comes back saying what changed; `toggle`, one checkbox saved at
 * once with JavaScript, which answers the state it saved.
 */

const path = '/account/notification-settings'

/** The settings as the page draws them: the global switches and each topic's. */
export function settingsFrom(global: GlobalSettings, workflow: WorkflowSettings): Settings {
  const settings = { global: global.global.channels } as Settings
  for (const setting of workflow.workflow.settings) settings[setting.template_id] = setting.preference.channels
  return settings
}

/**
 * The whole form as settings, for the ways the page showed: a ticked box sends "on", an unticked
 * one nothing. Anything else (a tampered form) is an error beside that checkbox. A box of a way
 * the page did not show is ignored.
 */
function readForm(form: FormData) {
  const ways = parseWays(form.get(waysField))
  const topicWays = parseWays(form.get(topicWaysField))
  const settings = {} as Settings
  const errors: Record<string, string[]> = {}
  for (const group of groups) {
    settings[group] = { in_app: false, email: false, push: false, sms: false }
    for (const channel of group === 'global' ? ways : topicWays) {
      const name = fieldName(group, channel)
      const value = form.get(name)
      if (value === 'on') settings[group][channel] = true
      else if (value !== null) errors[name] = ['notification-settings:errors.invalid']
    }
  }
  return { settings, errors, ways, topicWays }
}

const noErrors: Record<string, string[]> = {}

/** Saving without JavaScript: every box shown, then back to the page with what changed, in words. */
export async function saveAll(request: Request, context: AppLoadContext, form: FormData) {
  const read = readForm(form)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (Object.keys(read.errors).length > 0) return refusedForm(context, { ...read, formErrors: [] as string[] }, 400)
      const api = getApi(request, context).notificationSettings
      const [global, workflow] = await Promise.all([api.global(), api.workflow()])
      const before = settingsFrom(global, workflow)
      const pick = (switches: ChannelSwitches, channels: NotificationChannel[]) =>
        Object.fromEntries(channels.map((channel) => [channel, switches[channel]]))
      await Promise.all([
        read.ways.length > 0
          ? api.updateGlobal({ preferences: read.ways.map((type) => ({ type, enabled: read.settings.global[type] })) })
          : null,
        read.topicWays.length > 0
          ? api.updateWorkflow({
              settings: notificationTopics.map((topic) => ({
                template_id: topic,
                preference: { channels: pick(read.settings[topic], read.topicWays) },
              })),
            })
          : null,
      ])
      const t = await getT(request, context, 'notification-settings')
      return redirectWithToast(context, path, savedToast(t, before, read))
    },
    () => ({ ...read, errors: noErrors, formErrors: ['common:errors.notSaved'] }),
  )
}

/** At most this many changes are spelled out; more are counted ("Your choices are saved: 9 changes"). */
const changesSpelledOut = 5

/**
 * What a save changed, in the member's words: "We may now reach you by text message. You will
 * no longer hear about “Messages” by email." Nothing changed is said too.
 */
function savedToast(t: TFunction, before: Settings, after: ReturnType<typeof readForm>): Toast {
  const changes: string[] = []
  for (const channel of after.ways) {
    const on = after.settings.global[channel]
    if (on !== before.global[channel])
      changes.push(t(on ? 'changes.wayOn' : 'changes.wayOff', { way: t(`ways.${channel}`) }))
  }
  for (const topic of notificationTopics)
    for (const channel of after.topicWays) {
      const on = after.settings[topic][channel]
      if (on !== before[topic][channel])
        changes.push(
          t(on ? 'changes.topicOn' : 'changes.topicOff', {
            topic: t(`groups.${topic}.name`),
            way: t(`ways.${channel}`),
          }),
        )
    }
  if (changes.length === 0) return { kind: 'info', key: 'notification-settings:savedNothing' }
  if (changes.length > changesSpelledOut)
    return { kind: 'success', key: 'notification-settings:savedMany', values: { count: changes.length } }
  return { kind: 'success', key: 'notification-settings:savedChanges', values: { changes: changes.join(' ') } }
}

/** One checkbox, saved at once (JavaScript only): `field` is its name, `enabled` its new state. */
export async function toggle(request: Request, context: AppLoadContext, form: FormData) {
  const name = formText(form, 'field')
  const field = parseField(name)
  const enabled = form.get('enabled')
  if (!field || (enabled !== 'true' && enabled !== 'false'))
    return data<ToggleAnswer>({ failed: name }, { status: 400 })
  try {
    await requireUser(request, context)
    const api = getApi(request, context).notificationSettings
    const on = enabled === 'true'
    if (field.group === 'global') await api.updateGlobal({ preferences: [{ type: field.channel, enabled: on }] })
    else
      await api.updateWorkflow({
        settings: [{ template_id: field.group, preference: { channels: { [field.channel]: on } } }],
      })
    return data<ToggleAnswer>({ saved: name, enabled: on })
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error
    context.services.log('warn', 'A notification setting was not saved', {
      requestId: context.requestId,
      error: String(error),
    })
    return data<ToggleAnswer>({ failed: name }, { status: 503 })
  }
}
