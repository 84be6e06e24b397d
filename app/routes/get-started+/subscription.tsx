import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress, SkipStep } from '#app/components/onboarding-progress.tsx'
import { getApi, requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { formPageHeaders, formText } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { nextOnboardingStep, onboardingPath } from '#app/utils/onboarding.ts'
import { continueOnboarding, isSkip } from '#app/utils/onboarding.server.ts'
import { pathWithReturnTo } from '#app/utils/redirect.ts'
import { acceptPartnerOffer, joinPaidPremium } from '#app/utils/subscription.server.ts'
import { JoinPremiumForm, PartnerOffer } from '../account+/__subscription-parts.tsx'

/**
 * Onboarding's premium step (spec §2 `/get-started/subscription`, "subscription partnership";
 * decision 074): a partner's $0 offer accepted in one press, or the paid plan with its terms and
 * consent box, or "Skip for now". Back from the hosted payment page (`?checkout=`), the member's
 * plan is read (which applies the payment) and onboarding goes on.
 */
export const headers = formPageHeaders

const NEXT = nextOnboardingStep('subscription')

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const url = new URL(request.url)
  const api = getApi(request, context).subscriptions
  if (url.searchParams.has('checkout')) {
    if (!url.searchParams.has('canceled')) await api.mine()
    return continueOnboarding(request, context, NEXT)
  }
  const [mine, offers, t] = await Promise.all([
    api.mine(),
    api.partnerships(),
    getT(request, context, 'subscriptions'),
  ])
  const premium = mine?.status === 'active' || mine?.status === 'past_due'
  return {
    title: t('onboarding.title'),
    premium,
    offer: premium ? null : (offers.find((offer) => offer.price_cents === 0) ?? null),
    paymentsOn: context.services.config.payments !== false,
    returnTo: returnToFrom(request),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (await isSkip(request)) {
    await requireUser(request, context)
    return continueOnboarding(request, context, NEXT)
  }
  const form = await request.clone().formData()
  const next = pathWithReturnTo(onboardingPath[NEXT], returnToFrom(request))
  const here = pathWithReturnTo(onboardingPath.subscription, returnToFrom(request))
  if (formText(form, 'intent') === 'accept') {
    await getApi(request, context).users.updateMe({ onboarding_step: NEXT })
    return acceptPartnerOffer(request, context, formText(form, 'partnership_id'), {
      to: next,
      refusedTo: here,
    })
  }
  return joinPaidPremium(request, context, form, { returnPath: here, refusedTo: here })
}

export default function OnboardingSubscription() {
  const { premium, offer, paymentsOn, returnTo } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('subscriptions')
  const location = useLocation()
  const here = `${location.pathname}${location.search}`
  return (
    <div className="prose">
      <OnboardingProgress page="subscription" returnTo={returnTo} />
      <h1>{t('onboarding.title')}</h1>
      <p className="lead">{t('onboarding.intro')}</p>
      {premium ? <p>{t('pricing.current')}</p> : null}
      {offer ? <PartnerOffer offer={offer} soldAtRegularPrice={paymentsOn} action={here} /> : null}
      {!premium && !offer && paymentsOn ? (
        <>
          <p>{t('pricing.premiumIncludes')}</p>
          <p>{t('pricing.fair')}</p>
          <JoinPremiumForm
            lastResult={lastResult && 'status' in lastResult ? lastResult : null}
            action={here}
          />
        </>
      ) : null}
      <SkipStep />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
