import { describe, expect, it } from 'vitest'
import { isLanguage, languageFromAcceptHeader } from './i18n.ts'

describe('languageFromAcceptHeader', () => {
  it('is null without a header', () => {
    expect(languageFromAcceptHeader(null)).toBeNull()
    expect(languageFromAcceptHeader('')).toBeNull()
  })

  it('picks a supported language', () => {
    expect(languageFromAcceptHeader('fr')).toBe('fr')
    expect(languageFromAcceptHeader('nl')).toBe('nl')
    expect(languageFromAcceptHeader('en')).toBe('en')
  })

  it('matches a regional variant by its base language, in any case', () => {
    expect(languageFromAcceptHeader('fr-CA')).toBe('fr')
    expect(languageFromAcceptHeader('nl-BE,en;q=0.5')).toBe('nl')
    expect(languageFromAcceptHeader('EN-us')).toBe('en')
  })

  it('honours q-values over the order in the header', () => {
    expect(languageFromAcceptHeader('en;q=0.4, fr;q=0.9, nl;q=0.7')).toBe('fr')
    expect(languageFromAcceptHeader('en;q=0.5,nl')).toBe('nl')
  })

  it('keeps the header order between equal q-values', () => {
    expect(languageFromAcceptHeader('nl, fr')).toBe('nl')
    expect(languageFromAcceptHeader('fr;q=0.8, nl;q=0.8')).toBe('fr')
  })

  it('skips unsupported languages and takes the best supported one', () => {
    expect(languageFromAcceptHeader('de-DE,de;q=0.9,fr;q=0.8,en;q=0.7')).toBe('fr')
    expect(languageFromAcceptHeader('*;q=0.9, nl;q=0.1')).toBe('nl')
  })

  it('never picks a language the client refused with q=0', () => {
    expect(languageFromAcceptHeader('fr;q=0, en;q=0.1')).toBe('en')
    expect(languageFromAcceptHeader('fr;q=0')).toBeNull()
  })

  it('is null when nothing supported is asked for', () => {
    expect(languageFromAcceptHeader('de, es;q=0.8, *;q=0.1')).toBeNull()
  })

  it('tolerates whitespace around entries and parameters', () => {
    expect(languageFromAcceptHeader('  de;q=0.9 ,  nl-NL; q=0.8')).toBe('nl')
    expect(languageFromAcceptHeader('fr-FR;level=1;q=0.4, nl;q=0.3')).toBe('fr')
  })

  it('accepts optional whitespace before the ";q=" weight', () => {
    // RFC 9110 §12.4.2: weight = OWS ";" OWS "q=" qvalue.
    expect(languageFromAcceptHeader('fr ;q=0.9')).toBe('fr')
    expect(languageFromAcceptHeader('de;q=1.0, nl-BE ;q=0.5')).toBe('nl')
  })
})

describe('isLanguage', () => {
  it('accepts only the supported language codes', () => {
    expect(isLanguage('en')).toBe(true)
    expect(isLanguage('fr')).toBe(true)
    expect(isLanguage('nl')).toBe(true)
    expect(isLanguage('de')).toBe(false)
    expect(isLanguage('EN')).toBe(false)
    expect(isLanguage(undefined)).toBe(false)
  })
})
