import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { basicInfoSchema } from './onboarding-schemas.ts'

function errorsOf(names: { firstName: string; lastName: string }) {
  const form = new FormData()
  form.set('firstName', names.firstName)
  form.set('lastName', names.lastName)
  form.set('gender', 'woman')
  form.append('reasons', 'new_people')
  const result = parseWithZod(form, { schema: basicInfoSchema })
  return result.status === 'success' ? {} : (result.error ?? {})
}

describe('basic info names (issue 10)', () => {
  it.each([
    [{ firstName: 'Mar\u0000garet', lastName: 'Hughes' }, { firstName: ['validation.invalid_characters'] }],
    [{ firstName: '\u200b\u200d', lastName: 'Hughes' }, { firstName: ['validation.firstNameRequired'] }],
    [{ firstName: 'Margaret', lastName: '\ufeff\u00ad\u2060' }, { lastName: ['validation.lastNameRequired'] }],
    [{ firstName: '\u202eteragraM', lastName: 'Hughes\u2067' }, { firstName: ['validation.direction_characters'], lastName: ['validation.direction_characters'] }],
  ])('refuses %j next to the field', (names, errors) => {
    expect(errorsOf(names)).toEqual(errors)
  })

  it('keeps accents, apostrophes and right-to-left letters', () => {
    expect(errorsOf({ firstName: 'Zoë-Ann', lastName: 'O’Brien \u05db\u05d4\u05df' })).toEqual({})
  })
})
