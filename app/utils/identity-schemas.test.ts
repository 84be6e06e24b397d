import { parseWithZod } from '@conform-to/zod/v4'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { signUpSchema } from './identity-schemas.ts'

const details = { intent: 'details', firstName: 'Maria', lastName: 'Elder', email: 'maria@example.test', password: 'a long enough password' }

function issues(birth: { birthYear: number; birthMonth: number; birthDay: number }) {
  const result = signUpSchema.safeParse({ ...details, ...birth })
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

describe('sign-up date of birth (spec §5)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date(2026, 5, 15, 12))
  })
  afterEach(() => vi.useRealTimers())

  it('accepts a member whose 55th birthday is today', () => {
    expect(issues({ birthYear: 1971, birthMonth: 6, birthDay: 15 })).toEqual([])
  })

  it('refuses a member who turns 55 tomorrow, on the year field', () => {
    expect(issues({ birthYear: 1971, birthMonth: 6, birthDay: 16 })).toEqual(['birthYear: validation.minimumAge'])
  })

  it('refuses a day the month does not have, leap years included', () => {
    expect(issues({ birthYear: 1970, birthMonth: 2, birthDay: 29 })).toEqual(['birthDay: validation.birthDayInvalid'])
    expect(issues({ birthYear: 1968, birthMonth: 2, birthDay: 29 })).toEqual([])
    expect(issues({ birthYear: 1968, birthMonth: 4, birthDay: 31 })).toEqual(['birthDay: validation.birthDayInvalid'])
  })

  it('only takes years from the 45-year list', () => {
    expect(issues({ birthYear: 1926, birthMonth: 1, birthDay: 1 })).toEqual(['birthYear: validation.birthYearTooEarly'])
    expect(issues({ birthYear: 1927, birthMonth: 1, birthDay: 1 })).toEqual([])
  })

  // Issue 12 §4: a year forced outside the list (a crafted POST) gets one message, about age.
  it.each([
    [2010, 'validation.minimumAge'],
    [1972, 'validation.minimumAge'],
    [1900, 'validation.birthYearTooEarly'],
  ])('answers a year outside the list (%i) with %s alone', (birthYear, message) => {
    expect(issues({ birthYear, birthMonth: 1, birthDay: 1 })).toEqual([`birthYear: ${message}`])
  })

  it('asks for a year that is missing or not a number, and only that', () => {
    const form = (birthYear: string) => {
      const data = new FormData()
      for (const [name, value] of Object.entries({ ...details, birthMonth: '1', birthDay: '1', birthYear })) data.set(name, value)
      const result = parseWithZod(data, { schema: signUpSchema })
      return result.status === 'success' ? {} : result.error
    }
    expect(form('')).toEqual({ birthYear: ['validation.birthYearRequired'] })
    expect(form('nineteen fifty')).toEqual({ birthYear: ['validation.birthYearRequired'] })
  })
})

describe('sign-up names (issue 10)', () => {
  it.each([
    ['firstName', 'Maria\u0000', 'validation.invalid_characters'],
    ['lastName', '\u200b\u200b', 'validation.lastNameRequired'],
    ['firstName', '\u00ad\ufeff', 'validation.firstNameRequired'],
    ['lastName', 'Elder\u202e', 'validation.direction_characters'],
  ])('refuses %s %j with %s', (field, value, message) => {
    const result = signUpSchema.safeParse({ ...details, birthYear: 1960, birthMonth: 1, birthDay: 1, [field]: value })
    expect(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([`${field}: ${message}`])
  })
})
