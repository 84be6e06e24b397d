import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FeeStatus } from '#app/components/fee-status.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `/admin/payments` (issue 31 §3, decision 075): the team's queue of no-show fees, disputed ones
 * first with what the member said; each can be waived with a reason, a disputed one charged, a
 * charged one refunded with a reason. The API decides who may (`review:fees`, `refund:fees`) and
 * audits each decision; anyone else gets its 403.
 */
export const headers = formPageHeaders
const PATH = '/admin/payments'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'payments')
  return { fees: await getApi(request, context).fees.forTeam().catch(notFoundOnMissing), title: t('team.title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const id = formText(form, 'id')
  const reason = formText(form, 'reason').trim()
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context).fees
      const intent = form.get('intent')
      if (intent === 'waive' && !reason) return refusedForm(context, { id, error: 'payments:team.reasonRequired', reason }, 400)
      if (intent === 'refund' && !reason) return refusedForm(context, { id, error: 'payments:team.refundReasonRequired', reason }, 400)
      try {
        if (intent === 'waive') await api.waive(id, reason)
        else if (intent === 'refund') await api.refund(id, reason)
        else await api.charge(id)
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return refusedForm(context, { id, error: intent === 'refund' ? 'payments:team.notCharged' : 'payments:team.closed', reason }, 409)
        if (error instanceof ApiError && error.status === 503 && intent === 'refund') return refusedForm(context, { id, error: 'payments:team.refundFailed', reason }, 503)
        throw error
      }
      return redirectWithToast(context, PATH, intent === 'waive' ? 'payments:team.waived' : intent === 'refund' ? 'payments:team.refunded' : 'payments:team.charged')
    },
    () => ({ id, error: 'common:errors.notSaved', reason }),
  )
}

export default function TeamPayments() {
  const { fees } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t } = useTranslation('payments')
  return (
    <div className="prose">
      <h1>{t('team.title')}</h1>
      <p className="lead">{t('team.intro')}</p>
      {fees.length === 0 ? (
        <p>{t('team.none')}</p>
      ) : (
        <ul className="card-list">
          {fees.map((fee) => {
            const failed = refused && refused.id === fee.id ? refused : null
            const open = ['noticed', 'disputed', 'needs_confirmation', 'declined'].includes(fee.status)
            return (
              <li key={fee.id} className="card-item" data-testid="team-fee">
                <h2 className="card-item__name">
                  <Link to={`/activities/${fee.experience.id}`}>{fee.experience.title}</Link>
                </h2>
                <p>{t('team.member', { name: fee.member.name, email: fee.member.email ?? '' })}</p>
                <FeeStatus fee={fee} />
                {fee.dispute_text ? <blockquote>{fee.dispute_text}</blockquote> : null}
                {fee.refund_note ? <p>{t('team.refundNote', { note: fee.refund_note })}</p> : null}
                {failed ? (
                  <p className="field-error" role="alert">
                    {t(failed.error)}
                  </p>
                ) : null}
                {open ? (
                  <Form method="post">
                    <input type="hidden" name="id" value={fee.id} />
                    <div className="field">
                      <label htmlFor={`reason-${fee.id}`}>{t('team.reasonLabel')}</label>
                      <textarea id={`reason-${fee.id}`} name="reason" rows={2} maxLength={1000} defaultValue={failed?.reason ?? ''} />
                    </div>
                    <div className="button-row">
                      <SubmitButton className="button button--secondary" name="intent" value="waive" pending="saving">
                        {t('team.waive')}
                      </SubmitButton>
                      {fee.status === 'disputed' ? (
                        <SubmitButton className="button button--secondary" name="intent" value="charge" pending="saving">
                          {t('team.charge')}
                        </SubmitButton>
                      ) : null}
                    </div>
                  </Form>
                ) : null}
                {fee.status === 'charged' ? (
                  <Form method="post">
                    <input type="hidden" name="id" value={fee.id} />
                    <div className="field">
                      <label htmlFor={`refund-reason-${fee.id}`}>{t('team.refundReasonLabel')}</label>
                      <textarea id={`refund-reason-${fee.id}`} name="reason" rows={2} maxLength={1000} defaultValue={failed?.reason ?? ''} />
                    </div>
                    <SubmitButton className="button button--secondary" name="intent" value="refund" pending="saving">
                      {t('team.refund')}
                    </SubmitButton>
                  </Form>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
      <p>
        <Link to="/admin">{t('team.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
