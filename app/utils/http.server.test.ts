import { describe, expect, it } from 'vitest'
import { ApiError } from './api.server.ts'
import { formErrorsFromApi, notFoundOnMissing } from './http.server.ts'

/** What a thrown error page looks like to a test: Remix's `data(null, { status })`. */
function thrown(run: () => unknown) {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('nothing was thrown')
}

describe('API errors mapped for a form (decision 015)', () => {
  it('turns a 422’s field codes into the form’s fields and translation keys', () => {
    const error = new ApiError(422, 'x', 'invalid_input', { first_name: ['too_long'], phone: ['invalid_phone', 'too_long'] })
    expect(formErrorsFromApi(error, { fields: { first_name: 'firstName' } })).toEqual({
      status: 400,
      fieldErrors: { firstName: ['validation.too_long'], phone: ['validation.invalid_phone', 'validation.too_long'] },
      formErrors: [],
    })
  })

  it('reads an error on one item of a list (`emails.3`) as an error of the list’s field', () => {
    const error = new ApiError(422, 'x', 'invalid_input', { 'emails.3': ['email_invalid'], emails: ['too_many_emails'] })
    expect(formErrorsFromApi(error, { prefix: 'host.' }).fieldErrors).toEqual({ emails: ['host.email_invalid', 'host.too_many_emails'] })
  })

  it('uses a form’s own prefix and its own messages for a field where given', () => {
    const error = new ApiError(400, 'x', 'invalid_input', { reason: ['reason_invalid'], details: ['details_too_long'], title: ['required'] })
    const mapped = formErrorsFromApi(error, {
      prefix: 'reports:errors.',
      messages: { reason: () => ['reports:errors.reason_required'] },
    })
    expect(mapped.fieldErrors).toEqual({
      reason: ['reports:errors.reason_required'],
      details: ['reports:errors.details_too_long'],
      title: ['reports:errors.required'],
    })
  })

  it('shows a conflict (409) as a form-level message, by its code where the form says', () => {
    const full = new ApiError(409, 'Conflict', 'experience_full')
    expect(formErrorsFromApi(full)).toEqual({ status: 409, fieldErrors: {}, formErrors: ['common:errors.conflict'] })
    expect(formErrorsFromApi(full, { conflict: (code) => `activities:errors.${code ?? 'conflict'}` }).formErrors).toEqual([
      'activities:errors.experience_full',
    ])
  })

  it('shows too many attempts (429) as a form-level message', () => {
    expect(formErrorsFromApi(new ApiError(429, 'x', 'rate_limited'))).toEqual({ status: 429, fieldErrors: {}, formErrors: ['common:errors.tooManyRequests'] })
  })

  it('says which allowance a 429 ran out of when the form knows its code', () => {
    const mapping = { tooMany: (code: string | null) => (code === 'too_many_invitations' ? 'activities:host.tooManyInvitations' : undefined) }
    expect(formErrorsFromApi(new ApiError(429, 'x', 'too_many_invitations'), mapping).formErrors).toEqual(['activities:host.tooManyInvitations'])
    expect(formErrorsFromApi(new ApiError(429, 'x', 'rate_limited'), mapping).formErrors).toEqual(['common:errors.tooManyRequests'])
  })

  it('throws the error page for what a form cannot show: 401, 403 and 404 keep their status, 5xx is 503', () => {
    for (const [status, page] of [[401, 401], [403, 403], [404, 404], [500, 503], [502, 503], [503, 503]] as const) {
      expect(thrown(() => formErrorsFromApi(new ApiError(status, 'x')))).toMatchObject({ init: { status: page } })
    }
  })

  it('throws anything else as it is, for a 500 that error reporting sees', () => {
    const noFields = new ApiError(422, 'x', 'invalid_input')
    expect(thrown(() => formErrorsFromApi(noFields))).toBe(noFields)
    const parse = new ApiError(200, 'Parse Error', 'parse_error')
    expect(thrown(() => formErrorsFromApi(parse))).toBe(parse)
    const bug = new TypeError('x is undefined')
    expect(thrown(() => formErrorsFromApi(bug))).toBe(bug)
  })
})

describe('API errors mapped for a page', () => {
  it('keeps 401, 403 and 404, and makes the API being down a 503', () => {
    expect(thrown(() => notFoundOnMissing(new ApiError(401, 'Unauthorized')))).toMatchObject({ init: { status: 401 } })
    expect(thrown(() => notFoundOnMissing(new ApiError(404, 'x')))).toMatchObject({ init: { status: 404 } })
    expect(thrown(() => notFoundOnMissing(new ApiError(502, 'Bad Gateway')))).toMatchObject({ init: { status: 503 } })
  })
})
