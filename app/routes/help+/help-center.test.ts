import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import { helpArticleSlugs } from '#app/utils/help-articles.ts'
import * as notFound from '../$.tsx'
import * as home from '../_index.tsx'
import * as verification from '../account+/verification.tsx'
import * as createActivity from '../create-activity.tsx'
import * as article from './$slug.tsx'
import * as helpIndex from './_index.tsx'
import * as chat from './chat.tsx'

/**
 * The help center without JavaScript (issue 33 §4, decision 088): `/help` lists every article in
 * the page's language and searches them with a plain GET form, `/help/<slug>` is an article, and
 * spec §2's outside links come from configuration (an empty one is shown nowhere).
 */
const routes = [
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/help+/_index', path: 'help', module: helpIndex as never },
  { id: 'routes/help+/$slug', path: 'help/:slug', module: article as never },
  { id: 'routes/help+/chat', path: 'help/chat', module: chat as never },
  { id: 'routes/create-activity', path: 'create-activity', module: createActivity as never },
  { id: 'routes/account+/verification', path: 'account/verification', module: verification as never },
  { id: 'routes/$', path: '*', module: notFound as never },
]
const pages = routePages(routes)
const { page, text } = pages

const languages = ['en', 'fr', 'nl'] as const
const inLanguage = (language: string) => ({ 'accept-language': language })
const titles = (language: string) =>
  (JSON.parse(readFileSync(new URL(`../../../public/locales/${language}/help-articles.json`, import.meta.url), 'utf8')) as { articles: Record<string, { title: string }> }).articles

describe('the help center', () => {
  it.each(languages)('%s: lists every article, links each, and keeps the page out of caches like every page', async (language) => {
    const response = await page('/help', '', { headers: inLanguage(language) })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const html = await response.text()
    expect(html).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${language}"`))
    for (const slug of helpArticleSlugs) expect(html).toContain(`<a data-discover="true" href="/help/${slug}">${titles(language)[slug]!.title}</a>`)
    expect(html).toContain('<form method="get" action="/help" class="filters" role="search" data-discover="true">')
    expect(html).toContain('href="/help/chat"')
    if (language === 'en') {
      expect(html).toContain('<title>Help center – Circle 55</title>')
      expect(html).toContain('<label for="help-q">Search the help articles</label>')
      expect(await validationOf(html)).toEqual([])
    }
  })

  it('finds an article by a word of its body, in the page’s language, accents and case aside', async () => {
    const english = await text('/help?q=scarf', '', inLanguage('en'))
    expect(english).toContain('<title>Search results for “scarf” – Circle 55</title>')
    expect(english).toContain('<h2 id="help-results">1 article matches “scarf”</h2>')
    expect(english).toContain('<a data-discover="true" href="/help/finding-other-members-at-activities#group-chat">Finding the other members at an activity</a>')
    expect(english).toContain('<mark>scarf</mark>')
    // What was typed stays in the field.
    expect(english).toMatch(/<input id="help-q" type="search"[^>]* value="scarf"/)
    expect(await validationOf(english)).toEqual([])

    // Typed without its accent and in capitals, marked as the article writes it.
    const french = await text('/help?q=ECHARPE', '', inLanguage('fr'))
    expect(french).toContain('1 article correspond à « ECHARPE »')
    expect(french).toContain('href="/help/finding-other-members-at-activities#group-chat">Retrouver les autres membres lors d’une activité</a>')
    expect(french).toContain('<mark>écharpe</mark>')

    const dutch = await text('/help?q=kopieren', '', inLanguage('nl'))
    expect(dutch).toContain('1 artikel past bij ‘kopieren’')
    expect(dutch).toContain('href="/help/hosting-an-activity#manage">Een activiteit organiseren</a>')
    expect(dutch).toContain('<mark>kopiëren</mark>')

    // Only the page's language is searched: the English word finds nothing in French.
    expect(await text('/help?q=scarf', '', inLanguage('fr'))).toContain('Aucun article ne correspond à « scarf ».')
  })

  it('says plainly when no article matches, and leads to the help chat and every article', async () => {
    const html = await text('/help?q=xylophone', '', inLanguage('en'))
    expect(html).toContain('<h2 id="help-results">No article matches “xylophone”.</h2>')
    expect(html).toMatch(/You can also look through all the articles below, or ask us: <a data-discover="true" href="\/help\/chat">Write to us in the help chat<\/a>/)
    for (const slug of helpArticleSlugs) expect(html).toContain(`href="/help/${slug}"`)
    expect(await validationOf(html)).toEqual([])
    expect(await text('/help?q=xylophone', '', inLanguage('nl'))).toContain('Geen enkel artikel past bij ‘xylophone’.')
  })

  it('shows an article with its sections, the support address, related articles, the way back and the help chat', async () => {
    const html = await text('/help/safety-and-scams', '', inLanguage('en'))
    expect(html).toContain('<title>Safety and scams – Circle 55</title>')
    expect(html).toContain('<meta name="description" content="How to spot a scam, what Circle 55 staff never ask for, and how to report or block someone."/>')
    expect(html).toContain('<h1>Safety and scams</h1>')
    expect(html).toContain('<section id="verified-badge" aria-labelledby="verified-badge-heading"><h2 id="verified-badge-heading">The verified badge</h2>')
    expect(html).toContain('<a href="#verified-badge">The verified badge</a>')
    expect(html).toContain('Circle 55 staff will never ask for your card number, your passwords, a sign-in code or your Medicare number')
    expect(html).toContain('help@example.test')
    expect(html).toContain('<a data-discover="true" href="/help">Back to the help center</a>')
    expect(html).toContain('<a data-discover="true" href="/help/finding-other-members-at-activities">Finding the other members at an activity</a>')
    expect(html).toContain('<a data-discover="true" href="/help/chat">Write to us in the help chat</a>')
    expect(html).toContain('<a data-discover="true" href="/account/verification">Verify your identity</a>')
    expect(await validationOf(html)).toEqual([])

    const dutch = await text('/help/finding-other-members-at-activities', '', inLanguage('nl'))
    expect(dutch).toContain('<h1>De andere leden vinden bij een activiteit</h1>')
    expect(dutch).toContain('Groepsgesprek')
  })

  it.each(languages)('%s: draws every article as valid HTML, titled with its title', async (language) => {
    for (const slug of helpArticleSlugs) {
      // As sent (readableHtml would undo the escaping of "Display & Brightness").
      const response = await page(`/help/${slug}`, '', { headers: inLanguage(language) })
      expect(response.status, slug).toBe(200)
      const html = await response.text()
      const { title } = titles(language)[slug]!
      expect(html, slug).toContain(`<title>${title} – Circle 55</title>`)
      expect(html, slug).toContain(`<h1>${title}</h1>`)
      expect(await validationOf(html), slug).toEqual([])
    }
  })

  it('answers an unknown article with the not-found page, and keeps the help chat at /help/chat', async () => {
    const missing = await page('/help/no-such-article', '', { headers: inLanguage('en') })
    expect(missing.status).toBe(404)
    const html = await missing.text()
    expect(html).toContain('<title>Page not found – Circle 55</title>')
    expect(await text('/help/chat', '', inLanguage('en'))).toContain('<h1>Help: chat with Circle 55 support</h1>')
  })
})

describe('outside links from configuration (spec §2)', () => {
  it('shows the defaults: the help center in the footer, the hosting article for hosts, the badge’s section by the identity check', async () => {
    const member = await createUser(pages.database.db, { first_name: 'Rosa', last_name: 'Delgado' })
    const cookie = await pages.web.signedInCookie(member.id)
    const footer = await text('/', '')
    expect(footer).toContain('<nav aria-label="Help and more from Circle 55"><ul><li><a data-discover="true" href="/help">Help center</a></li><li><a data-discover="true" href="/help/hosting-an-activity">For hosts</a></li><li><a data-discover="true" href="/help/safety-and-scams#verified-badge">The verified badge</a></li></ul></nav>')
    expect(footer).not.toContain('Our blog')
    expect(await text('/create-activity', cookie)).toContain('<a data-discover="true" href="/help/hosting-an-activity">New to hosting? Read our tips for hosts</a>')
    expect(await text('/account/verification', cookie)).toContain('<a data-discover="true" href="/help/safety-and-scams#verified-badge">What the verified badge means</a>')
  })

  it('links other sites in the same tab with rel="noopener", and shows an empty one nowhere', async () => {
    const member = await createUser(pages.database.db, { first_name: 'Kwame', last_name: 'Asante' })
    const cookie = await pages.web.signedInCookie(member.id)
    const config = pages.web.services.config
    pages.web.services.config = {
      ...config,
      links: {
        blog: 'https://blog.circle55.example/',
        helpCenter: null,
        hostsProgram: 'https://hosts.circle55.example/program',
        marketingSite: 'https://www.circle55.example/',
        badgeInfo: null,
        appStore: 'https://apps.apple.com/us/app/circle-55/id1',
      },
    }
    try {
      const home = await text('/', '', inLanguage('fr'))
      expect(home).toContain('<a href="https://blog.circle55.example/" rel="noopener">Notre blog</a>')
      expect(home).toContain('<a href="https://apps.apple.com/us/app/circle-55/id1" rel="noopener">Télécharger l’application</a>')
      expect(home).toContain('<a href="https://www.circle55.example/" rel="noopener">Le site de Circle 55</a>')
      expect(home).not.toContain('Centre d’aide')
      expect(home).not.toContain('target="_blank"')
      expect(await validationOf(home)).toEqual([])
      expect(await text('/help/chat', '', inLanguage('en'))).not.toContain('Browse the help articles')
      expect(await text('/create-activity', cookie)).toContain('<a href="https://hosts.circle55.example/program" rel="noopener">New to hosting? Read our tips for hosts</a>')
      expect(await text('/account/verification', cookie)).not.toContain('What the verified badge means')
      // The help center itself stays, only the links to it are gone.
      expect((await page('/help', '')).status).toBe(200)
    } finally {
      pages.web.services.config = config
    }
  })
})
