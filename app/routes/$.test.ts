import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as notFoundRoute from '#app/routes/$.tsx'
import * as activityRoute from '#app/routes/activities+/$id.tsx'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'

/**
 * Issue 11 §6: error pages name themselves in the document's <head>, where the tab and screen
 * readers read the title (React 18 leaves a <title> drawn in <main> in the body), and keep the
 * site's header: each page route has the general error boundary.
 */
let database: TestDatabase
let web: WebHarness
const handle = createDocumentHandler([
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activityRoute as never },
  { id: 'routes/$', path: '*', module: notFoundRoute },
])

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  web?.bringUp()
  await web?.close()
  await database?.drop()
})

async function open(path: string, headers: Record<string, string> = {}) {
  const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers }), web.newContext())
  const html = await response.text()
  const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'))
  const body = html.slice(html.indexOf('<body>'))
  return { status: response.status, head, body, titles: html.match(/<title>[^<]*<\/title>/g) ?? [] }
}

describe('the page-not-found page', () => {
  it('is titled "Page not found – Circle 55" in <head>, once, and keeps the site header', async () => {
    const page = await open('/no-such-page')
    expect(page.status).toBe(404)
    expect(page.titles).toEqual(['<title>Page not found – Circle 55</title>'])
    expect(page.head).toContain('<title>Page not found – Circle 55</title>')
    expect(page.body).toContain('<h1>Page not found</h1>')
    expect(page.body).toContain('class="site-header"')
  })

  it('is titled in the member’s language', async () => {
    expect((await open('/no-such-page', { 'accept-language': 'fr' })).titles).toEqual(['<title>Page introuvable – Circle 55</title>'])
    expect((await open('/no-such-page', { 'accept-language': 'nl' })).titles).toEqual(['<title>Pagina niet gevonden – Circle 55</title>'])
  })

  it('an activity that does not exist says so in the title too, and shows who is signed in', async () => {
    const member = await createUser(database.db, { first_name: 'Rosalind' })
    const page = await open(`/activities/${crypto.randomUUID()}`, { cookie: await web.signedInCookie(member.id) })
    expect(page.status).toBe(404)
    expect(page.titles).toEqual(['<title>Page not found – Circle 55</title>'])
    expect(page.body).toContain('<h1>Page not found</h1>')
    expect(page.body).toContain('Rosalind')
  })
})

describe('the root’s own error page (its loader failed: the database is down)', () => {
  it('is titled "Service unavailable – Circle 55" in <head>, once', async () => {
    const member = await createUser(database.db)
    const cookie = await web.signedInCookie(member.id)
    web.takeDown()
    try {
      const page = await open('/no-such-page', { cookie })
      expect(page.status).toBe(503)
      expect(page.titles).toEqual(['<title>Service unavailable – Circle 55</title>'])
      expect(page.head).toContain('<title>Service unavailable – Circle 55</title>')
      expect(page.body).toContain('<h1>Service unavailable</h1>')
    } finally {
      web.bringUp()
    }
  })
})
