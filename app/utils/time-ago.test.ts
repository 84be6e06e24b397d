import { describe, expect, it } from 'vitest'
import { timeAgo } from './time-ago.ts'

const now = Date.parse('2026-05-10T12:00:00Z')
const ago = (seconds: number) => new Date(now - seconds * 1000)

describe('timeAgo (spec §9)', () => {
  it('says "Just now" under a minute, then minutes, hours, days, weeks, months and years', () => {
    expect(timeAgo(ago(30), now, 'en', 'Just now')).toBe('Just now')
    expect(timeAgo(ago(5 * 60), now, 'en', 'Just now')).toBe('5 minutes ago')
    expect(timeAgo(ago(3 * 3600), now, 'en', 'Just now')).toBe('3 hours ago')
    expect(timeAgo(ago(2 * 86_400), now, 'en', 'Just now')).toBe('2 days ago')
    expect(timeAgo(ago(15 * 86_400), now, 'en', 'Just now')).toBe('2 weeks ago')
    expect(timeAgo(ago(70 * 86_400), now, 'en', 'Just now')).toBe('2 months ago')
    expect(timeAgo(ago(800 * 86_400), now, 'en', 'Just now')).toBe('2 years ago')
  })

  it('speaks the page’s language', () => {
    expect(timeAgo(ago(3 * 3600), now, 'fr', 'À l’instant')).toBe('il y a 3 heures')
    expect(timeAgo(ago(3 * 3600), now, 'nl', 'Zojuist')).toBe('3 uur geleden')
  })
})
