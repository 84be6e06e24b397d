import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { memberText } from '#contract/input-validation.ts'
import { maxRejectionReasonLength } from '#contract/verification.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * One ID verification request for a reviewer (decision 025): the member's name, both photos
 * (served decrypted through /admin/verifications/:id/:file), approve, or reject with a reason the
 * member reads. Two forms, each with its `intent`; both work without JavaScript.
 */
const e = (key: string) => `verification:errors.${key}`
const rejectSchema = z.object({
  intent: z.literal('reject'),
  reason: memberText(z.string({ error: e('reason_required') }).trim(), {
    controlCharacters: e('reason_characters'),
    directionCharacters: e('reason_characters'),
  }, { multiline: true })
    .min(1, e('reason_required'))
    .max(maxRejectionReasonLength, e('reason_too_long')),
})
const reasonMessages: Record<string, string> = { reason_too_long: e('reason_too_long'), reason_required: e('reason_required') }
const apiErrorMapping = {
  messages: { reason: (codes: string[]) => codes.map((code) => reasonMessages[code] ?? e('reason_characters')) },
  conflict: () => e('decided'),
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'verification')
  const item = await getApi(request, context).verification.request(params.id ?? '').catch(notFoundOnMissing)
  return { item, title: t('admin.reviewTitle', { name: item.user.name }) }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  const api = getApi(request, context).verification
  const id = params.id ?? ''
  switch (form.get('intent')) {
    case 'approve': {
      try {
        await api.approve(id)
      } catch (error) {
        // Decided in the meantime (another reviewer): the page shows the outcome.
        if (!(error instanceof ApiError && error.status === 409)) return notFoundOnMissing(error)
        return redirectWithToast(context, `/admin/verifications/${encodeURIComponent(id)}`, { kind: 'error', key: e('decided') })
      }
      return redirectWithToast(context, '/admin/verifications', 'verification:admin.approvedToast')
    }
    case 'reject': {
      return formAction({ request, context }, parseWithZod(form, { schema: rejectSchema }), {
        apiErrors: apiErrorMapping,
        save: async ({ reason }) => {
          await api.reject(id, reason)
          return redirectWithToast(context, '/admin/verifications', 'verification:admin.rejectedToast')
        },
      })
    }
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

export default function ReviewVerification() {
  const { item } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t, i18n } = useTranslation('verification')
  const [form, fields] = useZodForm({
    id: 'reject',
    lastResult,
    schema: rejectSchema,
  })
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' })
  const name = item.user.name
  const reasonErrorId = fields.reason.errors?.length ? 'reason-error' : undefined
  const pending = item.status === 'processing'
  return (
    <div className="prose">
      <h1>{t('admin.reviewTitle', { name })}</h1>
      <ErrorSummary errors={summaryFrom({ reason: fields.reason.errors }, ['reason'])} formErrors={form.errors} />
      <dl className="details">
        <dt>{t('admin.member')}</dt>
        <dd>{name}</dd>
        <dt>{t('admin.email')}</dt>
        <dd>{item.user.email ? <BreakableText text={item.user.email} /> : '—'}</dd>
        <dt>{t('admin.sent')}</dt>
        <dd>{date.format(new Date(item.created_at))}</dd>
      </dl>
      {pending ? null : (
        <p className="notice">
          {t(`admin.outcome.${item.status}`)}. {item.decided_at ? t('admin.decidedOn', { date: date.format(new Date(item.decided_at)) }) : null}
        </p>
      )}
      {item.has_files ? (
        <div className="verification-photos">
          <figure>
            <figcaption>{t('admin.document')}</figcaption>
            <img src={`/admin/verifications/${item.id}/document`} alt={t('admin.documentAlt', { name })} />
          </figure>
          <figure>
            <figcaption>{t('admin.selfie')}</figcaption>
            <img src={`/admin/verifications/${item.id}/selfie`} alt={t('admin.selfieAlt', { name })} />
          </figure>
        </div>
      ) : (
        <p>{t('admin.noFiles')}</p>
      )}
      {pending ? (
        <>
          <Form method="post" className="button-row">
            <input type="hidden" name="intent" value="approve" />
            <SubmitButton pending="saving" className="button">
              {t('admin.approve')}
            </SubmitButton>
          </Form>
          <h2>{t('admin.rejectHeading')}</h2>
          <Form method="post" className="form" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="reject" />
            <div className={reasonErrorId ? 'field field--error' : 'field'}>
              <label htmlFor="reason">{t('admin.reason.label')}</label>
              <span className="hint" id="reason-hint">
                {t('admin.reason.hint')}
              </span>
              <FieldErrors id="reason-error" errors={fields.reason.errors} />
              <textarea
                id="reason"
                name={fields.reason.name}
                rows={4}
                maxLength={maxRejectionReasonLength}
                required
                defaultValue={typeof fields.reason.initialValue === 'string' ? fields.reason.initialValue : undefined}
                aria-invalid={reasonErrorId ? true : undefined}
                aria-describedby={['reason-hint', reasonErrorId].filter(Boolean).join(' ')}
              />
            </div>
            <SubmitButton pending="saving" className="button button--danger">
              {t('admin.reject')}
            </SubmitButton>
          </Form>
        </>
      ) : null}
      <p>
        <Link to="/admin/verifications">{t('admin.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
