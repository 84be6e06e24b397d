import { describe, expect, it } from 'vitest'
import { loader } from './translations.$lng.ts'

/** Decision 059: the browser loads every namespace of its language in one answer, before hydrating. */
describe('/resources/translations/{lng}', () => {
  function load(path: string, lng: string) {
    return loader({ request: new Request(`http://localhost${path}`), params: { lng }, context: {} as never })
  }

  it('answers every namespace of the language, kept for a year at a versioned address', async () => {
    const response = load(`/resources/translations/fr?v=${__LOCALES_VERSION__}`, 'fr')
    const all = (await response.json()) as Record<string, Record<string, unknown>>
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['common', 'blocking', 'activities', 'messenger', 'members']))
    expect((all.common as { loading: string }).loading).toBe('Chargement…')
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
  })

  it('leaves out the help articles, which their pages bring (decision 088)', async () => {
    const all = (await load(`/resources/translations/nl?v=${__LOCALES_VERSION__}`, 'nl').json()) as Record<string, unknown>
    expect(Object.keys(all)).toContain('help-center')
    expect(Object.keys(all)).not.toContain('help-articles')
  })

  it('keeps an unversioned or outdated address only briefly', () => {
    expect(load('/resources/translations/nl?v=old', 'nl').headers.get('Cache-Control')).toBe('public, max-age=300')
  })

  it('answers 404 for a language it does not have', () => {
    let thrown: unknown
    try {
      load('/resources/translations/de', 'de')
    } catch (error) {
      thrown = error
    }
    expect((thrown as Response).status).toBe(404)
  })
})
