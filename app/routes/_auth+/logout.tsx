import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getOptionalUser, signOut } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { unsubscribeFromPush } from '#app/utils/push.client.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/** GET shows a confirmation (GET never changes state); POST ends the session everywhere. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request, context)
  if (!user) throw redirect('/')
  const t = await getT(request, context)
  return { title: t('logout.title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  return signOut(request, context)
}

export default function Logout() {
  const { t } = useTranslation()
  useLoaderData<typeof loader>()
  return (
    <div className="prose">
      <h1>{t('logout.title')}</h1>
      <p>{t('logout.body')}</p>
      <Form method="post" className="button-row" onSubmit={() => void unsubscribeFromPush()}>
        <SubmitButton pending="signingOut" className="button">
          {t('logout.confirm')}
        </SubmitButton>
        <a href="/" className="button button--secondary">
          {t('logout.cancel')}
        </a>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
