import { Link, useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  notificationChannels,
  type ChannelSwitches,
  type NotificationChannel,
} from '#contract/notification-settings.ts'
import { FieldErrors } from '#app/components/ui/field.tsx'
import {
  fetcherKey,
  fieldId,
  fieldName,
  topicGroups,
  type Group,
  type Settings,
  type ToggleAnswer,
  type WayState,
} from '#app/utils/notification-settings-form.ts'
import { subscribeToPush, unsubscribeFromPush, type PushOutcome } from '#app/utils/push.client.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useRefetchOnFailure } from '#app/utils/use-refetch-on-failure.ts'

/**
 * The parts of `/account/notification-settings` (issue 29 §4): the ways to reach the member, each
 * a checkbox once it is set up, else said to be not set up with how to set it up; then the
 * topics in two groups, each offering only the ways that are set up and on.
 */

/** What a checkbox shows now: the state being saved, else the one last saved, else the page's. */
function useSwitch(name: string, known: boolean) {
  const fetcher = useFetcher<ToggleAnswer>({ key: fetcherKey(name) })
  const pending = fetcher.formData?.get('enabled')
  // What the server last saved for this box. It outranks the page's data: a re-read started
  // before this save (after an earlier failure) can come back after it, and must not undo the
  // member's click.
  const saved =
    fetcher.state === 'idle' && fetcher.data !== undefined && 'saved' in fetcher.data
      ? fetcher.data.enabled
      : undefined
  return typeof pending === 'string' ? pending === 'true' : (saved ?? known)
}

/** The global switches as they are now: with JavaScript, a way turned off hides its topic boxes at once. */
export function useWaysNow(global: ChannelSwitches): ChannelSwitches {
  return {
    in_app: useSwitch(fieldName('global', 'in_app'), global.in_app),
    email: useSwitch(fieldName('global', 'email'), global.email),
    push: useSwitch(fieldName('global', 'push'), global.push),
    sms: useSwitch(fieldName('global', 'sms'), global.sms),
  }
}

/** "Ways to reach you": a checkbox for each way that is set up; the others say so and how to set them up. */
export function WaysFieldset({
  switches,
  shown,
  states,
  errors,
}: {
  switches: ChannelSwitches
  shown: readonly NotificationChannel[]
  states: Record<NotificationChannel, WayState>
  errors: Record<string, string[]>
}) {
  const { t } = useTranslation('notification-settings')
  return (
    <fieldset className="field notification-group" aria-describedby="ns-global-hint">
      <legend id="ns-global-legend">{t('groups.global.name')}</legend>
      <span id="ns-global-hint" className="hint">
        {t('groups.global.covers')}
      </span>
      <div className="choices">
        {notificationChannels.map((channel) =>
          shown.includes(channel) ? (
            <Toggle
              key={channel}
              name={fieldName('global', channel)}
              channel={channel}
              known={switches[channel]}
              errors={errors[fieldName('global', channel)]}
            />
          ) : (
            <WayNotReady key={channel} channel={channel} state={states[channel]} />
          ),
        )}
      </div>
    </fieldset>
  )
}

/** A way that cannot reach the member yet: never a ticked box, but what is missing and where to set it up. */
function WayNotReady({ channel, state }: { channel: NotificationChannel; state: WayState }) {
  const { t } = useTranslation(['notification-settings', 'sms'])
  const hydrated = useHydrated()
  return (
    <div className="way way--not-ready" id={`ns-way-${channel}`}>
      <p>
        <strong>{t(`channels.${channel}`)}</strong>: {t(state === 'stopped' ? 'status.stopped' : 'status.notSetUp')}
      </p>
      {channel === 'sms' ? (
        <p>
          <Link to="/account/phone">{t(state === 'stopped' ? 'sms:stoppedLink' : 'sms:link')}</Link>
        </p>
      ) : channel === 'email' ? (
        <p>
          <Link to="/account/email">{t('howTo.email')}</Link>
        </p>
      ) : channel === 'push' ? (
        hydrated ? (
          <PushSetUp />
        ) : (
          <p className="hint">{t('howTo.push')}</p>
        )
      ) : null}
    </div>
  )
}

/**
 * "Set up alerts here" (JavaScript only: the browser's permission and push subscription need
 * it): connects this browser (decision 048), then turns alerts on through the same fetcher as
 * the checkbox, which then takes this place and says "Saved".
 */
function PushSetUp() {
  const { t } = useTranslation('notification-settings')
  const name = fieldName('global', 'push')
  const fetcher = useFetcher<ToggleAnswer>({ key: fetcherKey(name) })
  const [outcome, setOutcome] = useState<PushOutcome | null>(null)
  const [busy, setBusy] = useState(false)
  const failed = fetcher.state === 'idle' && fetcher.data !== undefined && 'failed' in fetcher.data
  const saved = fetcher.state === 'idle' && fetcher.data !== undefined && 'saved' in fetcher.data
  return (
    <div>
      <p className="hint" id="ns-push-setup-hint">
        {t('howTo.pushHere')}
      </p>
      <button
        type="button"
        className="button button--secondary"
        aria-describedby="ns-push-setup-hint"
        disabled={busy || fetcher.state !== 'idle'}
        onClick={() => {
          setBusy(true)
          void subscribeToPush().then((result) => {
            setOutcome(result)
            setBusy(false)
            if (result === 'subscribed')
              fetcher.submit({ intent: 'toggle', field: name, enabled: 'true' }, { method: 'post' })
          })
        }}
      >
        {t('howTo.pushButton')}
      </button>
      <span aria-live="polite" className="way-status">
        {failed ? <FieldErrors id={`${fieldId(name)}-error`} errors={['notification-settings:errors.notSaved']} /> : null}
        {saved ? <span className="saved">{t('savedOne')}</span> : null}
        {outcome && outcome !== 'subscribed' ? <span className="hint">{t(`setUp.${outcome}`)}</span> : null}
      </span>
    </div>
  )
}

/** What each topic's boxes cannot offer, and why: a way not set up, or one turned off above. */
export function NotOffered({
  channels,
  states,
}: {
  channels: readonly NotificationChannel[]
  states: Record<NotificationChannel, WayState>
}) {
  const { t } = useTranslation('notification-settings')
  if (channels.length === 0) return null
  return (
    <div className="notice" id="ns-not-offered">
      {channels.map((channel) => (
        <p key={channel}>
          {t(states[channel] === 'ready' ? 'notOffered.off' : 'notOffered.notSetUp', {
            channel: t(`channels.${channel}`),
          })}
        </p>
      ))}
    </div>
  )
}

/** The topics by what matters, each offering the ways that are set up and on. */
export function TopicGroups({
  settings,
  channels,
  errors,
}: {
  settings: Settings
  channels: readonly NotificationChannel[]
  errors: Record<string, string[]>
}) {
  const { t } = useTranslation('notification-settings')
  if (channels.length === 0) return null
  return topicGroups.map((group) => (
    <section key={group.id} aria-labelledby={`ns-group-${group.id}`}>
      <h3 id={`ns-group-${group.id}`}>{t(`topicGroups.${group.id}.heading`)}</h3>
      <p>{t(`topicGroups.${group.id}.intro`)}</p>
      {group.topics.map((topic) => (
        <ChannelGroup key={topic} group={topic} switches={settings[topic]} channels={channels} errors={errors} />
      ))}
    </section>
  ))
}

function ChannelGroup({
  group,
  switches,
  channels,
  errors,
}: {
  group: Group
  switches: ChannelSwitches
  channels: readonly NotificationChannel[]
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
        {channels.map((channel) => (
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
 * the box shows the new state while it is saved (optimistic), then the state the server saved
 * and "Saved" beside it, in a polite live region; when saving fails, the settings are read again
 * (so the box shows what is really kept) and a message says so beside it.
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
  errors?: string[] | undefined
}) {
  const { t } = useTranslation('notification-settings')
  const hydrated = useHydrated()
  const fetcher = useFetcher<ToggleAnswer>({ key: fetcherKey(name) })
  const failed = fetcher.state === 'idle' && fetcher.data !== undefined && 'failed' in fetcher.data
  const saved = fetcher.state === 'idle' && fetcher.data !== undefined && 'saved' in fetcher.data
  const checked = useSwitch(name, known)
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
      <span aria-live="polite" id={`${id}-status`} className="way-status">
        <FieldErrors id={errorId} errors={shownErrors} />
        {saved ? <span className="saved">{t('savedOne')}</span> : null}
        {push ? <span className="hint">{t(`push.${push === 'subscribed' ? 'connected' : push}`)}</span> : null}
      </span>
    </div>
  )
}
