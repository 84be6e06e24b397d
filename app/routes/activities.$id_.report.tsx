import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { ChoiceGroup, FieldErrors } from '#app/components/ui/field.tsx'
import { ApiError, listOf } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { experienceSchema } from '#app/utils/experience-schema.ts'
import { formErrorsFromApi } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { markFormError, pageTitle } from '#app/utils/meta.ts'
import { reportDetailsMessages, reportFormSchema, reportReasons } from '#app/utils/report-schema.ts'
import { setToast } from '#app/utils/toast.server.ts'

export const handle = { i18n: ['common', 'reports'] }

const reasons = reportReasons
const e = (key: string) => `reports:errors.${key}`
const fieldOrder = ['reason', 'details']
const reportResponse = z.object({ data: z.array(z.object({ id: z.string() })) })

async function loadExperience(request: Request, context: LoaderFunctionArgs['context'], id: string | undefined) {
  const result = await getApi(request, context)
    .get(`v1/experiences/${encodeURIComponent(id ?? '')}`, { schema: listOf(experienceSchema) })
    .catch(notFoundOnMissing)
  const experience = result.data[0]
  if (!experience) throw data(null, { status: 404 })
  return experience
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const experience = await loadExperience(request, context, params.id)
  const t = await getT(request, context, 'reports')
  return { id: experience.id, activityTitle: experience.title, title: t('title') }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: reportFormSchema })
  if (submission.status !== 'success') {
    markFormError(context)
    return data(submission.reply(), { status: 400 })
  }
  const experience = await loadExperience(request, context, params.id)
  try {
    await getApi(request, context).post('v1/reported-contents', {
      body: { reason: submission.value.reason, details: submission.value.details ?? '', experience_id: experience.id },
      schema: reportResponse,
    })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFoundOnMissing(error)
    // The API answers 422 with field codes (reason_invalid, details_too_long) for what the form checks too.
    const fieldErrors: Record<string, string[]> = {}
    if (error instanceof ApiError && error.status === 422) {
      if (error.fields.reason) fieldErrors.reason = [e('reason_required')]
      if (error.fields.details) fieldErrors.details = reportDetailsMessages(error.fields.details)
    }
    const mapped = Object.keys(fieldErrors).length > 0 ? { error: fieldErrors } : formErrorsFromApi(error)
    if (!mapped) throw error
    markFormError(context)
    const { '': formErrors, ...fields } = (mapped.error ?? {}) as Record<string, string[]>
    return data(submission.reply({ fieldErrors: fields, formErrors }), { status: 400 })
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
      <p>{t('intro', { title: activityTitle })}</p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ChoiceGroup
          id="reason"
          name={fields.reason.name}
          type="radio"
          legend={t('reason.legend')}
          hint={t('reason.hint')}
          required
          options={reasons.map((reason) => ({ value: reason, label: t(`reason.options.${reason}`) }))}
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
