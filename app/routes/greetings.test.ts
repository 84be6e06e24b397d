import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as welcomeBack from './_auth+/welcome-back.tsx'
import * as home from './_index.tsx'
import * as onboarded from './get-started+/success.tsx'

/**
 * Issue 12 §4: wherever the product greets a member it uses their first name ("Hello, Walter"),
 * not the display name ("Walter H."), in every language.
 */
const handle = createDocumentHandler([
  { id: 'routes/_index', path: '', module: home as never },
  { id: 'routes/get-started+/success', path: 'get-started/success', module: onboarded as never },
  { id: 'routes/_auth+/welcome-back', path: 'welcome-back', module: welcomeBack as never },
])

let database: TestDatabase
let web: WebHarness
/** Walter's signed-in cookie in each language (the page speaks the language saved on the account). */
const walter = new Map<string, string>()

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  for (const locale of ['en', 'fr', 'nl'] as const) {
    walter.set(locale, await web.signedInCookie((await createUser(database.db, { first_name: 'Walter', last_name: 'Hughes', locale })).id))
  }
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

async function heading(path: string, language: string) {
  const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie: walter.get(language) ?? '' } }), web.newContext())
  expect(response.status, path).toBe(200)
  const html = readableHtml(await response.text())
  return /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]
}

describe('greetings use the first name', () => {
  it.each([
    ['/', 'en', 'Hello, Walter'],
    ['/get-started/success', 'en', 'Welcome to Circle 55, Walter!'],
    ['/welcome-back', 'en', 'Welcome back, Walter'],
    ['/', 'fr', 'Bonjour Walter'],
    ['/get-started/success', 'fr', 'Bienvenue sur Circle 55, Walter\u00a0!'],
    ['/welcome-back', 'fr', 'Bon retour parmi nous, Walter'],
    ['/', 'nl', 'Hallo Walter'],
    ['/get-started/success', 'nl', 'Welkom bij Circle 55, Walter!'],
    ['/welcome-back', 'nl', 'Welkom terug, Walter'],
  ])('%s in %s says %j', async (path, language, greeting) => {
    expect(await heading(path, language)).toBe(greeting)
  })
})

describe('the greeting pages lead back to where the member was (issue 12 §4)', () => {
  async function links(path: string) {
    const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie: walter.get('en') ?? '' } }), web.newContext())
    const main = /<main[\s\S]*<\/main>/.exec(await response.text())?.[0] ?? ''
    return [...main.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(([, href, text]) => `${text} → ${href}`)
  }

  it.each([
    ['/get-started/success', ['Continue where you left off → /activities/42?tab=chat', 'Go to my home page → /']],
    ['/welcome-back', ['Continue where you left off → /activities/42?tab=chat', 'Go to my home page → /', 'My account → /account']],
  ])('%s?returnTo=… offers the way back first', async (path, expected) => {
    expect(await links(`${path}?returnTo=${encodeURIComponent('/activities/42?tab=chat')}`)).toEqual(expected)
  })

  it.each(['/get-started/success', '/welcome-back'])('%s offers home first without returnTo, or with one off the site', async (path) => {
    for (const query of ['', `?returnTo=${encodeURIComponent('//evil.example')}`]) {
      const found = await links(`${path}${query}`)
      expect(found[0]).toBe('Go to my home page → /')
      expect(found.join(' ')).not.toContain('evil')
    }
  })
})
