import { birthYearCount, minimumAge } from './limits.ts'

/** A day of the calendar, with no time or zone (a birth date). */
export interface CalendarDate {
  year: number
  month: number
  day: number
}

/** Spec §5/§9: the birth-year list, 45 years ending 55 years before the current year. */
export function birthYears(today = new Date()) {
  const last = today.getFullYear() - minimumAge
  return Array.from({ length: birthYearCount }, (_, index) => last - index)
}

export function daysInMonth(month: number, year?: number) {
  // With no year yet, February allows the 29th (a leap year is possible). setUTCFullYear, not
  // Date.UTC, which reads years 0–99 as 1900–1999.
  const lastDay = new Date(0)
  lastDay.setUTCFullYear(year ?? 2000, month, 0)
  return lastDay.getUTCDate()
}

/** `YYYY-MM-DD` as a calendar date; null when it is not one. */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return null
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
}

/**
 * Spec §3: age from the date of birth (a `YYYY-MM-DD` string as the API stores it, or its parts),
 * on the calendar day `today` falls on where this code runs. The one rule for the API's `age`
 * and the sign-up form's minimum-age check.
 */
export function ageOn(dob: CalendarDate | string, today = new Date()) {
  const date = typeof dob === 'string' ? parseIsoDate(dob) : dob
  if (!date) return null
  let age = today.getFullYear() - date.year
  const month = today.getMonth() + 1
  if (month < date.month || (month === date.month && today.getDate() < date.day)) age -= 1
  return age
}

/** Spec §5: whether a member born on `dob` is old enough today. */
export function isOldEnough(dob: CalendarDate | string, today = new Date()) {
  const age = ageOn(dob, today)
  return age !== null && age >= minimumAge
}

export function isoDate(dob: CalendarDate) {
  return `${dob.year}-${String(dob.month).padStart(2, '0')}-${String(dob.day).padStart(2, '0')}`
}
