import { dateOptions, distanceOptions } from '#contract/limits.ts'
import { zonedParts, zonedTime } from '#contract/zoned-time.ts'

export { zonedTime }

/** Explore's date filters (spec §2, §9), computed in the member's time zone. */
export const dateFilters = dateOptions
export type DateFilter = (typeof dateFilters)[number]
export const distanceFilters = distanceOptions
export type DistanceFilter = (typeof distanceFilters)[number]

/** Today's calendar date in a time zone. */
export function zonedToday(now: Date, timeZone: string) {
  const { year, month, day } = zonedParts(now.getTime(), timeZone)
  return { year, month, day }
}

function addDays(date: { year: number; month: number; day: number }, days: number) {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }
}

const startOf = (date: { year: number; month: number; day: number }, timeZone: string) =>
  zonedTime(date.year, date.month, date.day, 0, 0, timeZone)

/**
 * The start-date window of a filter: from now (never the past) to the end of the chosen days.
 * Weeks run Monday to Sunday.
 */
export function dateWindow(filter: DateFilter, timeZone: string, now = new Date()): { gte: Date; lte: Date | null } {
  const today = zonedToday(now, timeZone)
  const weekday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7 // Monday = 0
  switch (filter) {
    case 'any-day':
      return { gte: now, lte: null }
    case 'today':
      return { gte: now, lte: new Date(startOf(addDays(today, 1), timeZone).getTime() - 1) }
    case 'tomorrow':
      return { gte: startOf(addDays(today, 1), timeZone), lte: new Date(startOf(addDays(today, 2), timeZone).getTime() - 1) }
    case 'this-week':
      return { gte: now, lte: new Date(startOf(addDays(today, 7 - weekday), timeZone).getTime() - 1) }
    case 'next-week':
      return {
        gte: startOf(addDays(today, 7 - weekday), timeZone),
        lte: new Date(startOf(addDays(today, 14 - weekday), timeZone).getTime() - 1),
      }
  }
}

const rangeFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * The days a date filter covers, as the member reads them ("Sat, Nov 28" to "Sun, Nov 29"), in
 * the place's time zone; the same day twice for a single day; null for "Any day". Issue 29 §4:
 * on a Saturday "This week" is two days long, and says so.
 */
export function dateRange(filter: DateFilter, timeZone: string, now: Date, language: string): { from: string; to: string } | null {
  const { gte, lte } = dateWindow(filter, timeZone, now)
  if (!lte) return null
  const key = `${language}|${timeZone}`
  let format = rangeFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(language, { weekday: 'short', month: 'short', day: 'numeric', timeZone })
    if (rangeFormats.size > 200) rangeFormats.clear()
    rangeFormats.set(key, format)
  }
  return { from: format.format(gte), to: format.format(lte) }
}

/**
 * The filter to offer when this one has nothing left: the days right after it. Tomorrow is
 * followed by the rest of this week, unless tomorrow is already next week's Monday.
 */
export function nextDateFilter(filter: DateFilter, timeZone: string, now: Date): DateFilter {
  switch (filter) {
    case 'today':
      return 'tomorrow'
    case 'tomorrow': {
      const today = zonedToday(now, timeZone)
      const sunday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() === 0
      return sunday ? 'next-week' : 'this-week'
    }
    case 'this-week':
      return 'next-week'
    case 'next-week':
    case 'any-day':
      return 'any-day'
  }
}
