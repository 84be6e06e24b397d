import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineRoutes } from '@remix-run/dev/dist/config/routes.js'
import { createRequestHandler } from '@remix-run/express'
import express from 'express'
import { flatRoutes } from 'remix-flat-routes'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { capturingLogger, serveOnLoopback, type LogLine, type LoopbackServer } from '#tests/express-host.ts'
import { documentBuild, type DocumentPage } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { refuseControlCharactersInAddress } from './control-characters.ts'

/**
 * Control characters in every web page's address (issue 29 §5, decision 066): every route of the
 * app (found as Remix finds them, app/routes.ts), behind the host's guard as server.ts puts it,
 * over the real API and database. Each query parameter the page reads (recorded while it is opened
 * normally) and each path parameter gets NUL or another control character, signed out and signed
 * in: the answer is the translated 400 page, never a 5xx. A new page is walked as soon as it exists.
 */

const appDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../app')
const modules = import.meta.glob<DocumentPage['module']>(
  ['../../app/routes/**/*.{ts,tsx}', '!../../app/routes/**/*.test.{ts,tsx}', '!../../app/routes/**/__*', '!../../app/routes/**/*.server.ts', '!../../app/routes/**/*.client.*'],
  { eager: true },
)

/** The app's routes, as app/routes.ts declares them. */
const manifest = Object.values(
  flatRoutes('routes', defineRoutes, {
    appDir: appDirectory,
    ignoredRouteFiles: ['.*', '**/*.css', '**/*.test.{ts,tsx}', '**/__*.*', '**/*.server.*', '**/*.client.*'],
  }),
)

const routes: (DocumentPage & { fullPath: string })[] = manifest.map((route) => {
  const module = modules[`../../app/${route.file}`]
  if (!module) throw new Error(`No module for ${route.file}`)
  const parent = manifest.find((candidate) => candidate.id === route.parentId)
  const fullPath = [parent?.path, route.path].filter(Boolean).join('/')
  return { id: route.id, path: route.path, index: route.index, parentId: route.parentId, module, fullPath }
})

let database: TestDatabase
let web: WebHarness
let served: LoopbackServer
const failures: unknown[] = []
const logLines: LogLine[] = []
let memberCookie: string
const samples: Record<string, string> = {}

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  const member = await createUser(database.db, { first_name: 'Nora', last_name: 'Quill' })
  memberCookie = await web.signedInCookie(member.id)
  const experience = await createExperience(database.db, member.id)
  Object.assign(samples, { id: experience.id, slug: member.slug, uid: 'interaction', lang: 'en', token: 'token', page: 'privacy', file: 'document', '*': 'nowhere' })

  const app = express()
  app.use(refuseControlCharactersInAddress(capturingLogger(logLines)))
  const handler = createRequestHandler({ build: documentBuild(routes), mode: 'production', getLoadContext: () => web.newContext() })
  app.all('*', (req, res, next) => void handler(req, res, next))
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    failures.push(error)
    res.status(500).send('Something went wrong.')
  })
  served = await serveOnLoopback(app)
})

afterAll(async () => {
  await served?.close()
  await web?.close()
  await database?.drop()
})

/** A page's path with its parameters filled in (`override` replaces one, already encoded). */
function pagePath(fullPath: string, override: Record<string, string> = {}) {
  return `/${fullPath.replace(/:(\w+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? '*'
    return override[key] ?? encodeURIComponent(samples[key] ?? 'x')
  })}`
}

async function open(url: string, cookie?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${served.url}${url}`, { headers: { ...headers, ...(cookie ? { cookie } : {}) }, redirect: 'manual' })
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' }
}

/** The query parameters read while `work` runs: every URLSearchParams lookup in this process. */
async function readParameters(work: () => Promise<unknown>) {
  const spies = [vi.spyOn(URLSearchParams.prototype, 'get'), vi.spyOn(URLSearchParams.prototype, 'getAll'), vi.spyOn(URLSearchParams.prototype, 'has')]
  try {
    await work()
    return new Set(spies.flatMap((spy) => spy.mock.calls.map((call) => call[0])))
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

const controls = ['\u0001', '\u0007', '\n', '\u001b', '\u007f', '\u0085', '\u009f']

describe('control characters in a page address', () => {
  it('answer the translated 400 page, signed out and signed in, on the pages the attacker named', async () => {
    for (const [url, cookie] of [
      ['/activities?q=%00', undefined],
      ['/members?name=%00', memberCookie],
      ['/messenger/new?name=%00', memberCookie],
    ] as const) {
      const page = await open(url, cookie)
      expect({ url, status: page.status }).toEqual({ url, status: 400 })
      expect(page.type).toContain('text/html')
      expect(page.text).toContain('<h1>This page address cannot be read</h1>')
    }
    const french = await open('/activities?q=caf%C3%A9%00', undefined, { 'accept-language': 'fr-BE,fr;q=0.9' })
    expect(french.status).toBe(400)
    expect(french.text).toContain('<html lang="fr">')
    expect(french.text).toContain('Cette adresse de page ne peut pas être lue')
  })

  it('never reach a page, in any query parameter it reads or any path parameter', { timeout: 180_000 }, async () => {
    expect(routes.length).toBeGreaterThan(50)
    const answers: string[] = []
    let probes = 0
    let turn = 0
    for (const route of routes) {
      const clean = pagePath(route.fullPath)
      const names = await readParameters(() => open(clean, memberCookie))
      for (const name of ['q', 'name', 'page', ...names]) {
        for (const control of ['\u0000', controls[turn++ % controls.length]!]) {
          for (const cookie of [undefined, memberCookie]) {
            const url = `${clean}?${new URLSearchParams({ [name]: `a${control}b` })}`
            const page = await open(url, cookie)
            probes++
            if (page.status !== 400 || !page.text.includes('<title>This page address cannot be read')) answers.push(`${url} (${cookie ? 'signed in' : 'signed out'}) → ${page.status}`)
          }
        }
      }
      for (const parameter of [...route.fullPath.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*')) {
        for (const control of ['%00', encodeURIComponent(controls[turn++ % controls.length]!)]) {
          const url = pagePath(route.fullPath, { [parameter]: `a${control}b` })
          const page = await open(url, memberCookie)
          probes++
          if (page.status !== 400) answers.push(`${url} → ${page.status}`)
        }
      }
    }
    expect(probes).toBeGreaterThan(500)
    expect(answers).toEqual([])
    expect(failures).toEqual([])
  })

  it('lets every other character through: accents, emoji, right-to-left letters, encoded spaces and slashes', async () => {
    for (const url of ['/members?name=Zo%C3%AB%20%F0%9F%9A%B2%20%D7%A9', '/messenger/new?name=Caf%C3%A9', `/p/${encodeURIComponent(samples.slug ?? '')}?x=%2F%20`]) {
      const page = await open(url, memberCookie)
      expect({ url, status: page.status }).toEqual({ url, status: 200 })
    }
  })
})
