import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { notificationChannels, type NotificationChannel } from '#contract/notification-settings.ts'
import { ErrorSummary, type SummaryError } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import {
  fieldId,
  topicWaysField,
  waysField,
  type ToggleAnswer,
  type WayState,
} from '#app/utils/notification-settings-form.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { NotOffered, TopicGroups, useWaysNow, WaysFieldset } from './__notification-settings-parts.tsx'
import { saveAll, settingsFrom, toggle } from './notification-settings.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * `/account/notification-settings` (issue 15 §4, decision 044; issue 29 §4, decision 061): first
 * the ways the member may be reached, each a checkbox once it is set up (a way that is not, such
 * as alerts before a browser allowed them or texts before a phone is confirmed, says so and how
 * to set it up, and is never shown ticked); then the topics by what matters, each offering only
 * the ways that are set up and on. Without JavaScript one form saves what was shown and comes
 * back saying what changed; with it each checkbox saves at once and says "Saved" beside it.
 */

export const headers = formPageHeaders

const everyWayReady: Record<NotificationChannel, WayState> = { in_app: 'ready', email: 'ready', push: 'ready', sms: 'ready' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'notification-settings')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const api = getApi(request, context).notificationSettings
      const [global, workflow, devices] = await Promise.all([api.global(), api.workflow(), api.devices()])
      const ways: Record<NotificationChannel, WayState> = {
        in_app: 'ready',
        email: user.email ? 'ready' : 'notSetUp',
        push: devices > 0 ? 'ready' : 'notSetUp',
        // Texts go only to a confirmed phone (decision 049) that did not text STOP (decision 057).
        sms: user.texts_stopped ? 'stopped' : user.phone_confirmed ? 'ready' : 'notSetUp',
      }
      return { settings: settingsFrom(global, workflow), title: t('title'), ways }
    },
    // The database is down: the page is drawn from what the member sent.
    () => ({ settings: null, title: t('title'), ways: everyWayReady }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member chose.
  const form = await request.formData()
  if (form.get('intent') === 'toggle') return toggle(request, context, form)
  return saveAll(request, context, form)
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
  const sent = actionData && 'settings' in actionData ? actionData : null
  const settings = sent?.settings ?? loaded.settings
  const fieldErrors = sent?.errors ?? {}
  const summary: SummaryError[] = Object.entries(fieldErrors).flatMap(([name, messages]) =>
    messages.map((message) => ({ fieldId: fieldId(name), message })),
  )
  return (
    <div className="prose notification-settings">
      <h1>{t('title')}</h1>
      <ErrorSummary errors={summary} formErrors={sent?.formErrors ?? []} />
      <p>{t('intro')}</p>
      {settings ? (
        <SettingsForm
          settings={settings}
          states={loaded.ways}
          errors={fieldErrors}
          sentWays={sent ? { ways: sent.ways, topicWays: sent.topicWays } : null}
        />
      ) : null}
      <p>
        <Link to="/account">{t('back')}</Link>
      </p>
    </div>
  )
}

/**
 * The form. The ways shown are those set up (or, after a refused save, those the member was
 * shown); each topic offers the ways that are shown and on now (with JavaScript, as the member
 * switches them).
 */
function SettingsForm({
  settings,
  states,
  errors,
  sentWays,
}: {
  settings: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['settings']>
  states: Record<NotificationChannel, WayState>
  errors: Record<string, string[]>
  sentWays: { ways: NotificationChannel[]; topicWays: NotificationChannel[] } | null
}) {
  const { t } = useTranslation('notification-settings')
  const hydrated = useHydrated()
  const now = useWaysNow(settings.global)
  const ways = sentWays?.ways ?? notificationChannels.filter((channel) => states[channel] === 'ready')
  const topicWays = sentWays?.topicWays ?? ways.filter((channel) => now[channel])
  const notOffered = notificationChannels.filter((channel) => !topicWays.includes(channel))
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name={waysField} value={ways.join(',')} />
      <input type="hidden" name={topicWaysField} value={topicWays.join(',')} />
      {hydrated ? <p className="notice">{t('savedAsYouGo')}</p> : null}
      <section aria-labelledby="ways-heading">
        <h2 id="ways-heading">{t('global.heading')}</h2>
        <p>{t('global.intro')}</p>
        <WaysFieldset switches={settings.global} shown={ways} states={states} errors={errors} />
      </section>
      <section aria-labelledby="topics-heading">
        <h2 id="topics-heading">{t('topics.heading')}</h2>
        <p>{t('topics.intro')}</p>
        <NotOffered channels={notOffered} states={states} />
        <TopicGroups settings={settings} channels={topicWays} errors={errors} />
      </section>
      {/* With JavaScript each box saves itself (and says so): a button would only save it all again. */}
      {hydrated ? null : (
        <SubmitButton pending="saving" className="button">
          {t('save')}
        </SubmitButton>
      )}
    </Form>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
