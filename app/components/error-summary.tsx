import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

export interface SummaryError {
  /** The id of the field to jump to. */
  fieldId: string
  /** A translation key. */
  message: string
}

/**
 * GOV.UK-style error summary: listed at the top, linked to each field, focused when shown so
 * screen reader users hear it at once.
 */
export function ErrorSummary({ errors, formErrors = [] }: { errors: SummaryError[]; formErrors?: string[] }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  const count = errors.length + formErrors.length
  const prefix = `${t('form.errorTitlePrefix')} `
  useEffect(() => {
    if (count === 0) return
    ref.current?.focus()
    if (!document.title.startsWith(prefix)) document.title = prefix + document.title
  }, [count, errors, formErrors, prefix])
  if (count === 0) return null
  return (
    <div className="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{t('form.errorSummaryTitle')}</h2>
      <ul>
        {formErrors.map((message) => (
          <li key={message}>{t(message)}</li>
        ))}
        {errors.map((error) => (
          <li key={`${error.fieldId}:${error.message}`}>
            <a href={`#${error.fieldId}`}>{t(error.message)}</a>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Turns conform's `{ field: [keys] }` into summary entries in the order of `fieldOrder`. */
export function summaryFrom(fieldErrors: Record<string, string[] | undefined> | undefined, fieldOrder: string[], idPrefix = '') {
  const result: SummaryError[] = []
  for (const name of fieldOrder) {
    for (const message of fieldErrors?.[name] ?? []) result.push({ fieldId: `${idPrefix}${name}`, message })
  }
  return result
}
