import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { OnlyTheMember, useViewingAs } from '#app/components/only-the-member.tsx'
import { FeeStatus } from '#app/components/fee-status.tsx'
import { formatCurrency } from '#app/utils/experience.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { minutesToWait } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { requirePayments } from './payments.tsx'

/**
 * `/account/fees` (issue 31 §3, decision 075): the member's no-show fees in plain sentences, and
 * before each is charged, "This is wrong": one press (a few words optional), and the Circle 55
 * team looks at it before anything is charged. A fee the bank would not take off-session has
 * "Pay $X now": the payments provider's hosted page (where the bank may ask the member to
 * confirm), back here with `?paid={id}`. Where the fee notices and receipts lead.
 */
export const headers = formPageHeaders
const PATH = '/account/fees'

export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePayments(context)
  await requireUser(request, context)
  const t = await getT(request, context, 'payments')
  return { fees: await getApi(request, context).fees.mine(), title: t('fees.title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePayments(context)
  const form = await request.formData()
  const intent = form.get('intent') === 'pay' ? 'pay' : 'dispute'
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (intent === 'pay') {
        try {
          return redirect(await getApi(request, context).fees.pay(formText(form, 'id')))
        } catch (error) {
          if (error instanceof ApiError && (error.status === 409 || error.status === 404))
            return refusedForm(
              context,
              { intent, error: 'payments:fees.notPayable', id: formText(form, 'id'), reason: '' },
              409,
            )
          // The payment page opened many times in the hour (each is a session at the provider).
          if (error instanceof ApiError && error.status === 429)
            return refusedForm(
              context,
              { intent, error: 'payments:fees.tooMany', count: minutesToWait(error), id: formText(form, 'id'), reason: '' },
              429,
            )
          throw error
        }
      }
      const reason = formText(form, 'reason').trim()
      if (reason.length > 1000)
        return refusedForm(
          context,
          { intent, error: 'payments:fees.tooLong', id: formText(form, 'id'), reason },
          400,
        )
      try {
        await getApi(request, context).fees.dispute(formText(form, 'id'), reason)
      } catch (error) {
        if (error instanceof ApiError && (error.status === 409 || error.status === 404))
          return refusedForm(
            context,
            { intent, error: 'payments:fees.closed', id: formText(form, 'id'), reason },
            409,
          )
        throw error
      }
      return redirectWithToast(context, PATH, 'payments:fees.disputed')
    },
    () => ({
      intent,
      error: 'common:errors.notSaved',
      id: formText(form, 'id'),
      reason: formText(form, 'reason'),
    }),
  )
}

export default function Fees() {
  const { fees } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t, i18n } = useTranslation('payments')
  // Back from the payment page: paid, or the bank has not answered yet.
  const [searchParams] = useSearchParams()
  const back = fees.find((fee) => fee.id === searchParams.get('paid'))
  const viewingAs = useViewingAs()
  return (
    <div className="prose">
      <h1>{t('fees.title')}</h1>
      {back ? (
        <div className="notice" role="status" data-testid="fee-paid">
          <p>{t(back.status === 'charged' ? 'fees.paid' : 'fees.payPending')}</p>
        </div>
      ) : null}
      <p>{t('fees.intro')}</p>
      {viewingAs ? <OnlyTheMember>{null}</OnlyTheMember> : null}
      {fees.length === 0 ? (
        <p data-testid="no-fees">{t('fees.none')}</p>
      ) : (
        <ul className="card-list">
          {fees.map((fee) => {
            const failed = refused && refused.id === fee.id ? refused : null
            const said = failed ? t(failed.error, { count: 'count' in failed ? Number(failed.count) : undefined }) : null
            return (
              <li key={fee.id} className="card-item" data-testid="fee">
                <h2 className="card-item__name">
                  <Link to={`/activities/${fee.experience.id}`}>{fee.experience.title}</Link>
                </h2>
                <FeeStatus fee={fee} />
                {/* Paying's answer next to the button; disputing's in its form while it can still be sent. */}
                {failed && (failed.intent === 'pay' || !fee.can_dispute) ? (
                  <p className="field-error" role="alert">
                    {said}
                  </p>
                ) : null}
                <OnlyTheMember quiet>
                  {fee.can_pay ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={fee.id} />
                      <p className="hint" id={`pay-${fee.id}-hint`}>
                        {t('fees.payHint')}
                      </p>
                      <SubmitButton
                        className="button"
                        name="intent"
                        value="pay"
                        pending="checking"
                        aria-describedby={`pay-${fee.id}-hint`}
                      >
                        {t('fees.pay', { amount: formatCurrency(fee.amount, i18n.language) })}
                      </SubmitButton>
                    </Form>
                  ) : null}
                  {fee.can_dispute ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={fee.id} />
                      {failed?.intent === 'dispute' ? (
                        <p className="field-error" role="alert">
                          {said}
                        </p>
                      ) : null}
                      <div className="field">
                        <label htmlFor={`reason-${fee.id}`}>{t('fees.reasonLabel')}</label>
                        <span className="hint" id={`reason-${fee.id}-hint`}>
                          {t('fees.reasonHint')}
                        </span>
                        <textarea
                          id={`reason-${fee.id}`}
                          name="reason"
                          rows={3}
                          maxLength={1000}
                          aria-describedby={`reason-${fee.id}-hint`}
                          defaultValue={failed?.reason ?? ''}
                        />
                      </div>
                      <SubmitButton className="button button--secondary" pending="sending">
                        {t('fees.dispute')}
                      </SubmitButton>
                    </Form>
                  ) : null}
                </OnlyTheMember>
              </li>
            )
          })}
        </ul>
      )}
      <p>
        <Link to="/company/attendance-policy">{t('fees.policy')}</Link>
      </p>
      <p>
        <Link to="/account">{t('back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
