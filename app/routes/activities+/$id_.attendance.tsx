import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { loadExperience } from '#app/utils/activity-form.server.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formatCurrency } from '#app/utils/experience.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * "Who came?" (issue 31 §3, decision 075): after an activity, its host (or an admin) marks each
 * member present or not, a pair of radio buttons each, nothing chosen until the host says. Only a
 * member marked "did not come" who agreed to the activity's no-show fee can be charged, a day later
 * and after a notice; a member left unmarked never is. Open until the fees are worked out.
 */
export const headers = formPageHeaders

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const experience = await loadExperience(request, context, params.id)
  const sheet = await getApi(request, context).fees.attendance(experience.id).catch(notFoundOnMissing)
  const t = await getT(request, context, 'activities')
  return { experience: { id: experience.id, title: experience.title, fee: experience.no_show_fee }, sheet, title: t('attendance.title') }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData()
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const marks = [...form.entries()]
        .filter(([name, value]) => name.startsWith('present:') && (value === 'yes' || value === 'no'))
        .map(([name, value]) => ({ user_id: name.slice('present:'.length), present: value === 'yes' }))
      try {
        await getApi(request, context).fees.markAttendance(params.id ?? '', marks)
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return refusedForm(context, { error: 'activities:attendance.closed' }, 409)
        throw error
      }
      return redirectWithToast(context, `/activities/${params.id}`, 'activities:attendance.saved')
    },
    () => data({ error: 'common:errors.notSaved' }, { status: 503 }),
  )
}

export default function Attendance() {
  const { experience, sheet } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t, i18n } = useTranslation('activities')
  const fee = experience.fee ? formatCurrency(experience.fee, i18n.language) : null
  return (
    <div className="prose">
      <h1>{t('attendance.title')}</h1>
      <p className="lead">{experience.title}</p>
      {refused && 'error' in refused ? (
        <div className="error-summary" role="alert">
          <p>{t(refused.error)}</p>
        </div>
      ) : null}
      {sheet.open ? <p>{t(fee ? 'attendance.introFee' : 'attendance.intro', { fee })}</p> : <p>{t('attendance.closed')}</p>}
      {sheet.attendees.length === 0 ? (
        <p>{t('attendance.nobody')}</p>
      ) : (
        <Form method="post">
          {sheet.attendees.map((attendee) => (
            <fieldset key={attendee.user_id} className="choices" disabled={!sheet.open}>
              <legend>
                {attendee.display_name ?? t('common:member.generic')}
                {attendee.fee_bound && fee ? <span className="hint"> — {t('attendance.agreed', { fee })}</span> : null}
              </legend>
              {(['yes', 'no'] as const).map((answer) => (
                <div className="choice" key={answer}>
                  <input
                    type="radio"
                    id={`present-${attendee.user_id}-${answer}`}
                    name={`present:${attendee.user_id}`}
                    value={answer}
                    defaultChecked={attendee.present === (answer === 'yes')}
                  />
                  <label htmlFor={`present-${attendee.user_id}-${answer}`}>{t(answer === 'yes' ? 'attendance.came' : 'attendance.didNotCome')}</label>
                </div>
              ))}
            </fieldset>
          ))}
          {sheet.open ? (
            <SubmitButton className="button" pending="saving">
              {t('attendance.save')}
            </SubmitButton>
          ) : null}
        </Form>
      )}
      <p>
        <Link to={`/activities/${experience.id}`}>{t('attendance.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
