import {
  data,
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Form,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useSearchParams,
} from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { PaymentMethod } from '#contract/payments.ts'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'
import { CardBrandLogo, cardShortName, useCardName } from '#app/components/payment-card.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { cardSetupToast } from '#app/utils/card-setup.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { minutesToWait } from '#app/utils/http.server.ts'

/**
 * `/account/payments` (spec §2, issue 31 §2, decision 073): the member's cards, with the brand's
 * logo and "Visa •••• 4242, expires 08/27"; add one (through the provider's hosted card page, then
 * back here), make one the default, remove one (asked once more first). Plain forms: every action
 * works without JavaScript; with it, the default changes at once and the list is read again after
 * every action, so a refused change shows the cards as they are.
 */
const PATH = '/account/payments'

export function requirePayments(context: AppLoadContext) {
  if (context.services.config.payments === false) throw data(null, { status: 404 })
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePayments(context)
  await requireUser(request, context)
  const url = new URL(request.url)
  const api = getApi(request, context).payments
  // Back from the hosted card page: what came of it, said once, and the address made plain again.
  if (url.searchParams.has('setup'))
    return redirectWithToast(context, PATH, await cardSetupToast(request, context, url))
  const t = await getT(request, context, 'payments')
  const cards = await api.cards()
  const removing = cards.find((card) => card.id === url.searchParams.get('remove')) ?? null
  return { cards, removing, title: t('title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePayments(context)
  const form = await request.formData()
  const intent = formText(form, 'intent')
  const id = formText(form, 'id')
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context).payments
      try {
        if (intent === 'add') return redirect((await api.startSetup()).redirect_url)
        if (intent === 'default') {
          const card = await api.makeDefault(id)
          const name = cardShortName(await getT(request, context, 'payments'), card)
          return redirectWithToast(context, PATH, {
            kind: 'success',
            key: 'payments:done.default',
            values: { card: name },
          })
        }
        if (intent === 'remove') {
          await api.remove(id)
          return redirectWithToast(context, PATH, 'payments:done.removed')
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        if (error.code === 'card_in_use')
          return refusedForm(context, { error: 'payments:errors.cardInUse' }, 409)
        if (error.code === 'card_backs_fee')
          return refusedForm(context, { error: 'payments:errors.cardBacksFee' }, 409)
        if (error.status === 429)
          return refusedForm(context, { error: 'payments:errors.tooMany', count: minutesToWait(error) }, 429)
        if (error.status === 404 || error.status === 422)
          return redirectWithToast(context, PATH, { kind: 'info', key: 'payments:errors.gone' })
        throw error
      }
      throw data({ error: 'Unknown intent' }, { status: 400 })
    },
    () => ({ error: 'payments:errors.notSaved' }),
  )
}

export default function Payments() {
  const { cards, removing } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t } = useTranslation('payments')
  const cardName = useCardName()
  const [searchParams] = useSearchParams()
  const fetcher = useFetcher<typeof action>()
  // The default changes at once with JavaScript; the loader's list is read again after the action.
  const pendingDefault =
    fetcher.formData?.get('intent') === 'default' ? fetcher.formData.get('id') : null
  const shown = pendingDefault
    ? cards.map((card) => ({ ...card, is_default: card.id === pendingDefault }))
    : cards
  const refusal =
    refused && 'error' in refused ? refused : fetcher.data && 'error' in fetcher.data ? fetcher.data : null
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      {refusal ? (
        <div className="error-summary" role="alert">
          <p>{t(refusal.error, { count: 'count' in refusal ? Number(refusal.count) : undefined })}</p>
        </div>
      ) : null}
      <p>{t('intro')}</p>
      {removing && searchParams.get('remove') ? (
        <section className="notice" aria-labelledby="remove-question">
          <p id="remove-question">{t('removeConfirm', { card: cardName.full(removing) })}</p>
          <Form method="post" className="actions">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="id" value={removing.id} />
            <SubmitButton className="button button--danger" pending="deleting">
              {t('removeYes')}
            </SubmitButton>
            <Link to={PATH} className="button button--secondary">
              {t('removeNo')}
            </Link>
          </Form>
        </section>
      ) : null}
      {shown.length === 0 ? (
        <p data-testid="no-cards">{t('none')}</p>
      ) : (
        <>
          <p className="hint">{t('defaultHint')}</p>
          <ul className="card-list">
            {shown.map((card) => (
              <CardItem key={card.id} card={card} fetcher={fetcher} />
            ))}
          </ul>
        </>
      )}
      <OnlyTheMember>
        <Form method="post">
          <input type="hidden" name="intent" value="add" />
          <p className="hint" id="add-hint">
            {t('addHint')}
          </p>
          <SubmitButton className="button" pending="opening" aria-describedby="add-hint">
            {t('add')}
          </SubmitButton>
        </Form>
      </OnlyTheMember>
      <p>
        <Link to="/account">{t('back')}</Link>
      </p>
    </div>
  )
}

function CardItem({
  card,
  fetcher,
}: {
  card: PaymentMethod
  fetcher: ReturnType<typeof useFetcher<typeof action>>
}) {
  const { t } = useTranslation('payments')
  const cardName = useCardName()
  const name = cardName.full(card)
  return (
    <li className="card-item" data-testid="payment-card">
      <div className="card-item__name">
        <CardBrandLogo brand={card.brand} />
        <span>{name}</span>
        {card.is_default ? <strong className="tag">{t('isDefault')}</strong> : null}
      </div>
      {card.is_expired ? <p className="field-error">{t('expired')}</p> : null}
      <OnlyTheMember quiet>
        <div className="actions">
          {card.is_default || card.is_expired ? null : (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="default" />
              <input type="hidden" name="id" value={card.id} />
              <SubmitButton
                className="button button--secondary"
                pending="saving"
                aria-label={`${t('makeDefault')}: ${name}`}
              >
                {t('makeDefault')}
              </SubmitButton>
            </fetcher.Form>
          )}
          <Link
            to={`${PATH}?remove=${card.id}`}
            className="button button--secondary"
            aria-label={`${t('remove')}: ${name}`}
          >
            {t('remove')}
          </Link>
        </div>
      </OnlyTheMember>
    </li>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
