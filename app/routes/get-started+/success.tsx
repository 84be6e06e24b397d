import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress } from '#app/components/onboarding-progress.tsx'
import { ReturnLinks } from '#app/components/return-links.tsx'
import { requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useGreetingName } from '#app/utils/use-display-name.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'onboarding')
  return { user, title: t('success.title'), returnTo: returnToFrom(request) }
}

export default function OnboardingSuccess() {
  const { user, returnTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation('onboarding')
  const name = useGreetingName(user)
  return (
    <div className="prose">
      <OnboardingProgress page="done" returnTo={returnTo} />
      <h1>{t('success.heading', { name })}</h1>
      <p className="lead">{t('success.body')}</p>
      <ReturnLinks returnTo={returnTo} home={t('success.home')} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
