import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfiguredLink } from '#app/components/outside-link.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { VerificationForm, VerificationStatus } from './__verification-form.tsx'
import { loadVerification, submitVerification } from './__verification.server.ts'

export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'verification')
  return { verification: await loadVerification(request, context), title: t('title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  return submitVerification(request, context, { to: '/account/verification', toast: true })
}

export default function AccountVerification() {
  const { verification } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('verification')
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      {verification.status === 'not_verified' && !verification.rejection_reason ? <p className="lead">{t('intro')}</p> : null}
      <VerificationStatus verification={verification} />
      {/* What the badge means (spec §2's badge info, decision 088): by default the safety article's section on it. */}
      <ConfiguredLink name="badgeInfo">{t('help-center:badgeInfo')}</ConfiguredLink>
      <OnlyTheMember>
        <VerificationForm verification={verification} lastResult={lastResult} />
      </OnlyTheMember>
      <p>
        <Link to="/account">{t('backToAccount')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
