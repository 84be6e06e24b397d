import type { SubmissionResult } from '@conform-to/react'
import { ApiError } from './api.server.ts'

/**
 * API errors → form errors, in one place: field codes from a 422 become translation keys under
 * `validation.`, anything else becomes a form-level message. Returns null for errors a form
 * cannot show (the caller rethrows them to the error page).
 */
export function formErrorsFromApi(
  error: unknown,
  fieldMap: Record<string, string> = {},
  prefix = 'validation.',
): Pick<SubmissionResult<string[]>, 'error'> | null {
  if (!(error instanceof ApiError)) return null
  if (error.status === 422 && Object.keys(error.fields).length > 0) {
    const fields: Record<string, string[]> = {}
    for (const [field, codes] of Object.entries(error.fields)) {
      fields[fieldMap[field] ?? field] = codes.map((code) => `${prefix}${code}`)
    }
    return { error: fields }
  }
  if (error.status >= 500 || error.status === 0) return { error: { '': ['errors.notSaved'] } }
  if (error.status === 429) return { error: { '': ['errors.tooManyRequests'] } }
  return null
}

/** A text field of a submitted form; '' when missing or when a file was sent instead. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}
