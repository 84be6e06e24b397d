import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ReturnLinks } from '#app/components/return-links.tsx'
import { requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useGreetingName } from '#app/utils/use-display-name.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'home')
  return { user, title: t('welcomeBack.title'), returnTo: returnToFrom(request) }
}

export default function WelcomeBack() {
  const { user, returnTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation('home')
  const name = useGreetingName(user)
  return (
    <div className="prose">
      <h1>{t('welcomeBack.heading', { name })}</h1>
      <p className="lead">{t('welcomeBack.body')}</p>
      <ReturnLinks returnTo={returnTo} home={t('welcomeBack.home')}>
        <Link to="/account" className="button button--secondary">
          {t('welcomeBack.account')}
        </Link>
      </ReturnLinks>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
