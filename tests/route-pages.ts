import { afterAll, beforeAll, expect } from 'vitest'
import { TEST_PUBLIC_URL } from './api-harness.ts'
import { createTestDatabase, type TestDatabase } from './db.ts'
import { htmlProblems } from './html-validate.ts'
import { createDocumentHandler, readableHtml } from './web-document.ts'
import { createWebHarness, type WebHarness } from './web-harness.ts'

/** The headers a browser sends when the member follows a link or types an address. */
export const navigationHeaders = { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' }

/**
 * A test file's pages as a browser without JavaScript gets them (`createDocumentHandler`), over
 * the real API and a database of the file's own, made before its tests and dropped after them.
 * `navigation`: `text` sends `navigationHeaders` unless given others.
 */
export function routePages(routes: Parameters<typeof createDocumentHandler>[0], options: { navigation?: boolean } = {}) {
  const handle = createDocumentHandler(routes)
  let database: TestDatabase | undefined
  let web: WebHarness | undefined
  beforeAll(async () => {
    database = await createTestDatabase()
    web = await createWebHarness(database)
  })
  afterAll(async () => {
    await web?.close()
    await database?.drop()
  })
  const ready = <T>(value: T | undefined) => {
    if (value === undefined) throw new Error('routePages: used before its beforeAll ran')
    return value
  }

  const page = async (path: string, cookie: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set('cookie', cookie)
    return handle(new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers }), ready(web).newContext())
  }
  return {
    get database() {
      return ready(database)
    },
    get web() {
      return ready(web)
    },
    /** The document handler itself, for a request with a context of the test's own. */
    handle,
    page,
    /** A page that must answer 200, as readable HTML. */
    text: async (path: string, cookie: string, headers: Record<string, string> = options.navigation ? navigationHeaders : {}) => {
      const response = await page(path, cookie, { headers })
      expect(response.status).toBe(200)
      return readableHtml(await response.text())
    },
    get: async (path: string, cookie: string) => {
      const response = await page(path, cookie)
      return { response, html: readableHtml(await response.text()) }
    },
    /** A form posted as a browser posts it. */
    post: async (path: string, cookie: string, fields: Record<string, string>) => {
      const response = await page(path, cookie, { method: 'POST', body: new URLSearchParams(fields) })
      return { response, html: readableHtml(await response.text()) }
    },
  }
}

/** The cookies a browser sends next: `cookie`, and what `response` set (a toast, a new session). */
export function withSetCookies(cookie: string, response: Response) {
  const set = response.headers.getSetCookie().map((line) => line.split(';')[0])
  return [cookie, ...set].join('; ')
}

/** html-validate's findings; Vitest bundles no CSS, so root's stylesheet link is given the address a build gives it. */
export async function validationOf(html: string) {
  return htmlProblems(html.replace('<link rel="stylesheet" href=""/>', '<link rel="stylesheet" href="/assets/app.css"/>'))
}
