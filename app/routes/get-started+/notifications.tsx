import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress } from '#app/components/onboarding-progress.tsx'
import { getApi, requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { nextOnboardingStep } from '#app/utils/onboarding.ts'
import { continueOnboarding } from '#app/utils/onboarding.server.ts'
import { subscribeToPush, type PushOutcome } from '#app/utils/push.client.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * Onboarding's notification permission (spec §2 `/get-started/notifications`, issue 15 §5): what
 * the member will hear about, in plain words; the browser is asked only when the member presses
 * "Allow notifications"; a blocked permission gets short steps per browser. "Not now" (without
 * JavaScript, "Continue") goes on to the last step (decision 045), turning on the weekly
 * "activities near you" when its checkbox is ticked (decision 051; unticked leaves the setting as is).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'pwa')
  return { title: t('permission.title'), returnTo: returnToFrom(request) }
}

/** The step's only form is "Not now" / "Continue": it saves the weekly suggestions when asked for, remembers the next step and goes there. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData().catch(() => null)
  if (form?.get('recommendations') === 'on') {
    await getApi(request, context).notificationSettings.updateWorkflow({
      settings: [{ template_id: 'recommendations', preference: { channels: { in_app: true, email: true } } }],
    })
  }
  return continueOnboarding(request, context, nextOnboardingStep('notifications'))
}

export default function OnboardingNotifications() {
  const { returnTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation('pwa')
  const hydrated = useHydrated()
  const permission = useNotificationPermission()
  return (
    <div className="prose">
      <OnboardingProgress page="notifications" returnTo={returnTo} />
      <h1>{t('permission.title')}</h1>
      <p className="lead">{t('permission.intro')}</p>
      <ul>
        <li>{t('permission.seat')}</li>
        <li>{t('permission.change')}</li>
        <li>{t('permission.message')}</li>
        <li>{t('permission.reminder')}</li>
      </ul>
      {hydrated ? <Permission permission={permission} /> : <p>{t('permission.noScript')}</p>}
      <ContinueForm label={hydrated && (permission.state === 'default' || permission.state === 'dismissed') ? t('permission.notNow') : t('permission.continue')} />
    </div>
  )
}

/** "Not now" / "Continue", with the weekly "activities near you" checkbox (unticked until the member asks). */
function ContinueForm({ label }: { label: string }) {
  const { t } = useTranslation('pwa')
  const location = useLocation()
  return (
    <Form method="post" action={`${location.pathname}${location.search}`}>
      <div className="choice">
        <input id="recommendations" type="checkbox" name="recommendations" aria-describedby="recommendations-hint" />
        <label htmlFor="recommendations">{t('permission.weekly')}</label>
      </div>
      <p className="hint" id="recommendations-hint">
        {t('permission.weeklyHint')}
      </p>
      <div className="button-row">
        <SubmitButton pending="working" name="intent" value="skip" className="button button--secondary">
          {label}
        </SubmitButton>
      </div>
    </Form>
  )
}

type PermissionState = NotificationPermission | 'unsupported' | 'dismissed'

/**
 * The browser's notification permission, and asking for it. Once allowed, this browser is
 * connected for push (decision 048); when that fails the member is told and simply goes on.
 */
function useNotificationPermission() {
  const [state, setState] = useState<PermissionState>('default')
  const [push, setPush] = useState<PushOutcome | null>(null)
  useEffect(() => {
    setState(typeof Notification === 'undefined' ? 'unsupported' : Notification.permission)
  }, [])
  async function ask() {
    const answer = await Notification.requestPermission()
    // Closing the browser's question leaves it undecided: say so rather than nothing.
    setState(answer === 'default' ? 'dismissed' : answer)
    if (answer === 'granted') setPush(await subscribeToPush())
  }
  return { state, push, ask }
}

function Permission({ permission }: { permission: ReturnType<typeof useNotificationPermission> }) {
  const { t } = useTranslation('pwa')
  const { state, push, ask } = permission
  return (
    <div role="status">
      {state === 'default' || state === 'dismissed' ? (
        <>
          {state === 'dismissed' ? <p>{t('permission.dismissed')}</p> : <p>{t('permission.ask')}</p>}
          <p>
            <button type="button" className="button" onClick={() => void ask()}>
              {t('permission.allow')}
            </button>
          </p>
        </>
      ) : state === 'granted' ? (
        <>
          <p className="notice notice--success">{t('permission.granted')}</p>
          {push === 'failed' || push === 'unsupported' ? <p>{t('permission.pushFailed')}</p> : null}
        </>
      ) : state === 'denied' ? (
        <div className="notice">
          <h2>{t('permission.blocked.title')}</h2>
          <p>{t('permission.blocked.intro')}</p>
          <ul>
            <li>{t('permission.blocked.chrome')}</li>
            <li>{t('permission.blocked.firefox')}</li>
            <li>{t('permission.blocked.safariPhone')}</li>
            <li>{t('permission.blocked.safariMac')}</li>
          </ul>
        </div>
      ) : (
        <p>{t('permission.unsupported')}</p>
      )}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
