import type { getFormProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BreakableText } from './ui/breakable-text.tsx'
import { TextField } from './ui/field.tsx'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * The code step of signing in with a code and of signing up: what was sent (a status), the
 * 6-digit code field with its button, and "Send a new code" (intent `resend`, same address).
 */
export function CodeEntry({
  formProps,
  intent,
  email,
  sent,
  submit,
  errors,
}: {
  /** The code form's conform props (`getFormProps(form)`). */
  formProps: ReturnType<typeof getFormProps>
  /** The intent of the code form. */
  intent: string
  email: string
  /** What the status says was sent. */
  sent: string
  submit: string
  errors?: string[]
}) {
  const { t } = useTranslation('auth')
  return (
    <>
      <div className="notice" role="status">
        <p>
          <BreakableText text={sent} />
        </p>
      </div>
      <Form method="post" {...formProps}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="email" value={email} />
        <CodeField label={t('fields.code')} hint={t('code.hint')} errors={errors} />
        <div className="button-row">
          <SubmitButton pending="checking" className="button">
            {submit}
          </SubmitButton>
        </div>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <SubmitButton pending="sending" className="button button--link">
          {t('code.resend')}
        </SubmitButton>
      </Form>
    </>
  )
}

/** A one-time code's field (`name="code"`): the number keyboard on phones, filled in by browsers that can. */
export function CodeField({ label, hint, errors }: { label: string; hint: string; errors?: string[] | undefined }) {
  return (
    <TextField
      id="code"
      name="code"
      label={label}
      hint={hint}
      className="input--code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={12}
      required
      errors={errors}
    />
  )
}
