import { describe, expect, it } from 'vitest'
import { formatCurrency, formatStart } from './experience.ts'

describe('experience display rules', () => {
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
