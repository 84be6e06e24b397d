import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { helpArticles, helpArticleSlugs } from './help-articles.ts'
import { fold, queryWords, searchHelp, type HelpArticle, type SnippetPart } from './help-search.ts'

/** The help center's search (decision 088): what a member typing a question gets. */

function article(slug: string, title: string, intro: string, sections: Record<string, string[]> = {}): HelpArticle {
  return {
    slug,
    title,
    description: `${title}.`,
    intro,
    sections: Object.entries(sections).map(([id, body]) => ({ id, heading: id, body, steps: [] })),
    places: [],
  }
}

const marked = (parts: SnippetPart[]) => parts.filter((part) => part.mark).map((part) => part.text)
const text = (parts: SnippetPart[]) => parts.map((part) => part.text).join('')

describe('fold', () => {
  it('compares letters without accents or case, and punctuation as spaces, keeping where each came from', () => {
    const folded = fold('Réglages, Œuvre’s')
    expect(folded.folded).toBe('reglages  oeuvre s')
    // "o" and "e" both come from "Œ", at index 10.
    expect(folded.from.slice(10, 12)).toEqual([10, 10])
    expect(folded.to.slice(10, 12)).toEqual([11, 11])
  })
})

describe('queryWords', () => {
  it('leaves out the words every question has, unless nothing else is asked', () => {
    expect(queryWords('How do I cancel my seats?', 'en')).toEqual([['cancel'], ['seats', 'seat']])
    expect(queryWords('Comment annuler ma place ?', 'fr')).toEqual([['annuler'], ['place']])
    expect(queryWords('Hoe kan ik mijn plek annuleren?', 'nl')).toEqual([['plek'], ['annuleren']])
    expect(queryWords('how', 'en')).toEqual([['how']])
    expect(queryWords(' ? ! ', 'en')).toEqual([])
  })
})

describe('searchHelp', () => {
  const articles = [
    article('money', 'Payments', 'Premium costs $20 a year. Your cards are kept safe.', { fees: ['A no-show fee is charged only if you agreed to it.'] }),
    article('settings', 'Réglages', 'Changez vos réglages à tout moment.', { langue: ['Choisissez votre langue en bas de chaque page, puis appuyez sur « Changer de langue ».'] }),
    article('seats', 'Your seat', 'Save a seat, or cancel it when you cannot go.', { notify: ['When the activity is full, join the notify list and we tell you when a seat frees up.'] }),
  ]

  it('finds an article by a word of its body, and says where in it', () => {
    const [found, ...others] = searchHelp(articles, 'notify', 'en')
    expect(others).toEqual([])
    expect(found).toMatchObject({ slug: 'seats', title: 'Your seat', section: 'notify' })
    expect(marked(found!.snippet)).toEqual(['notify'])
    expect(text(found!.snippet)).toBe('When the activity is full, join the notify list and we tell you when a seat frees up.')
  })

  it('ignores accents and case both ways, and marks the word as it is written', () => {
    const typedWithout = searchHelp(articles, 'REGLAGES', 'fr')
    expect(typedWithout.map((result) => result.slug)).toEqual(['settings'])
    expect(marked(typedWithout[0]!.snippet)).toEqual(['réglages'])
    expect(searchHelp(articles, 'chàngez', 'fr').map((result) => result.slug)).toEqual(['settings'])
  })

  it('needs every word asked, takes a plural for its singular, and puts a title match first', () => {
    expect(searchHelp(articles, 'seat xylophone', 'en')).toEqual([])
    expect(searchHelp(articles, 'fees', 'en').map((result) => result.slug)).toEqual(['money'])
    expect(searchHelp(articles, 'seats', 'en').map((result) => result.slug)).toEqual(['seats'])
    // "seat" is in the opening of both, and in the title of the second only.
    const both = [article('a', 'Cards', 'Your seat and your cards.'), article('b', 'Your seat', 'A seat.')]
    expect(searchHelp(both, 'seat', 'en').map((result) => result.slug)).toEqual(['b', 'a'])
  })

  it('cuts a long paragraph around the first word found, between words', () => {
    const source = `${'Hosts choose the place, the day and how many may come. '.repeat(6)}The verified badge shows who someone is. ${'Members save a seat and meet at the place. '.repeat(6)}`
    const [found] = searchHelp([article('long', 'Long', source)], 'badge', 'en')
    const snippet = text(found!.snippet)
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet).toContain('The verified badge shows who someone is.')
    expect(snippet.length).toBeLessThan(220)
    // Whole words: what is shown starts and ends where the text has a space.
    const inner = snippet.slice(1, -1)
    const at = source.indexOf(inner)
    expect(at).toBeGreaterThan(0)
    expect(source[at - 1]).toBe(' ')
    expect(source[at + inner.length]).toBe(' ')
    expect(marked(found!.snippet)).toEqual(['badge'])
  })

  it('answers nothing for a question with no words', () => {
    expect(searchHelp(articles, '?!', 'en')).toEqual([])
  })
})

describe('the articles', () => {
  const read = (language: string) => JSON.parse(readFileSync(new URL(`../../public/locales/${language}/help-articles.json`, import.meta.url), 'utf8')) as { articles: Record<string, { sections: Record<string, unknown> }>; places: Record<string, string> }

  it.each(['en', 'fr', 'nl'])('%s: has every article of the list and no other, each section under the same anchor, each place named', (language) => {
    const stored = read(language)
    expect(Object.keys(stored.articles).sort()).toEqual([...helpArticleSlugs].sort())
    const english = read('en')
    for (const slug of helpArticleSlugs) expect(Object.keys(stored.articles[slug]!.sections)).toEqual(Object.keys(english.articles[slug]!.sections))
    for (const { places } of helpArticles) for (const [, label] of places) expect(stored.places[label], label).toBeTruthy()
  })

  it('lead on to articles that exist, never to themselves', () => {
    for (const { slug, related } of helpArticles) {
      for (const other of related) {
        expect(helpArticleSlugs).toContain(other)
        expect(other).not.toBe(slug)
      }
    }
  })

  it('include the section the verified badge link points to by default', () => {
    expect(read('en').articles['safety-and-scams']!.sections).toHaveProperty('verified-badge')
  })
})
