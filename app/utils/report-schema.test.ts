import { readFileSync } from 'node:fs'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { reportDetailsMessages, reportFormSchema } from './report-schema.ts'

function errorsOf(details: string) {
  const form = new FormData()
  form.set('reason', 'something_else')
  form.set('details', details)
  const result = parseWithZod(form, { schema: reportFormSchema })
  return result.status === 'success' ? {} : (result.error ?? {})
}

const common = JSON.parse(readFileSync('public/locales/en/common.json', 'utf8')) as { validation: Record<string, string> }

describe('report form (issue 10)', () => {
  it.each([
    ['Stolen\u0000 photos', 'validation.invalid_characters'],
    ['\u001b[2J', 'validation.invalid_characters'],
    ['Looks like \u202eten.evil', 'validation.direction_characters'],
  ])('shows a message next to the details for %j instead of sending them', (details, message) => {
    expect(errorsOf(details)).toEqual({ details: [message] })
    expect(common.validation[message.replace('validation.', '')]).toEqual(expect.any(String))
  })

  it('keeps line breaks and tabs', () => {
    expect(errorsOf('First line.\r\n\tSecond line.')).toEqual({})
  })

  it('maps the API’s field codes to the same messages', () => {
    expect(reportDetailsMessages(['invalid_characters', 'direction_characters', 'details_too_long'])).toEqual([
      'validation.invalid_characters',
      'validation.direction_characters',
      'reports:errors.details_too_long',
    ])
  })
})
