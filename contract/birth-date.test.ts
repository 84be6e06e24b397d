import { describe, expect, it } from 'vitest'
import { ageOn, birthYears, isOldEnough } from './birth-date.ts'

describe('age from the date of birth (spec §3, §5)', () => {
  const today = new Date(2026, 5, 15, 12)

  it('reads the API’s YYYY-MM-DD and the form’s parts alike', () => {
    expect(ageOn('1971-06-15', today)).toBe(55)
    expect(ageOn({ year: 1971, month: 6, day: 15 }, today)).toBe(55)
    expect(ageOn('1971-06-16', today)).toBe(54)
    expect(ageOn('not a date', today)).toBeNull()
  })

  it('is old enough from the 55th birthday on', () => {
    expect(isOldEnough('1971-06-15', today)).toBe(true)
    expect(isOldEnough('1971-06-16', today)).toBe(false)
  })

  it('lists 45 birth years ending 55 years ago', () => {
    const years = birthYears(today)
    expect(years).toHaveLength(45)
    expect(years[0]).toBe(1971)
    expect(years.at(-1)).toBe(1927)
  })
})
