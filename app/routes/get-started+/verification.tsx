import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress, SkipStep } from '#app/components/onboarding-progress.tsx'
import { getApi, requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { nextOnboardingStep, onboardingPath } from '#app/utils/onboarding.ts'
import { continueOnboarding, isSkip } from '#app/utils/onboarding.server.ts'
import { pathWithReturnTo } from '#app/utils/redirect.ts'
import { VerificationForm, VerificationStatus } from '../account+/__verification-form.tsx'
import { loadVerification, submitVerification } from '../account+/__verification.server.ts'

/** Onboarding (spec §2 /get-started/verification): the same as /account/verification, or skip it. */
export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'verification')
  return { verification: await loadVerification(request, context), returnTo: returnToFrom(request), title: t('onboarding.title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (await isSkip(request)) {
    await requireUser(request, context)
    return continueOnboarding(request, context, nextOnboardingStep('verification'))
  }
  return submitVerification(request, context, {
    to: pathWithReturnTo(onboardingPath[nextOnboardingStep('verification')], returnToFrom(request)),
    toast: false,
    onSent: () => getApi(request, context).users.updateMe({ onboarding_step: nextOnboardingStep('verification') }),
  })
}

export default function OnboardingVerification() {
  const { verification, returnTo } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('verification')
  return (
    <div className="prose">
      <OnboardingProgress page="verification" returnTo={returnTo} />
      <h1>{t('onboarding.title')}</h1>
      <p className="lead">{t('intro')}</p>
      <p>{t('onboarding.intro')}</p>
      <VerificationStatus verification={verification} />
      <VerificationForm verification={verification} lastResult={lastResult} />
      <SkipStep label={verification.status === 'not_verified' ? undefined : t('continue')} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
