import { describe, expect, it } from 'vitest'
import { containsLink, messageLinks } from './links.ts'

describe('containsLink', () => {
  it.each([
    'Look at https://example.com/offer',
    'http://bit.ly/3xYz',
    'www.invest-now.biz',
    'Go to example.com for details',
    'bit.ly/abc',
    'Kijk op nieuws.nl',
    'Voir le-site.fr/inscription',
    'WWW.CIRCLE-CASH.CLUB',
    'Visit Invest-Now.COM today',
    // Glued to a word, or after a letter the shield used to drop (issue 29 §5).
    'Voilàhttps://evil.dev/login',
    'éhttps://evil.dev/login',
    'ﬁhttps://evil.dev/login',
    'Bonjour!https://evil.dev',
    '日本https://evil.dev',
    '😀https://evil.dev',
    'Voila\u0301https://evil.dev',
    'Voilàwww.evil.dev',
    // Full-width, look-alike letters and marks, invisible characters, written dots.
    'ｈｔｔｐｓ：／／ｅｖｉｌ．ｄｅｖ',
    'ｗｗｗ．ｅｖｉｌ．ｃｏｍ',
    'һttps://evil.dev',
    'httрs://evil.dev',
    'https∶//evil.dev',
    'https:⁄⁄evil.dev',
    'ht\u200btps://evil.dev',
    'Go to еxample.com',
    'Open evil。com now',
    'evil[.]com',
    'evil (dot) com',
    'hxxps://evil.dev/login',
  ])('finds a link: %s', (message) => {
    expect(containsLink(message)).toBe(true)
  })

  it.each([
    'ann.baker@example.org',
    'See you at 10.30, e.g. by the fountain.',
    'It costs 3.50 at the door.',
    'Great walk.See you next week',
    'Meet on Main St. at noon',
    "C'est super.De rien, à samedi",
    'Merci.Ça va bien ?',
    'Leuk.App me later niet, ik zie je daar',
    'Great walk.Club meets Tuesdays',
    'Bienvenue à tou·te·s les inscrit·e·s !',
    'Voilà, à samedi à 10h.',
    'Ça marche。À demain',
  ])('finds none: %s', (message) => {
    expect(containsLink(message)).toBe(false)
  })
})


describe('one detector for what is refused and what is shown', () => {
  // Every character of the Basic Multilingual Plane (but surrogates) glued before an address: the
  // shield used to drop accents and then miss "Voilahttps", while the page linked the address.
  const characters = Array.from({ length: 0x10000 }, (_, code) => code)
    .filter((code) => code < 0xd800 || code > 0xdfff)
    .map((code) => String.fromCharCode(code))

  it('finds the link whatever character comes before it', () => {
    const missed = characters.filter((character) => !containsLink(`${character}https://evil.dev/login`) || !containsLink(`Voil${character}https://evil.dev/login`))
    expect(missed.map((character) => `U+${character.codePointAt(0)!.toString(16).padStart(4, '0')}`)).toEqual([])
  })

  it('never shows as a link what it would not refuse', () => {
    const shownButAllowed = characters.filter((character) => {
      const text = `Hello ${character}https://${character}evil.dev${character}/x${character} bye`
      return messageLinks(text).length > 0 && !containsLink(text)
    })
    expect(shownButAllowed).toEqual([])
  })
})

describe('messageLinks', () => {
  it('shows the address glued to a word as a link, and the shield refuses it', () => {
    const text = 'Voilàhttps://evil.dev/login'
    expect(messageLinks(text)).toEqual([{ start: 5, end: 27, href: 'https://evil.dev/login' }])
    expect(containsLink(text)).toBe(true)
  })

  it('leaves the sentence’s punctuation outside the link', () => {
    expect(messageLinks('See https://example.org/a?b=1. Bye')).toEqual([{ start: 4, end: 29, href: 'https://example.org/a?b=1' }])
    expect(messageLinks('(https://example.org/walk)')).toEqual([{ start: 1, end: 25, href: 'https://example.org/walk' }])
  })

  it('shows only http and https, and nothing a browser would not open as written', () => {
    expect(messageLinks('javascript:alert(1) data:text/html,x ftp://example.org')).toEqual([])
    expect(messageLinks('ｈｔｔｐｓ：／／ｅｖｉｌ．ｄｅｖ and www.evil.dev and https://')).toEqual([])
  })
})
