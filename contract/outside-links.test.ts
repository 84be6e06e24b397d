import { describe, expect, it } from 'vitest'
import { isExternalLink, isOutsideLinkTarget } from './outside-links.ts'

/** Which addresses a configured outside link may have (decision 088). */
describe('isOutsideLinkTarget', () => {
  it('takes http(s) addresses and paths of this site', () => {
    for (const ok of ['https://blog.circle55.example/', 'http://localhost:4000/hosts', 'https://apps.apple.com/us/app/circle-55/id123', '/help', '/help/safety-and-scams#verified-badge', '/']) {
      expect(isOutsideLinkTarget(ok), ok).toBe(true)
    }
  })

  it('refuses other schemes, other hosts written as paths, relative addresses and spaces', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'mailto:help@example.com', '//evil.example', '/\\evil.example', '/%2Fevil.example', 'help', 'www.example.com', 'https://', 'https://example.com/a b', '']) {
      expect(isOutsideLinkTarget(bad), bad).toBe(false)
    }
  })

  it('tells another site from a page of this one', () => {
    expect(isExternalLink('https://blog.circle55.example')).toBe(true)
    expect(isExternalLink('/help')).toBe(false)
  })
})
