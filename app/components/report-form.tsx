import { getFormProps } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { ChoiceGroup, FieldErrors } from '#app/components/ui/field.tsx'
import { reportFormSchema, reportReasons } from '#app/utils/report-schema.ts'
import { SubmitButton } from './ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

const fieldOrder = ['reason', 'details', 'block']

/**
 * The report form (spec §3 "Report"): a reason and optional details, for an activity, a member, a
 * message or a conversation; with `blockLabel`, a checkbox to block the member in the same step
 * (decision 037). Works without JavaScript; the page gives its heading, its introduction and
 * where "back" goes.
 */
export function ReportForm({
  title,
  intro,
  lastResult,
  back,
  blockLabel,
  children,
}: {
  title: string
  intro: string | null
  lastResult: SubmissionResult<string[]> | undefined
  back: { to: string; label: string }
  blockLabel?: { label: string; hint: string } | null
  /** Shown between the introduction and the form (the message being reported). */
  children?: React.ReactNode
}) {
  const { t } = useTranslation('reports')
  const [form, fields] = useZodForm({
    id: 'report',
    lastResult,
    schema: reportFormSchema,
  })
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const detailsErrorId = fields.details.errors?.length ? 'details-error' : undefined
  return (
    <>
      <h1>{title}</h1>
      <ErrorSummary
        errors={summaryFrom({ reason: fields.reason.errors, details: fields.details.errors, block: fields.block.errors }, fieldOrder)}
        formErrors={form.errors}
      />
      {intro ? <p>{intro}</p> : null}
      {children}
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
        {blockLabel ? (
          <div className={fields.block.errors?.length ? 'field field--error' : 'field'}>
            <FieldErrors id="block-error" errors={fields.block.errors} />
            <div className="choice">
              <input
                id="block"
                type="checkbox"
                name={fields.block.name}
                value="on"
                defaultChecked={fields.block.initialValue === 'on'}
                aria-describedby={['block-hint', fields.block.errors?.length ? 'block-error' : null].filter(Boolean).join(' ')}
              />
              <label htmlFor="block">{blockLabel.label}</label>
            </div>
            <span className="hint" id="block-hint">
              {blockLabel.hint}
            </span>
          </div>
        ) : null}
        <div className="button-row">
          <SubmitButton pending="sending" className="button">
            {t('submit')}
          </SubmitButton>
          <Link to={back.to} className="button button--secondary">
            {back.label}
          </Link>
        </div>
      </Form>
    </>
  )
}
