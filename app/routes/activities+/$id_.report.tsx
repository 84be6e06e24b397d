import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ChoiceGroup, FieldErrors } from '#app/components/ui/field.tsx'
import { loadExperience } from '#app/utils/activity-form.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, keepFormOnOutage, loadFormPage } from '#app/utils/forms.server.ts'
import { formErrorsFromApi } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { markFormError, pageTitle } from '#app/utils/meta.ts'
import { reportDetailsMessages, reportFormSchema, reportReasons } from '#app/utils/report-schema.ts'
import { setToast } from '#app/utils/toast.server.ts'

export const handle = { i18n: ['common', 'reports'] }

export const headers = formPageHeaders

const e = (key: string) => `reports:errors.${key}`
const parseReport = (formData: FormData) => parseWithZod(formData, { schema: reportFormSchema })
const fieldOrder = ['reason', 'details']
// The API answers 422 with field codes (reason_invalid, details_too_long) for what the form checks too.
const apiErrorMapping = { messages: { reason: () => [e('reason_required')], details: reportDetailsMessages } }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'reports')
  return loadFormPage(
    context,
    async () => {
      await requireUser(request, context)
      const experience = await loadExperience(request, context, params.id)
      return { id: experience.id, activityTitle: experience.title, title: t('title') }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ id: params.id ?? '', activityTitle: null, title: t('title') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: an outage (the session store included) answers with what the member wrote.
  const submission = parseReport(await request.formData())
  return keepFormOnOutage(
    context,
    () => sendReport(request, context, params.id, submission),
    () => submission.reply({ formErrors: [e('not_saved')] }),
  )
}

async function sendReport(
  request: Request,
  context: ActionFunctionArgs['context'],
  id: string | undefined,
  submission: ReturnType<typeof parseReport>,
) {
  await requireUser(request, context)
  if (submission.status !== 'success') {
    markFormError(context)
    return data(submission.reply(), { status: 400 })
  }
  const experience = await loadExperience(request, context, id)
  try {
    await getApi(request, context).reports.create({
      reason: submission.value.reason,
      details: submission.value.details ?? '',
      experience_id: experience.id,
    })
  } catch (error) {
    const { status, ...errors } = formErrorsFromApi(error, apiErrorMapping)
    markFormError(context)
    return data(submission.reply(errors), { status })
  }
  return redirect(`/activities/${experience.id}`, {
    headers: { 'Set-Cookie': await setToast(context, { kind: 'success', key: 'activities:toast.reported' }) },
  })
}

export default function ReportActivity() {
  const { id, activityTitle } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('reports')
  const [form, fields] = useForm({
    id: 'report',
    lastResult,
    constraint: getZodConstraint(reportFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reportFormSchema }),
  })
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const detailsErrorId = fields.details.errors?.length ? 'details-error' : undefined
  return (
    <>
      <h1>{t('title')}</h1>
      <ErrorSummary
        errors={summaryFrom({ reason: fields.reason.errors, details: fields.details.errors }, fieldOrder)}
        formErrors={form.errors}
      />
      {activityTitle ? <p>{t('intro', { title: activityTitle })}</p> : null}
      <Form method="post" className="form" {...getFormProps(form)}>
        <ChoiceGroup
          id="reason"
          name={fields.reason.name}
          type="radio"
          legend={t('reason.legend')}
          hint={t('reason.hint')}
          required
          options={reportReasons.map((reason) => ({ value: reason, label: t(`reason.options.${reason}`) }))}
          defaultValue={str(fields.reason.initialValue)}
          errors={fields.reason.errors}
        />
        <div className={fields.details.errors?.length ? 'field field--error' : 'field'}>
          <label htmlFor="details">{t('details.label')}</label>
          <span className="hint" id="details-hint">
            {t('details.hint')}
          </span>
          <FieldErrors id="details-error" errors={fields.details.errors} />
          <textarea
            id="details"
            name={fields.details.name}
            rows={6}
            defaultValue={str(fields.details.initialValue)}
            aria-invalid={detailsErrorId ? true : undefined}
            aria-describedby={['details-hint', detailsErrorId].filter(Boolean).join(' ')}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="button">
            {t('submit')}
          </button>
          <Link to={`/activities/${id}`} className="button button--secondary">
            {t('back')}
          </Link>
        </div>
      </Form>
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
