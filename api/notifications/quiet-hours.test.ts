import { describe, expect, it } from 'vitest'
import { quietUntil } from './quiet-hours.ts'

const chicago = 'America/Chicago'
/** A wall-clock time in Chicago in November (UTC−6). */
const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 10, day, hour + 6, minute))

describe('quiet hours (21:00–08:00 in the member’s time zone)', () => {
  it('lets push and text out during the day', () => {
    expect(quietUntil(at(24, 8), chicago)).toBeNull()
    expect(quietUntil(at(24, 20, 59), chicago)).toBeNull()
  })

  it('holds them back from 21:00 until 08:00 the next morning', () => {
    expect(quietUntil(at(24, 21), chicago)).toEqual(at(25, 8))
    expect(quietUntil(at(24, 23, 30), chicago)).toEqual(at(25, 8))
  })

  it('after midnight, until 08:00 the same morning', () => {
    expect(quietUntil(at(25, 0, 15), chicago)).toEqual(at(25, 8))
    expect(quietUntil(at(25, 7, 59), chicago)).toEqual(at(25, 8))
  })

  it('uses the member’s own time zone', () => {
    // 22:00 in Chicago is 20:00 in Los Angeles: not quiet there.
    expect(quietUntil(at(24, 22), 'America/Los_Angeles')).toBeNull()
    expect(quietUntil(at(24, 20), 'America/New_York')).toEqual(at(25, 7))
  })

  it('speaks for an activity starting before 10:00 the morning after', () => {
    const walk = { startAt: at(25, 8, 30), timeZone: chicago }
    expect(quietUntil(at(25, 6, 30), chicago, walk)).toBeNull()
    expect(quietUntil(at(24, 22), chicago, walk)).toBeNull()
  })

  it('stays quiet for a later activity, or an early one days away', () => {
    expect(quietUntil(at(24, 22), chicago, { startAt: at(25, 10), timeZone: chicago })).toEqual(at(25, 8))
    expect(quietUntil(at(24, 22), chicago, { startAt: at(28, 8), timeZone: chicago })).toEqual(at(25, 8))
  })
})
