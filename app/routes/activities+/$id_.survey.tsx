import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { defaultRating } from '#contract/surveys.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ratingSummaryId, StarRating } from '#app/components/star-rating.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { loadExperience } from '#app/utils/activity-form.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { attendanceIntents, ratingFormSchema } from '#app/utils/survey-schema.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

export const headers = formPageHeaders

const fieldOrder = ['rating', 'feedback']
const e = (key: string) => `survey:errors.${key}`
// The API's refusals: a rating or words it would not take (422), too early (409). Someone who did
// not attend is answered 403 (the error page), as for any activity that is not theirs.
const apiErrorMapping = {
  conflict: () => e('not_ended'),
  messages: {
    rating: () => [e('rating_invalid')],
    feedback: (codes: string[]) =>
      codes.map((code) =>
        code === 'feedback_too_long' ? e('feedback_too_long') : `common:validation.${code}`,
      ),
  },
}

/**
 * "How was it?" (issue 15 §6, decision 046): a star rating (default 5) and optional words for the
 * host. A member who answered before finds their own answer, not the default (issue 29 §4); the
 * API answers 403 to someone who did not attend, as the form would.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'survey')
  return loadFormPage(
    context,
    async () => {
      await requireUser(request, context)
      const experience = await loadExperience(request, context, params.id)
      const answer = await getApi(request, context).surveys.mine(experience.id).catch(notFoundOnMissing)
      return {
        id: experience.id,
        activityTitle: experience.title,
        title: t('page.title', { title: experience.title }),
        given: answer.rating === null ? null : { rating: answer.rating, feedback: answer.feedback },
      }
    },
    () => ({ id: params.id ?? '', activityTitle: null, title: t('page.titleGeneric'), given: null }),
  )
}

/**
 * The banner's three answers (`intent`: attended, not-attended, dismiss) and the rating form
 * (no intent). "Yes" leads to this page's rating; the others go home with a thank-you.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  const id = params.id ?? ''
  if (intent !== null) {
    if (!attendanceIntents.some((known) => known === intent))
      throw data({ error: 'Unknown intent' }, { status: 400 })
    return answerAttendance(request, context, id, intent as (typeof attendanceIntents)[number])
  }
  const submission = parseWithZod(formData, { schema: ratingFormSchema })
  return formAction({ request, context }, submission, {
    notSaved: e('not_saved'),
    apiErrors: apiErrorMapping,
    save: async ({ rating, feedback }) => {
      const recorded = await getApi(request, context).surveys.answer({
        type: 'POST_EXPERIENCE_SURVEY',
        experience_id: id,
        rating,
        ...(feedback ? { feedback } : {}),
      })
      // What the API recorded, in words: the number of stars, and whether words went to the host.
      const key = recorded.feedback ? 'survey:toast.ratedWithWords' : 'survey:toast.rated'
      return redirectWithToast(context, `/activities/${id}`, { kind: 'success', key, values: { count: recorded.rating ?? rating } })
    },
  })
}

async function answerAttendance(
  request: Request,
  context: AppLoadContext,
  id: string,
  intent: (typeof attendanceIntents)[number],
) {
  await requireUser(request, context)
  const api = getApi(request, context)
  if (intent === 'dismiss') {
    await api.popups.dismiss({ type: 'EXPERIENCE_ATTENDANCE', experience_id: id }).catch(notFoundOnMissing)
    return redirectWithToast(context, '/', 'survey:toast.dismissed')
  }
  await api.surveys
    .answer({
      type: 'EXPERIENCE_ATTENDANCE_SURVEY',
      experience_id: id,
      attended: intent === 'attended',
    })
    .catch(notFoundOnMissing)
  if (intent === 'attended') throw redirect(`/activities/${id}/survey`)
  return redirectWithToast(context, '/', 'survey:toast.notAttended')
}

export default function SurveyPage() {
  const { id, activityTitle, given } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('survey')
  const [form, fields] = useZodForm({
    id: 'survey',
    lastResult,
    // Reopened: the member's own answer, not the default.
    defaultValue: given
      ? { rating: String(given.rating), feedback: given.feedback ?? undefined }
      : undefined,
    schema: ratingFormSchema,
  })
  const typedRating = Number(fields.rating.initialValue)
  const feedback =
    typeof fields.feedback.initialValue === 'string' ? fields.feedback.initialValue : undefined
  const feedbackErrorId = fields.feedback.errors?.length ? 'feedback-error' : undefined
  return (
    <>
      <h1>{activityTitle ? t('page.title', { title: activityTitle }) : t('page.titleGeneric')}</h1>
      <ErrorSummary
        errors={summaryFrom(
          { rating: fields.rating.errors, feedback: fields.feedback.errors },
          fieldOrder,
        )}
        formErrors={form.errors}
      />
      <p>{t('page.intro')}</p>
      {given ? <p className="notice">{t('page.answered', { count: given.rating })}</p> : null}
      <Form method="post" className="form" {...getFormProps(form)}>
        <StarRating
          key={id}
          name={fields.rating.name}
          legend={t('rating.legend')}
          defaultValue={typedRating >= 1 && typedRating <= 5 ? typedRating : defaultRating}
          errors={fields.rating.errors}
        />
        <div className={feedbackErrorId ? 'field field--error' : 'field'}>
          <label htmlFor="feedback">{t('feedback.label')}</label>
          <span className="hint" id="feedback-hint">
            {t('feedback.hint')}
          </span>
          <FieldErrors id="feedback-error" errors={fields.feedback.errors} />
          <textarea
            id="feedback"
            name={fields.feedback.name}
            rows={5}
            defaultValue={feedback}
            aria-invalid={feedbackErrorId ? true : undefined}
            aria-describedby={['feedback-hint', feedbackErrorId].filter(Boolean).join(' ')}
          />
        </div>
        <div className="button-row">
          <SubmitButton pending="sending" className="button" aria-describedby={ratingSummaryId}>
            {t('page.submit')}
          </SubmitButton>
          <Link to={`/activities/${id}`} className="button button--secondary">
            {t('page.back')}
          </Link>
        </div>
      </Form>
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
