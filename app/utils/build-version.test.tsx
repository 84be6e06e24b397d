import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { afterEach, describe, expect, it } from 'vitest'
import { UpdateRequired } from '#app/components/update-required.tsx'
import { buildChangedNow, buildVersion, isFromAnotherBuild, resetBuildVersionWatch, watchBuildVersion } from './build-version.ts'
import { createI18nInstance } from './i18next.server.ts'

/** The update-required page (spec §2, decision 045): when the browser runs an older build than the server. */
const answered = (version: string | null, url = 'https://circle55.test/activities/1.data') => {
  const response = new Response('{}', { headers: version ? { 'X-Build-Version': version } : {} })
  Object.defineProperty(response, 'url', { value: url })
  return response
}

/** A browser window whose fetch answers with `version`, watched as entry.client watches the real one. */
function browser(version: string | null, url?: string) {
  const target = { fetch: (async () => answered(version, url)) as typeof fetch, location: { origin: 'https://circle55.test' } }
  watchBuildVersion(target)
  return target
}

afterEach(() => resetBuildVersionWatch())

describe('noticing that the server runs another build', () => {
  it('a response from the same build, or one that does not say, changes nothing', () => {
    expect(isFromAnotherBuild(answered(buildVersion))).toBe(false)
    expect(isFromAnotherBuild(answered(null))).toBe(false)
  })

  it('a response from another build is noticed', () => {
    expect(isFromAnotherBuild(answered('0123456789ab'), 'ba9876543210')).toBe(true)
  })

  it('page data fetched from a newer server is seen through the browser’s fetch', async () => {
    const window = browser('newer-build')
    expect(buildChangedNow()).toBe(false)
    const response = await window.fetch('/activities/1.data')
    expect(response.headers.get('X-Build-Version')).toBe('newer-build')
    expect(buildChangedNow()).toBe(true)
  })

  it('another site’s answer is not a sign of a new build', async () => {
    const window = browser('whatever', 'https://maps.example.com/tiles')
    await window.fetch('https://maps.example.com/tiles')
    expect(buildChangedNow()).toBe(false)
  })
})

describe('the update-required page', () => {
  it('says plainly that the page needs to reload, with one button, in the member’s language', async () => {
    for (const [language, text, button] of [
      ['en', 'This page needs to reload to get the latest version.', 'Reload the page'],
      ['fr', 'Cette page doit être rechargée pour obtenir la dernière version.', 'Recharger la page'],
      ['nl', 'Deze pagina moet opnieuw worden geladen om de nieuwste versie te krijgen.', 'Pagina opnieuw laden'],
    ] as const) {
      const i18n = await createI18nInstance(language)
      const html = renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <UpdateRequired />
        </I18nextProvider>,
      )
      expect(html).toContain(`<p>${text}</p>`)
      expect(html.match(/<button/g)).toHaveLength(1)
      expect(html).toContain(`>${button}</button>`)
    }
  })
})
