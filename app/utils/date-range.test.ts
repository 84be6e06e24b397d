import { describe, expect, it } from 'vitest'
import { dateRange, dateWindow, nextDateFilter, zonedTime } from './date-range.ts'

describe('explore date filters', () => {
  const tz = 'America/Los_Angeles'
  // Wednesday 2026-11-18 10:00 in Los Angeles (18:00 UTC).
  const now = new Date('2026-11-18T18:00:00Z')

  it('converts wall-clock times across DST', () => {
    expect(zonedTime(2026, 7, 1, 9, 0, tz).toISOString()).toBe('2026-07-01T16:00:00.000Z')
    expect(zonedTime(2026, 12, 1, 9, 0, tz).toISOString()).toBe('2026-12-01T17:00:00.000Z')
  })

  it('today runs from now to local midnight', () => {
    const { gte, lte } = dateWindow('today', tz, now)
    expect(gte).toEqual(now)
    expect(lte?.toISOString()).toBe('2026-11-19T07:59:59.999Z')
  })

  it('tomorrow is the whole next local day', () => {
    const { gte, lte } = dateWindow('tomorrow', tz, now)
    expect(gte.toISOString()).toBe('2026-11-19T08:00:00.000Z')
    expect(lte?.toISOString()).toBe('2026-11-20T07:59:59.999Z')
  })

  it('this week ends on Sunday night and next week is Monday to Sunday', () => {
    expect(dateWindow('this-week', tz, now).lte?.toISOString()).toBe('2026-11-23T07:59:59.999Z')
    const next = dateWindow('next-week', tz, now)
    expect(next.gte.toISOString()).toBe('2026-11-23T08:00:00.000Z')
    expect(next.lte?.toISOString()).toBe('2026-11-30T07:59:59.999Z')
  })

  it('any day has no end', () => {
    expect(dateWindow('any-day', tz, now).lte).toBeNull()
  })

  // Issue 29 §4: on a Saturday "This week" is two days long, and says so.
  it('on a Saturday, this week covers Saturday and Sunday, and the next filter is next week', () => {
    const saturday = new Date('2026-11-28T20:00:00Z') // 12:00 in Los Angeles
    expect(dateRange('this-week', tz, saturday, 'en')).toEqual({ from: 'Sat, Nov 28', to: 'Sun, Nov 29' })
    expect(dateRange('next-week', tz, saturday, 'en')).toEqual({ from: 'Mon, Nov 30', to: 'Sun, Dec 6' })
    expect(dateRange('today', tz, saturday, 'en')).toEqual({ from: 'Sat, Nov 28', to: 'Sat, Nov 28' })
    expect(dateRange('any-day', tz, saturday, 'en')).toBeNull()
    expect(dateRange('this-week', tz, saturday, 'fr')).toEqual({ from: 'sam. 28 nov.', to: 'dim. 29 nov.' })
    expect(nextDateFilter('this-week', tz, saturday)).toBe('next-week')
    expect(nextDateFilter('today', tz, saturday)).toBe('tomorrow')
    expect(nextDateFilter('tomorrow', tz, saturday)).toBe('this-week')
    expect(nextDateFilter('next-week', tz, saturday)).toBe('any-day')
    // On a Sunday, tomorrow is next week's Monday.
    expect(nextDateFilter('tomorrow', tz, new Date('2026-11-29T20:00:00Z'))).toBe('next-week')
  })

  it('late on Sunday night in Los Angeles (Monday in UTC), this week is still that Sunday', () => {
    const sundayNight = new Date('2026-11-30T07:30:00Z') // 23:30 on Sunday in Los Angeles
    expect(dateRange('this-week', tz, sundayNight, 'en')).toEqual({ from: 'Sun, Nov 29', to: 'Sun, Nov 29' })
  })
})
