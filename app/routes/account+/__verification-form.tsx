import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { verificationFiles, type Verification } from '#contract/verification.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { VerifiedBadge } from '#app/components/verified-badge.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * The identity verification page's parts (decision 025), shared by /account/verification and the
 * onboarding step /get-started/verification: the member's status (processing, verified, rejected
 * with the reason) and the form that starts a request — two photos (built-in check) or a button
 * on to Stripe Identity. A plain multipart form: it works without JavaScript.
 */
const e = (key: string) => `verification:errors.${key}`
const photo = (required: string) => z.instanceof(File, { error: e(required) }).refine((file) => file.size > 0, e(required))

/** One schema for the browser and the action; messages are translation keys. */
export const verificationFormSchema = z.object({ document: photo('document_required'), selfie: photo('selfie_required') })
export const verificationFieldOrder = [...verificationFiles]

/** A date as the member reads it (UTC, so the server and the browser agree). */
function useDate(iso: string | null) {
  const { i18n } = useTranslation()
  return iso ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso)) : ''
}

export function VerificationStatus({ verification, children }: { verification: Verification; children?: ReactNode }) {
  const { t } = useTranslation('verification')
  const requested = useDate(verification.requested_at)
  const decided = useDate(verification.decided_at)
  if (verification.status === 'processing') {
    return (
      <div className="notice" role="status">
        <h2>{t('status.processing.heading')}</h2>
        <p>{t('status.processing.body')}</p>
        {requested ? <p>{t('status.processing.since', { date: requested })}</p> : null}
      </div>
    )
  }
  if (verification.status === 'verified') {
    return (
      <div className="notice notice--success">
        <h2>{t('status.verified.heading')}</h2>
        <p>
          <VerifiedBadge />
        </p>
        <p>{t('status.verified.body')}</p>
        {decided ? <p>{t('status.verified.since', { date: decided })}</p> : null}
        {children}
      </div>
    )
  }
  if (verification.rejection_reason) {
    return (
      <div className="notice notice--error">
        <h2>{t('status.rejected.heading')}</h2>
        <p>
          <strong>{t('status.rejected.reason')}</strong> {verification.rejection_reason}
        </p>
        <p>{t('status.rejected.again')}</p>
      </div>
    )
  }
  return null
}

/** The start form: two photos, or (Stripe Identity) one button. `extra` sits beside the submit button. */
export function VerificationForm({
  verification,
  lastResult,
  extra,
}: {
  verification: Verification
  lastResult: SubmissionResult<string[]> | undefined
  extra?: ReactNode
}) {
  const { t } = useTranslation('verification')
  const [form, fields] = useZodForm({
    id: 'verification',
    lastResult,
    schema: verificationFormSchema,
  })
  if (verification.status !== 'not_verified') return null
  const stripe = verification.provider === 'stripe'
  return (
    <>
      <ErrorSummary errors={summaryFrom({ document: fields.document.errors, selfie: fields.selfie.errors }, verificationFieldOrder)} formErrors={form.errors} />
      <p>{stripe ? t('stripe.how') : t('how')}</p>
      {stripe ? null : <p>{t('privacy')}</p>}
      <p>{t('neverAsked')}</p>
      <Form method="post" encType={stripe ? undefined : 'multipart/form-data'} className="form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={stripe ? 'stripe' : 'photos'} />
        {stripe
          ? null
          : verificationFiles.map((name) => (
              <TextField
                key={name}
                id={name}
                name={fields[name].name}
                type="file"
                accept="image/jpeg,image/png"
                label={t(`${name}.label`)}
                hint={t(`${name}.hint`)}
                errors={fields[name].errors}
                required
              />
            ))}
        <div className="button-row">
          <SubmitButton pending={stripe ? 'opening' : 'uploading'} className="button">
            {stripe ? t('stripe.submit') : t('submit')}
          </SubmitButton>
          {extra}
        </div>
      </Form>
    </>
  )
}
