import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * An email's unsubscribe link (issue 15 §3, RFC 8058, decision 047), without signing in: the
 * page names the topic and asks once; its button (a plain form) turns that topic's emails off.
 * Mail programs' own one-click button posts `List-Unsubscribe=One-Click` here too (the email's
 * List-Unsubscribe header), without cookies: it is answered with the page, not a redirect.
 */
/** The link's topic, or null when the link is not ours (cut short, changed). */
async function topicOf(request: Request, context: LoaderFunctionArgs['context'], token: string) {
  try {
    return await getApi(request, context).notificationSettings.unsubscribeTopic(token)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'notification-settings')
  const token = params.token ?? ''
  const topic = await topicOf(request, context, token)
  if (!topic) return data({ topic: null, topicName: '', done: false, title: t('unsubscribe.invalidTitle') }, { status: 404 })
  const topicName = t(`groups.${topic}.name`)
  const done = new URL(request.url).searchParams.get('done') === '1'
  const title = t(done ? 'unsubscribe.doneTitle' : 'unsubscribe.title', { topic: topicName })
  return { topic, topicName, done, title }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? ''
  const oneClick = (await request.formData()).get('List-Unsubscribe') === 'One-Click'
  try {
    await getApi(request, context).notificationSettings.unsubscribe(token)
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error
    if (oneClick) return data({ unsubscribed: false }, { status: 404 })
    throw redirect(`/unsubscribe/${encodeURIComponent(token)}`)
  }
  if (oneClick) return { unsubscribed: true }
  return redirect(`/unsubscribe/${encodeURIComponent(token)}?done=1`)
}

export default function UnsubscribePage() {
  const { topic, topicName, done: doneByLink } = useLoaderData<typeof loader>()
  const oneClick = useActionData<typeof action>()
  const done = doneByLink || oneClick?.unsubscribed === true
  const { t } = useTranslation('notification-settings')
  if (!topic) {
    return (
      <>
        <h1>{t('unsubscribe.invalidTitle')}</h1>
        <p>{t('unsubscribe.invalid')}</p>
        <p>
          <Link to="/account/notification-settings">{t('unsubscribe.settings')}</Link>
        </p>
      </>
    )
  }
  if (done) {
    return (
      <>
        <h1>{t('unsubscribe.doneTitle', { topic: topicName })}</h1>
        <p>{t('unsubscribe.done')}</p>
        <p>
          <Link to="/account/notification-settings">{t('unsubscribe.settings')}</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>{t('unsubscribe.title', { topic: topicName })}</h1>
      <p>{t('unsubscribe.intro', { topic: topicName })}</p>
      <Form method="post" className="form">
        <div className="button-row">
          <SubmitButton pending="saving" className="button">
            {t('unsubscribe.confirm')}
          </SubmitButton>
          <Link to="/account/notification-settings" className="button button--secondary">
            {t('unsubscribe.settings')}
          </Link>
        </div>
      </Form>
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
