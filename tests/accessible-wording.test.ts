import { describe, expect, it } from 'vitest'
import { wordingProblems } from './accessible-wording.ts'

/** The catalogue's wording check (app/routes/page-catalogue.test.ts) finds what a translation can break. */
describe('wordingProblems', () => {
  it('finds nothing on a page whose words name everything', async () => {
    const html = `<!DOCTYPE html><html lang="fr"><head><title>Accueil – Circle 55</title></head><body><main>
      <a href="/activities">Trouver des activités</a><label for="q">Ville</label><input id="q" name="q">
      <img src="/a.png" alt="Une promenade"><button type="submit">Chercher</button></main></body></html>`
    expect(await wordingProblems(html)).toEqual([])
  })

  it('names each rule a page breaks: no language, no title, an empty link, a field without a label, an image without text, an empty button', async () => {
    const html = `<!DOCTYPE html><html><head></head><body><main>
      <a href="/activities"></a><input id="q" name="q"><img src="/a.png"><button type="submit"></button></main></body></html>`
    const rules = (await wordingProblems(html)).map((line) => line.slice(0, line.indexOf(':')))
    expect(rules.sort()).toEqual(['button-name', 'document-title', 'html-has-lang', 'image-alt', 'label', 'link-name'])
  })
})
