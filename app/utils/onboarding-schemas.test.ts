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

describe('gender (issue 12 §4)', () => {
  function genderOf(choice: string | null) {
    const form = new FormData()
    form.set('firstName', 'Walter')
    form.set('lastName', 'Hughes')
    if (choice !== null) form.set('gender', choice)
    form.append('reasons', 'new_people')
    const result = parseWithZod(form, { schema: basicInfoSchema })
    return result.status === 'success' ? { gender: result.value.gender } : result.error
  }

  it('is optional: nothing chosen saves no gender', () => {
    expect(genderOf(null)).toEqual({ gender: null })
  })

  it('"Prefer not to say" saves no gender', () => {
    expect(genderOf('prefer_not_to_say')).toEqual({ gender: null })
  })

  it('keeps the options of spec §3 and refuses any other', () => {
    expect(genderOf('man')).toEqual({ gender: 'man' })
    expect(genderOf('robot')).toEqual({ gender: ['validation.genderInvalid'] })
  })
})
