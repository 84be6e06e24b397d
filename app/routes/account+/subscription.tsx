import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { dollars, type Subscription } from '#contract/subscriptions.ts'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'
import { CardBrandLogo, useCardName } from '#app/components/payment-card.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, formText } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import {
  acceptPartnerOffer,
  cancelPremium,
  checkoutReturnToast,
  joinPaidPremium,
} from '#app/utils/subscription.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { JoinPremiumForm, PartnerOffer, useDay } from './__subscription-parts.tsx'

/**
 * `/account/subscription` (spec §2, issue 31 §4, decision 074): the member's plan, status, price,
 * renewal date and card; "Join premium" with the auto-renewal terms right above the button and an
 * unticked consent box (or a partner's $0 offer); cancelling online in two steps (`?cancel=1`
 * asks, "Yes, cancel premium" does it). Plain forms: all of it works without JavaScript.
 */
export const headers = formPageHeaders

const PATH = '/account/subscription'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const url = new URL(request.url)
  // Back from the hosted payment page: what came of it, said once, and the address made plain again.
  if (url.searchParams.has('checkout'))
    return redirectWithToast(context, PATH, await checkoutReturnToast(request, context, url))
  const api = getApi(request, context).subscriptions
  const [subscription, offers, t] = await Promise.all([
    api.mine(),
    api.partnerships(),
    getT(request, context, 'subscriptions'),
  ])
  const live =
    subscription && (subscription.status === 'active' || subscription.status === 'past_due')
      ? subscription
      : null
  return {
    title: t('account.title'),
    subscription,
    live,
    offer: offers.find((offer) => offer.price_cents === 0) ?? null,
    paymentsOn: context.services.config.payments !== false,
    confirming:
      url.searchParams.get('cancel') === '1' && live !== null && !live.cancel_at_period_end,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.clone().formData()
  const intent = formText(form, 'intent')
  if (intent === 'join') {
    if (context.services.config.payments === false) throw data(null, { status: 404 })
    return joinPaidPremium(request, context, form, { returnPath: PATH, refusedTo: PATH })
  }
  if (intent === 'accept')
    return acceptPartnerOffer(request, context, formText(form, 'partnership_id'), {
      to: PATH,
      refusedTo: PATH,
    })
  if (intent === 'cancel') return cancelPremium(request, context, PATH)
  throw data({ error: 'Unknown intent' }, { status: 400 })
}

export default function AccountSubscription() {
  const { subscription, live, offer, paymentsOn, confirming } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('subscriptions')
  return (
    <div className="prose">
      <h1>{t('account.title')}</h1>
      {live ? (
        <>
          <PlanDetails subscription={live} />
          <OnlyTheMember>
            {live.cancel_at_period_end ? null : confirming ? (
              <CancelQuestion subscription={live} />
            ) : (
              <p>
                <Link to={`${PATH}?cancel=1`} className="button button--secondary">
                  {t('cancel.button')}
                </Link>
              </p>
            )}
          </OnlyTheMember>
        </>
      ) : (
        <>
          <p>{t('account.free')}</p>
          {subscription?.status === 'incomplete' ? (
            <p className="notice">{t('account.waiting')}</p>
          ) : null}
          <OnlyTheMember>
            {offer ? <PartnerOffer offer={offer} soldAtRegularPrice={paymentsOn} /> : null}
            {paymentsOn ? (
              <>
                <p>{t('pricing.premiumIncludes')}</p>
                <JoinPremiumForm
                  lastResult={lastResult && 'status' in lastResult ? lastResult : null}
                />
              </>
            ) : offer ? null : (
              <p>{t('pricing.noPaid')}</p>
            )}
          </OnlyTheMember>
        </>
      )}
      <p>
        <Link to="/pricing">{t('account.pricingLink')}</Link>
      </p>
    </div>
  )
}

function PlanDetails({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('subscriptions')
  const day = useDay()
  const cardName = useCardName()
  const price = dollars(subscription.price_cents)
  const ends = subscription.current_period_end
  return (
    <>
      {subscription.status === 'past_due' && ends ? (
        <p className="notice">{t('account.pastDue', { date: day(ends) })}</p>
      ) : null}
      {subscription.cancel_at_period_end && ends ? (
        <p className="notice">{t('account.canceledNotice', { date: day(ends) })}</p>
      ) : null}
      <dl className="summary-list">
        <div>
          <dt>{t('account.plan')}</dt>
          <dd>{t('pricing.premiumTitle')}</dd>
        </div>
        <div>
          <dt>{t('account.status')}</dt>
          <dd>{t(`account.statuses.${subscription.status}`)}</dd>
        </div>
        <div>
          <dt>{t('account.price')}</dt>
          <dd>
            {subscription.partnership
              ? t('account.pricePartner', { price, partner: subscription.partnership.name })
              : t('account.priceYearly', { price })}
          </dd>
        </div>
        {ends ? (
          <div>
            <dt>
              {subscription.cancel_at_period_end ? t('account.endsOn') : t('account.renewsOn')}
            </dt>
            <dd>{day(ends)}</dd>
          </div>
        ) : null}
        {subscription.card ? (
          <div>
            <dt>{t('account.card')}</dt>
            <dd>
              <span className="card-item__name">
                <CardBrandLogo brand={subscription.card.brand} />
                <span>{cardName.full(subscription.card)}</span>
              </span>
              <br />
              <Link to="/account/payments">{t('account.cardsLink')}</Link>
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  )
}

/** The second step of cancelling: the question, "Yes, cancel premium" and "No, keep premium". */
function CancelQuestion({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('subscriptions')
  const day = useDay()
  const ends = subscription.current_period_end
  const question =
    subscription.partnership || !ends
      ? t('cancel.confirmPartner', { partner: subscription.partnership?.name ?? '' })
      : t('cancel.confirmPaid', { date: day(ends) })
  return (
    <section className="notice" aria-labelledby="cancel-question">
      <p id="cancel-question">{question}</p>
      <Form method="post" className="actions">
        <SubmitButton
          className="button button--danger"
          name="intent"
          value="cancel"
          pending="working"
        >
          {t('cancel.yes')}
        </SubmitButton>
        <Link to={PATH} className="button button--secondary">
          {t('cancel.no')}
        </Link>
      </Form>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
