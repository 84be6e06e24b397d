import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, type SummaryError } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import {
  formPageHeaders,
  formText,
  keepFormOnOutage,
  loadFormPage,
} from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { markFormError, pageTitle } from '#app/utils/meta.ts'
import { setToast } from '#app/utils/toast.server.ts'
import { subscribeToPush, unsubscribeFromPush, type PushOutcome } from '#app/utils/push.client.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useRefetchOnFailure } from '#app/utils/use-refetch-on-failure.ts'
import {
  notificationChannels,
  notificationTopics,
  type ChannelSwitches,
  type NotificationChannel,
  type NotificationTopic,
} from '#contract/notification-settings.ts'

/**
 * `/account/notification-settings` (issue 15 §4, decision 044): the channels the member allows
 * (global) and, for each topic, the channels it uses. One plain form of checkboxes that saves
 * everything and comes back with a toast; with JavaScript each checkbox saves at once through a
 * fetcher (optimistic), and a failed save reads the settings again and says so beside it.
 */

export const handle = { i18n: ['common', 'notification-settings', 'sms'] }

export const headers = formPageHeaders

type Group = 'global' | NotificationTopic
/** Every group of checkboxes: the global switches, then each topic. */
const groups: readonly Group[] = ['global', ...notificationTopics]
type Settings = Record<Group, ChannelSwitches>
/** A checkbox's name (and its field id): `global.email`, `reminders.sms`. */
const fieldName = (group: Group, channel: NotificationChannel) => `${group}.${channel}`
const fieldId = (name: string) => `ns-${name.replace('.', '-')}`

function parseField(value: unknown): { group: Group; channel: NotificationChannel } | null {
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
 * The whole form as settings: a ticked box sends "on", an unticked one nothing. Anything else
 * (a tampered form) is an error beside that checkbox.
 */
function readForm(form: FormData) {
  const settings = {} as Settings
  const errors: Record<string, string[]> = {}
  for (const group of groups) {
    settings[group] = { in_app: false, email: false, push: false, sms: false }
    for (const channel of notificationChannels) {
      const name = fieldName(group, channel)
      const value = form.get(name)
      if (value === 'on') settings[group][channel] = true
      else if (value !== null) errors[name] = ['notification-settings:errors.invalid']
    }
  }
  return { settings, errors }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'notification-settings')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const api = getApi(request, context).notificationSettings
      const [global, workflow] = await Promise.all([api.global(), api.workflow()])
      const settings = { global: global.global.channels } as Settings
      for (const setting of workflow.workflow.settings)
        settings[setting.template_id] = setting.preference.channels
      return { settings, title: t('title'), phoneConfirmed: user.phone_confirmed, textsStopped: user.texts_stopped }
    },
    // The database is down: the page is drawn from what the member sent.
    () => ({ settings: null, title: t('title'), phoneConfirmed: true, textsStopped: false }),
  )
}

const noErrors: Record<string, string[]> = {}

/** The answer to one checkbox saved with JavaScript: a saved one says the state it was saved in. */
export type ToggleAnswer = { saved: string; enabled: boolean } | { failed: string }

export async function action({ request, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member chose.
  const form = await request.formData()
  if (form.get('intent') === 'toggle') return toggle(request, context, form)
  const { settings, errors } = readForm(form)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (Object.keys(errors).length > 0) {
        markFormError(context)
        return data({ settings, errors, formErrors: [] as string[] }, { status: 400 })
      }
      const api = getApi(request, context).notificationSettings
      await Promise.all([
        api.updateGlobal({
          preferences: notificationChannels.map((type) => ({ type, enabled: settings.global[type] })),
        }),
        api.updateWorkflow({
          settings: notificationTopics.map((topic) => ({
            template_id: topic,
            preference: { channels: settings[topic] },
          })),
        }),
      ])
      return redirect('/account/notification-settings', {
        headers: {
          'Set-Cookie': await setToast(context, {
            kind: 'success',
            key: 'notification-settings:saved',
          }),
        },
      })
    },
    () => ({
      settings,
      errors: noErrors,
      formErrors: ['common:errors.notSaved'],
    }),
  )
}

/** One checkbox, saved at once (JavaScript only): `field` is its name, `enabled` its new state. */
async function toggle(request: Request, context: ActionFunctionArgs['context'], form: FormData) {
  const name = formText(form, 'field')
  const field = parseField(name)
  const enabled = form.get('enabled')
  if (!field || (enabled !== 'true' && enabled !== 'false'))
    return data<ToggleAnswer>({ failed: name }, { status: 400 })
  try {
    await requireUser(request, context)
    const api = getApi(request, context).notificationSettings
    const on = enabled === 'true'
    if (field.group === 'global')
      await api.updateGlobal({ preferences: [{ type: field.channel, enabled: on }] })
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

/**
 * A checkbox's save that never reached the server or came back unreadable (network down, proxy
 * error) is answered as a failure beside the checkbox, not as an error page (as decision 041).
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData()
  if (form.get('intent') !== 'toggle') return serverAction<typeof action>()
  try {
    return await serverAction<typeof action>()
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error
    const field = form.get('field')
    return { failed: typeof field === 'string' ? field : '' } satisfies ToggleAnswer
  }
}

export default function NotificationSettings() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('notification-settings')
  const settings =
    (actionData && 'settings' in actionData ? actionData.settings : null) ?? loaded.settings
  const fieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
  const formErrors = actionData && 'formErrors' in actionData ? actionData.formErrors : []
  const summary: SummaryError[] = Object.entries(fieldErrors).flatMap(([name, messages]) =>
    messages.map((message) => ({ fieldId: fieldId(name), message })),
  )
  return (
    <div className="prose notification-settings">
      <h1>{t('title')}</h1>
      <ErrorSummary errors={summary} formErrors={formErrors} />
      <p>{t('intro')}</p>
      {settings ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="save" />
          <section aria-labelledby="ways-heading">
            <h2 id="ways-heading">{t('global.heading')}</h2>
            <p>{t('global.intro')}</p>
            {/* Texts go only to a confirmed phone (decision 049) that did not text STOP (decision 057). */}
            {loaded.phoneConfirmed && !loaded.textsStopped ? null : (
              <p>
                <Link to="/account/phone">{t(loaded.textsStopped ? 'sms:stoppedLink' : 'sms:link')}</Link>
              </p>
            )}
            <ChannelGroup group="global" switches={settings.global} errors={fieldErrors} />
          </section>
          <section aria-labelledby="topics-heading">
            <h2 id="topics-heading">{t('topics.heading')}</h2>
            <p>{t('topics.intro')}</p>
            {notificationTopics.map((topic) => (
              <ChannelGroup
                key={topic}
                group={topic}
                switches={settings[topic]}
                errors={fieldErrors}
              />
            ))}
          </section>
          <button type="submit" className="button">
            {t('save')}
          </button>
        </Form>
      ) : null}
      <p>
        <Link to="/account">{t('back')}</Link>
      </p>
    </div>
  )
}

function ChannelGroup({
  group,
  switches,
  errors,
}: {
  group: Group
  switches: ChannelSwitches
  errors: Record<string, string[]>
}) {
  const { t } = useTranslation('notification-settings')
  const legendId = `ns-${group}-legend`
  const hintId = `ns-${group}-hint`
  return (
    <fieldset className="field notification-group" aria-describedby={hintId}>
      <legend id={legendId}>{t(`groups.${group}.name`)}</legend>
      <span id={hintId} className="hint">
        {t(`groups.${group}.covers`)}
      </span>
      <div className="choices">
        {notificationChannels.map((channel) => (
          <Toggle
            key={channel}
            name={fieldName(group, channel)}
            channel={channel}
            known={switches[channel]}
            errors={errors[fieldName(group, channel)]}
          />
        ))}
      </div>
    </fieldset>
  )
}

/**
 * One checkbox. Without JavaScript it is part of the form. With it, a change saves at once:
 * the box shows the new state while it is saved (optimistic), then the state the server saved;
 * when saving fails, the settings are read again (so the box shows what is really kept) and a
 * message says so beside it.
 */
function Toggle({
  name,
  channel,
  known,
  errors,
}: {
  name: string
  channel: NotificationChannel
  known: boolean
  errors?: string[]
}) {
  const { t } = useTranslation('notification-settings')
  const hydrated = useHydrated()
  const fetcher = useFetcher<ToggleAnswer>({ key: `notification-setting:${name}` })
  const pending = fetcher.formData?.get('enabled')
  const failed = fetcher.state === 'idle' && fetcher.data !== undefined && 'failed' in fetcher.data
  // What the server last saved for this box. It outranks the page's data: a re-read started
  // before this save (after an earlier failure) can come back after it, and must not undo the
  // member's click.
  const saved =
    fetcher.state === 'idle' && fetcher.data !== undefined && 'saved' in fetcher.data
      ? fetcher.data.enabled
      : undefined
  const checked = typeof pending === 'string' ? pending === 'true' : (saved ?? known)
  const id = fieldId(name)
  const errorId = `${id}-error`

  useRefetchOnFailure(failed ? fetcher.data : undefined)
  // Turning push on with JavaScript also connects this browser (decision 048); how that went is said beside the box.
  const [push, setPush] = useState<PushOutcome | null>(null)

  const shownErrors = failed ? ['notification-settings:errors.notSaved'] : errors
  return (
    <div>
      <div className="choice">
        <input
          id={id}
          type="checkbox"
          name={name}
          checked={checked}
          aria-describedby={shownErrors?.length ? errorId : undefined}
          aria-invalid={shownErrors?.length ? true : undefined}
          onChange={(event) => {
            if (!hydrated) return
            fetcher.submit(
              { intent: 'toggle', field: name, enabled: String(event.currentTarget.checked) },
              { method: 'post' },
            )
            if (name === fieldName('global', 'push')) {
              if (event.currentTarget.checked) void subscribeToPush().then(setPush)
              else {
                setPush(null)
                void unsubscribeFromPush()
              }
            }
          }}
        />
        <label htmlFor={id}>{t(`channels.${channel}`)}</label>
      </div>
      <span aria-live="polite">
        <FieldErrors id={errorId} errors={shownErrors} />
        {push ? <span className="hint">{t(`push.${push === 'subscribed' ? 'connected' : push}`)}</span> : null}
      </span>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
