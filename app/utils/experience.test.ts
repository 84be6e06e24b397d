import { describe, expect, it } from 'vitest'
import { formatCurrency, formatStart, isFull } from './experience.ts'

describe('experience display rules', () => {
  it('is full only with a positive capacity that is reached (spec §4)', () => {
    expect(isFull({ max_attendees: 0, attendees_count: 10 })).toBe(false)
    expect(isFull({ max_attendees: null, attendees_count: 10 })).toBe(false)
    expect(isFull({ max_attendees: 4, attendees_count: 3 })).toBe(false)
    expect(isFull({ max_attendees: 4, attendees_count: 4 })).toBe(true)
  })

  it('shows "Mon, Jan 1 • 3:00 PM TZ" in the activity time zone (spec §9)', () => {
    expect(formatStart('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'en')).toBe('Mon, Jan 1 • 3:00 PM PST')
    expect(formatStart(null, 'America/Los_Angeles', 'en')).toBeNull()
    expect(formatStart('2029-01-01T23:00:00Z', 'Europe/Paris', 'fr')).toMatch(/^mar\. 2 janv\. • 00:00 UTC\+1$/)
  })

  it('shows whole dollars or two decimals (spec §9)', () => {
    expect(formatCurrency('5.00', 'en')).toBe('$5')
    expect(formatCurrency('5.50', 'en')).toBe('$5.50')
  })
})
