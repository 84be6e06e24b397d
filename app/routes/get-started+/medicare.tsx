import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress, SkipStep } from '#app/components/onboarding-progress.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'
import { requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { nextOnboardingStep } from '#app/utils/onboarding.ts'
import { continueOnboarding, isSkip } from '#app/utils/onboarding.server.ts'
import { MedicareForm, MedicareGiven, MedicareHelp, MedicareNoOffer } from '../account+/__medicare-parts.tsx'
import { giveMedicare, loadMedicare } from '../account+/__medicare.server.ts'

/**
 * Onboarding's Medicare step (spec §2 `/get-started/medicare`, step 7 of 8; decision 086): the same
 * form as `/account/medicare`, never a condition of anything. "Not now" is the page's main button
 * and comes before the form. When no agency is offered the page says so and Continue goes on (the
 * step is not skipped silently: a GET changes nothing, and the member learns where help is).
 */
export const headers = formPageHeaders

const NEXT = nextOnboardingStep('medicare')

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'medicare')
  const returnTo = returnToFrom(request)
  return loadFormPage(
    context,
    async () => ({ ...(await loadMedicare(request, context)), returnTo, title: t('onboardingTitle') }),
    async () => ({ consent: null, offer: null, phone: null, returnTo, title: t('onboardingTitle') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (await isSkip(request)) {
    await requireUser(request, context)
    return continueOnboarding(request, context, NEXT)
  }
  return giveMedicare(request, context, await request.formData(), () => continueOnboarding(request, context, NEXT))
}

export default function OnboardingMedicare() {
  const { consent, offer, phone, returnTo } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('medicare')
  return (
    <div className="prose">
      <OnboardingProgress page="medicare" returnTo={returnTo} />
      <h1>{t('onboardingTitle')}</h1>
      {consent ? (
        <>
          <MedicareGiven consent={consent} canStop={false} />
          <SkipStep label={t('continue')} primary />
        </>
      ) : offer ? (
        <>
          <p className="lead">{t('intro', { agency: offer.partner.name })}</p>
          <p>{t('onboardingIntro')}</p>
          <SkipStep label={t('notNow')} primary />
          <OnlyTheMember>
            <MedicareForm offer={offer} phone={phone} lastResult={lastResult} />
          </OnlyTheMember>
        </>
      ) : (
        <>
          <MedicareNoOffer lastResult={lastResult} />
          <SkipStep label={t('continue')} primary />
        </>
      )}
      <MedicareHelp />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
