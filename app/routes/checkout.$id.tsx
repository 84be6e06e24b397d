import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { CardBrandLogo, useCardName } from '#app/components/payment-card.tsx'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { requirePayments } from './account+/payments.tsx'
import { dollars } from '#contract/subscriptions.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * `/checkout/{id}`: the built-in provider's hosted card page (decision 073), standing in for
 * Stripe Checkout in setup mode while no Stripe keys are set. A plain form: the card goes to the
 * API's built-in bank, which keeps only its brand, last four digits and expiry; the number and
 * security code are never sent back to the browser, even when the card is refused. When the bank
 * asks the member to confirm (test cards 3155 and 3184), the page asks "Is this you?" as a bank
 * would. Then the member goes back to where they started ("Add a card").
 */
export const headers = formPageHeaders

const f = (code: string) => `payments:fields.${code}`
const cardSchema = z.object({
  intent: z.literal('card'),
  number: z.string({ error: f('card_number_required') }).trim().max(40, f('card_number_invalid')),
  expiry: z.string({ error: f('card_expiry_required') }).trim().max(10, f('card_expiry_invalid')),
  cvc: z.string({ error: f('card_cvc_required') }).trim().max(8, f('card_cvc_invalid')),
  postalCode: z.string({ error: f('postal_code_required') }).trim().max(10, f('postal_code_invalid')),
})
const authenticationSchema = z.object({ intent: z.enum(['confirm', 'fail']) })
const schema = z.discriminatedUnion('intent', [cardSchema, authenticationSchema])

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requirePayments(context)
  await requireUser(request, context)
  const t = await getT(request, context, 'payments')
  return { checkout: await getApi(request, context).payments.checkout(params.id!), title: t('checkout.title') }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requirePayments(context)
  const id = params.id!
  const submission = parseWithZod(await request.formData(), { schema })
  const api = getApi(request, context).payments
  return formAction({ request, context }, submission, {
    hideFields: ['number', 'cvc'],
    notSaved: 'payments:errors.notSaved',
    apiErrors: { prefix: 'payments:fields.', fields: { postal_code: 'postalCode' }, conflict: () => f('checkoutClosed') },
    save: async (value) => {
      if (value.intent === 'card') {
        const checkout = await api.submitCard(id, { number: value.number, expiry: value.expiry, cvc: value.cvc, postal_code: value.postalCode })
        return checkout.status === 'complete' ? redirect(checkout.return_url) : redirect(`/checkout/${id}`)
      }
      const checkout = await api.authenticate(id, value.intent)
      return checkout.status === 'complete' ? redirect(checkout.return_url) : redirect(`/checkout/${id}?authentication=failed`)
    },
  })
}

export default function Checkout() {
  const { checkout } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('payments')
  const cardName = useCardName()
  const [searchParams] = useSearchParams()
  const [form, fields] = useZodForm({
    id: 'checkout-card',
    lastResult,
    schema,
    constraintSchema: cardSchema,
  })
  if (checkout.status === 'complete' || checkout.status === 'expired') {
    const done = checkout.status === 'complete'
    return (
      <div className="prose">
        <h1>{done ? t(checkout.mode === 'payment' ? 'subscriptions:checkout.complete' : 'checkout.complete') : t('checkout.expiredTitle')}</h1>
        {done ? null : <p>{t('checkout.expiredText')}</p>}
        <p>
          <a href={done ? checkout.return_url : checkout.cancel_url} className="button">
            {t('checkout.continue')}
          </a>
        </p>
      </div>
    )
  }
  if (checkout.status === 'requires_authentication' && checkout.pending_card) {
    return (
      <div className="prose">
        <h1>{t('checkout.authTitle')}</h1>
        <p className="card-item__name">
          <CardBrandLogo brand={checkout.pending_card.brand} />
          <span>{cardName.short(checkout.pending_card)}</span>
        </p>
        <p>{t(checkout.mode === 'payment' ? 'checkout.authTextPay' : 'checkout.authText', { card: cardName.short(checkout.pending_card) })}</p>
        <Form method="post" className="actions">
          <SubmitButton className="button" name="intent" value="confirm" pending="checking">
            {t('checkout.authConfirm')}
          </SubmitButton>
          <SubmitButton className="button button--secondary" name="intent" value="fail" pending="checking">
            {t('checkout.authFail')}
          </SubmitButton>
        </Form>
      </div>
    )
  }
  const failed = searchParams.get('authentication') === 'failed' && !lastResult
  // Payment mode (decision 074): the amount and what it is for, above the card.
  const paying =
    checkout.mode === 'payment' && checkout.amount_cents ? { price: dollars(checkout.amount_cents), recurring: checkout.recurring_interval === 'year' } : null
  return (
    <div className="prose">
      <h1>{paying ? t('subscriptions:checkout.title') : t('checkout.title')}</h1>
      {paying ? <p className="lead">{paying.recurring ? t('subscriptions:checkout.premium', { price: paying.price }) : paying.price}</p> : null}
      <ErrorSummary errors={summaryFrom(fields.number.errors || fields.expiry.errors || fields.cvc.errors || fields.postalCode.errors ? { number: fields.number.errors, expiry: fields.expiry.errors, cvc: fields.cvc.errors, postalCode: fields.postalCode.errors } : {}, ['number', 'expiry', 'cvc', 'postalCode'])} formErrors={form.errors} />
      {failed ? (
        <div className="notice" role="status">
          <p>{t('checkout.authFailed')}</p>
        </div>
      ) : null}
      <div className="notice">
        <p>{t('checkout.testNotice')}</p>
        <details>
          <summary>{t('checkout.testCards')}</summary>
          <ul>
            {testCards.map(([number, outcome]) => (
              <li key={number}>
                <span className="nowrap">{number}</span>: {t(`checkout.testCard.${outcome}`)}
              </li>
            ))}
          </ul>
          <p>{t('checkout.testCardsExpiry')}</p>
        </details>
      </div>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="card" />
        <TextField id="number" name="number" label={t('checkout.number')} hint={t('checkout.numberHint')} errors={fields.number.errors} inputMode="numeric" autoComplete="cc-number" spellCheck={false} required />
        <TextField id="expiry" name="expiry" label={t('checkout.expiry')} hint={t('checkout.expiryHint')} errors={fields.expiry.errors} autoComplete="cc-exp" spellCheck={false} required defaultValue={typeof fields.expiry.initialValue === 'string' ? fields.expiry.initialValue : ''} />
        <TextField id="cvc" name="cvc" label={t('checkout.cvc')} hint={t('checkout.cvcHint')} errors={fields.cvc.errors} inputMode="numeric" autoComplete="cc-csc" spellCheck={false} required />
        <TextField id="postalCode" name="postalCode" label={t('checkout.postalCode')} hint={t('checkout.postalCodeHint')} errors={fields.postalCode.errors} inputMode="numeric" autoComplete="postal-code" required defaultValue={typeof fields.postalCode.initialValue === 'string' ? fields.postalCode.initialValue : ''} />
        <SubmitButton className="button" pending="checking">
          {paying ? t('subscriptions:checkout.pay', { price: paying.price }) : t('checkout.save')}
        </SubmitButton>
      </Form>
      <p>
        <a href={checkout.cancel_url}>{t('checkout.cancel')}</a>
      </p>
    </div>
  )
}

/** Stripe's test cards the built-in bank knows, and what each does (contract/payments.ts). */
const testCards = [
  ['4242 4242 4242 4242', 'succeeds'],
  ['4000 0000 0000 0002', 'declined'],
  ['4000 0000 0000 9995', 'insufficientFunds'],
  ['4000 0000 0000 0341', 'chargeDeclined'],
  ['4000 0025 0000 3155', 'confirmOnce'],
  ['4000 0027 6000 3184', 'confirmAlways'],
] as const

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
