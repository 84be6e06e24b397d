import { describe, expect, it } from 'vitest'
import { hasStarted, isFull, isLateCancel } from './experience-rules.ts'

const HOUR = 3_600_000

describe('activity rules (spec §4)', () => {
  it('is full only with a positive capacity that is reached', () => {
    expect(isFull({ max_attendees: 0, attendees_count: 10 })).toBe(false)
    expect(isFull({ max_attendees: null, attendees_count: 10 })).toBe(false)
    expect(isFull({ max_attendees: 4, attendees_count: 3 })).toBe(false)
    expect(isFull({ max_attendees: 4, attendees_count: 4 })).toBe(true)
  })

  it('makes a cancellation late within 12 hours of the start, never for an undated activity', () => {
    const now = Date.parse('2030-05-01T12:00:00Z')
    expect(isLateCancel(new Date(now + 12 * HOUR + 1), now)).toBe(false)
    expect(isLateCancel(new Date(now + 12 * HOUR - 1), now)).toBe(true)
    expect(isLateCancel(new Date(now + HOUR).toISOString(), now)).toBe(true)
    expect(isLateCancel(null, now)).toBe(false)
  })

  it('counts an activity as past once it has started', () => {
    const now = Date.parse('2030-05-01T12:00:00Z')
    expect(hasStarted(new Date(now), now)).toBe(true)
    expect(hasStarted(new Date(now + 1), now)).toBe(false)
    expect(hasStarted(null, now)).toBe(false)
  })
})
