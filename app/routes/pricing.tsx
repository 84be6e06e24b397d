import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PREMIUM_PRICE_CENTS, dollars } from '#contract/subscriptions.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { acceptPartnerOffer } from '#app/utils/subscription.server.ts'
import { PartnerOffer } from './account+/__subscription-parts.tsx'

/**
 * `/pricing` (spec §2, issue 31 §4, decision 074): Free and Premium ($20 per year) and what premium
 * really gives (joining premium activities, never a seat or a notify-list place ahead of anyone);
 * a signed-in member in a partner's region sees its offer, "$0 per year, formerly $20 per year".
 * "Join premium" leads to the subscription page, where the auto-renewal terms and the consent box
 * are. With PAYMENTS=off no paid plan is offered; a partner's $0 offer may stay.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'subscriptions')
  const user = await getOptionalUser(request, context)
  const paymentsOn = context.services.config.payments !== false
  if (!user)
    return { title: t('pricing.title'), signedIn: false, premium: false, offer: null, paymentsOn }
  const api = getApi(request, context).subscriptions
  const [mine, offers] = await Promise.all([api.mine(), api.partnerships()])
  const premium = mine?.status === 'active' || mine?.status === 'past_due'
  return {
    title: t('pricing.title'),
    signedIn: true,
    premium,
    offer: premium ? null : (offers.find((offer) => offer.price_cents === 0) ?? null),
    paymentsOn,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  if (formText(form, 'intent') !== 'accept')
    throw data({ error: 'Unknown intent' }, { status: 400 })
  return acceptPartnerOffer(request, context, formText(form, 'partnership_id'), {
    to: '/account/subscription',
    refusedTo: '/pricing',
  })
}

export default function Pricing() {
  const { signedIn, premium, offer, paymentsOn } = useLoaderData<typeof loader>()
  const { t } = useTranslation('subscriptions')
  const price = dollars(PREMIUM_PRICE_CENTS)
  return (
    <div className="prose">
      <h1>{t('pricing.title')}</h1>
      <p className="lead">{t('pricing.intro')}</p>
      {offer ? <PartnerOffer offer={offer} soldAtRegularPrice={paymentsOn} /> : null}
      <section aria-labelledby="plan-free">
        <h2 id="plan-free">{t('pricing.freeTitle')}</h2>
        <p className="lead">{dollars(0)}</p>
        <p>{t('pricing.freeIncludes')}</p>
      </section>
      <section aria-labelledby="plan-premium">
        <h2 id="plan-premium">{t('pricing.premiumTitle')}</h2>
        {paymentsOn ? <p className="lead">{t('pricing.premiumPrice', { price })}</p> : null}
        <p>{t('pricing.premiumIncludes')}</p>
        <p>{t('pricing.fair')}</p>
        {paymentsOn ? <p>{t('pricing.renews')}</p> : offer ? null : <p>{t('pricing.noPaid')}</p>}
        {premium ? (
          <>
            <p>{t('pricing.current')}</p>
            <p>
              <Link to="/account/subscription" className="button button--secondary">
                {t('pricing.manage')}
              </Link>
            </p>
          </>
        ) : paymentsOn ? (
          <p>
            {signedIn ? (
              <Link to="/account/subscription" className="button">
                {t('pricing.join')}
              </Link>
            ) : (
              <Link
                reloadDocument
                to={`/login?returnTo=${encodeURIComponent('/pricing')}`}
                className="button"
              >
                {t('pricing.signIn')}
              </Link>
            )}
          </p>
        ) : null}
      </section>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
