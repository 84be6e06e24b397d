import { describe, expect, it } from 'vitest'
import { dateWindow, zonedTime } from './date-range.ts'

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
})
