/** Spec §5/§9: minimum age 55; a 45-year list ending 55 years before the current year. */
export const minimumAge = 55
export const birthYearCount = 45

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

export function ageOn(dob: { year: number; month: number; day: number }, today = new Date()) {
  let age = today.getFullYear() - dob.year
  const month = today.getMonth() + 1
  if (month < dob.month || (month === dob.month && today.getDate() < dob.day)) age -= 1
  return age
}

export function isoDate(dob: { year: number; month: number; day: number }) {
  return `${dob.year}-${String(dob.month).padStart(2, '0')}-${String(dob.day).padStart(2, '0')}`
}
