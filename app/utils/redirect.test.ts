import { describe, expect, it } from 'vitest'
import { safeRedirectPath } from './redirect.ts'

const origin = 'https://circle55.example'

/**
 * What "safe" means: a path that a browser resolves to our own origin, also after one more
 * decoding (a later `decodeURIComponent` by some consumer), and without control characters
 * that header-splitting or URL parsers could trip over.
 */
function expectSameOriginPath(result: string) {
  expect(result).toMatch(/^\/(?![/\\])/)
  // eslint-disable-next-line no-control-regex
  expect(result).not.toMatch(/[\u0000-\u001f\u007f\\]/)
  expect(new URL(result, origin).origin).toBe(origin)
  let decoded = result
  try {
    decoded = decodeURIComponent(result)
  } catch {
    // Not decodable: a browser keeps it as an opaque same-origin path.
  }
  expect(decoded).not.toMatch(/^\/[/\\]/)
  expect(new URL(decoded, origin).origin).toBe(origin)
}

describe('safeRedirectPath', () => {
  const attacks = [
    'https://evil.com',
    'http://evil.com/path',
    'HTTPS://EVIL.COM',
    'http:/evil.com',
    'http:evil.com',
    '//evil.com',
    '///evil.com',
    '////evil.com/a',
    '/\\evil.com',
    '\\\\evil.com',
    '\\/evil.com',
    '%2F%2Fevil.com',
    '/%2F%2Fevil.com',
    '/%2fevil.com',
    '%2f%2fevil.com',
    '/%5Cevil.com',
    '/%5C%5Cevil.com',
    '/%252F%252Fevil.com',
    '/%25252F%25252Fevil.com',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.com',
    '/\tevil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/%09/evil.com',
    '/%0D%0ASet-Cookie:x=1',
    '/foo\r\nLocation: https://evil.com',
    '/\u0000/evil.com',
    ' //evil.com',
    '/%E0%A4%A',
    '%',
    // Dot segments that the URL parser collapses into `//host` (issue 10, §2).
    '/.//evil.example',
    '/%2F.%2F%2Fevil.example',
    '%2F.%2F%2Fevil.example',
    '/..//evil.example',
    '/../..//evil.example',
    '/%2e//evil.example',
    '/%2E//evil.example',
    '/%2e%2e//evil.example',
    '/.%2e//evil.example',
    '/a/..//evil.example',
    '/a/b/../..//evil.example',
    '/a/%2e%2e//evil.example',
    '/a/..%2F%2Fevil.example',
    '/a/..%2f/evil.example',
    '/%252e%252e//evil.example',
    '/%252e/%252Fevil.example',
    '/a/%25%32%65%25%32%65//evil.example',
    // Backslashes, which browsers read as slashes, in every form.
    '/.\\evil.example',
    '/./\\evil.example',
    '/a/..\\/evil.example',
    '/.%5C/evil.example',
    '/.%5c%5cevil.example',
    '/a/..%5C%5Cevil.example',
    '/%255C%255Cevil.example',
    '/%25255C%25255Cevil.example',
    // Tabs and newlines, which browsers drop, inside the dot segments.
    '/.\t//evil.example',
    '/\t.//evil.example',
    '/.\n/\n/evil.example',
    '/%2e%09//evil.example',
    '/a/.%0A./%0D/evil.example',
    // Nested deeper than any decoding we do.
    '/%2525252F%2525252Fevil.example',
  ]

  it.each(attacks)('turns %j into a same-origin path', (attack) => {
    const result = safeRedirectPath(attack)
    expectSameOriginPath(result)
  })

  it.each(attacks)('never lets %j leave the site, even with a custom fallback', (attack) => {
    const result = safeRedirectPath(attack, '/home')
    expectSameOriginPath(result)
    expect(new URL(result, origin).host).toBe('circle55.example')
  })

  it('uses the fallback for the classic attacks', () => {
    for (const attack of [
      'https://evil.com',
      '//evil.com',
      '/\\evil.com',
      '%2F%2Fevil.com',
      'javascript:alert(1)',
    ]) {
      expect(safeRedirectPath(attack, '/home')).toBe('/home')
    }
  })

  it('falls back to / by default and for empty input', () => {
    expect(safeRedirectPath(undefined)).toBe('/')
    expect(safeRedirectPath(null)).toBe('/')
    expect(safeRedirectPath('')).toBe('/')
    expect(safeRedirectPath(null, '/experiences')).toBe('/experiences')
  })

  it('keeps a good path with its query and hash', () => {
    expect(safeRedirectPath('/experiences')).toBe('/experiences')
    expect(safeRedirectPath('/experiences/walk-in-the-park?tab=chat&page=2#message-42')).toBe(
      '/experiences/walk-in-the-park?tab=chat&page=2#message-42',
    )
    expect(safeRedirectPath('/settings#notifications')).toBe('/settings#notifications')
  })

  it('keeps encoded characters in the query intact', () => {
    expect(safeRedirectPath('/search?q=caf%C3%A9%20au%20lait')).toBe(
      '/search?q=caf%C3%A9%20au%20lait',
    )
    expect(safeRedirectPath('/search?q=%2F%2Fx')).toBe('/search?q=%2F%2Fx')
  })

  it('treats a URL in the query string as data, not as the destination', () => {
    const result = safeRedirectPath('/sign-in?returnTo=https://evil.com')
    expectSameOriginPath(result)
    expect(result.startsWith('/sign-in?')).toBe(true)
  })

  it('resolves dot segments without leaving the site', () => {
    expect(safeRedirectPath('/a/../b')).toBe('/b')
    expect(safeRedirectPath('/../../etc/passwd')).toBe('/etc/passwd')
    expectSameOriginPath(safeRedirectPath('/./evil.com'))
  })

  it('refuses dot segments that collapse into a protocol-relative //host', () => {
    for (const attack of ['/.//evil.example', '/..//evil.example', '/%2e//evil.example', '/a/..//evil.example']) {
      expect(safeRedirectPath(attack, '/home'), attack).toBe('/home')
    }
  })

  it('keeps a good path with harmless dot segments and doubled slashes inside it', () => {
    expect(safeRedirectPath('/activities/./42')).toBe('/activities/42')
    expect(safeRedirectPath('/activities//42')).toBe('/activities//42')
    expect(safeRedirectPath('/search?q=100%25')).toBe('/search?q=100%25')
  })
})
