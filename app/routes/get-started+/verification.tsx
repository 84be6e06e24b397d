import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { returnToFrom } from '#app/utils/auth.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { pathWithReturnTo } from '#app/utils/redirect.ts'
import { VerificationForm, VerificationStatus, verificationNamespaces } from '../account+/__verification-form.tsx'
import { loadVerification, submitVerification } from '../account+/__verification.server.ts'

/** Onboarding (spec §2 /get-started/verification): the same as /account/verification, or skip it. */
export const handle = { i18n: [...verificationNamespaces, 'onboarding'] }

export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'verification')
  return {
    verification: await loadVerification(request, context),
    next: pathWithReturnTo('/get-started/success', returnToFrom(request)),
    title: t('onboarding.title'),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  return submitVerification(request, context, { to: pathWithReturnTo('/get-started/success', returnToFrom(request)), toast: false })
}

export default function OnboardingVerification() {
  const { verification, next } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('verification')
  const skip = (
    <Link to={next} className="button button--secondary">
      {t('skip')}
    </Link>
  )
  return (
    <div className="prose">
      <h1>{t('onboarding.title')}</h1>
      <p className="lead">{t('intro')}</p>
      <p>{t('onboarding.intro')}</p>
      <VerificationStatus verification={verification} />
      <VerificationForm verification={verification} lastResult={lastResult} extra={skip} />
      {verification.status === 'not_verified' ? null : (
        <p>
          <Link to={next} className="button">
            {t('continue')}
          </Link>
        </p>
      )}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
