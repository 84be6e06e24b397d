import { describe, expect, it } from 'vitest'
import { formatCurrency, formatMoment, formatStart } from './experience.ts'

describe('experience display rules', () => {
  it('shows "Mon, Jan 1 • 3:00 PM TZ" in the activity time zone (spec §9)', () => {
    expect(formatStart('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'en')).toBe('Mon, Jan 1 • 3:00 PM PST')
    expect(formatStart(null, 'America/Los_Angeles', 'en')).toBeNull()
    expect(formatStart('2029-01-01T23:00:00Z', 'Europe/Paris', 'fr')).toMatch(/^mar\. 2 janv\. • 00:00 UTC\+1$/)
  })

  it('names a US time zone as the US does in every language, never “UTC−8” (issue 29 §4)', () => {
    // Winter and summer in Portland, then Chicago, Denver, Phoenix, Anchorage and Honolulu.
    expect(formatStart('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'fr')).toBe('lun. 1 janv. • 15:00 PST')
    expect(formatStart('2029-07-01T22:00:00Z', 'America/Los_Angeles', 'fr')).toBe('dim. 1 juil. • 15:00 PDT')
    expect(formatStart('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'nl')).toBe('ma 1 jan • 15:00 PST')
    expect(formatStart('2029-07-01T22:00:00Z', 'America/Los_Angeles', 'en')).toBe('Sun, Jul 1 • 3:00 PM PDT')
    const zones = { 'America/Chicago': 'CST', 'America/Denver': 'MST', 'America/Phoenix': 'MST', 'America/Anchorage': 'AKST', 'Pacific/Honolulu': 'HST', 'America/New_York': 'EST' }
    for (const [zone, name] of Object.entries(zones)) {
      for (const language of ['en', 'fr', 'nl']) expect(formatStart('2029-01-01T23:00:00Z', zone, language), `${zone} in ${language}`).toMatch(new RegExp(` ${name}$`))
    }
    expect(formatMoment('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'fr')).toBe('lundi 1 janvier à 15:00 PST')
    expect(formatMoment('2029-01-01T23:00:00Z', 'America/Los_Angeles', 'nl')).toBe('maandag 1 januari om 15:00 PST')
  })

  it('shows whole dollars or two decimals (spec §9)', () => {
    expect(formatCurrency('5.00', 'en')).toBe('$5')
    expect(formatCurrency('5.50', 'en')).toBe('$5.50')
  })
})
