import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { capturingLogger, remixBehind, serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { stubRemixBuild } from '#tests/remix-stub.ts'
import { isValidHost, redirectToCanonicalHost, refuseMalformedHost } from './host-header.ts'
import { refuseCrossSite } from './security.ts'

/**
 * Issue 10 §7: a malformed Host header on a web page was a 500 logged at error level, because
 * the Remix adapter builds the request URL from it. The check runs on a small Express app in
 * front of the real adapter, as in server.ts.
 */
let served: LoopbackServer
let port: number
const logged: { level: number; msg: string }[] = []
const failures: unknown[] = []
const remix = stubRemixBuild({
  ping: { loader: ({ request }) => new Response(`pong from ${new URL(request.url).host}`) },
})

beforeAll(async () => {
  served = await serveOnLoopback(remixBehind([refuseMalformedHost(capturingLogger(logged))], remix.build, failures))
  port = served.port
})

afterAll(async () => {
  await served.close()
})

beforeEach(() => {
  logged.length = 0
  failures.length = 0
  remix.errors.length = 0
})

/** Node's http client sends the Host header as given (fetch would refuse most of these). */
function get(headers: Record<string, string>, path = '/ping', options: { port?: number; method?: string; body?: string } = {}) {
  return new Promise<{ status: number; type: string; location: string | undefined; text: string }>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: options.port ?? port, path, method: options.method ?? 'GET', agent: false, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? '', location: response.headers.location, text }))
    })
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

const malformed = ['exa mple', '[::1', 'exämple.com', 'localhost:99999', 'localhost:3000:80', 'evil.example/path', 'a@b']

describe('a malformed Host header', () => {
  it('is answered 400 with a plain page, logged as a warning, before the web app runs', async () => {
    for (const host of malformed) {
      const response = await get({ host })
      expect(response.status, `Host: ${JSON.stringify(host)}`).toBe(400)
      expect(response.type).toMatch(/^text\/html/)
      expect(response.text).toContain('<h1>This request could not be read</h1>')
      expect(response.text).not.toMatch(/TypeError|Invalid URL|\bat \S+ \(/)
    }
    expect(failures).toEqual([])
    expect(remix.errors).toEqual([])
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([])
    expect(logged.filter((entry) => entry.level === 40 && entry.msg === 'Malformed Host header refused')).toHaveLength(malformed.length)
  })

  it('is answered in the language of the browser', async () => {
    const response = await get({ host: 'exa mple', 'accept-language': 'fr-BE,fr;q=0.9,en;q=0.5' })
    expect(response.status).toBe(400)
    expect(response.text).toContain('<html lang="fr">')
    expect(response.text).toContain("<h1>Cette demande n&#39;a pas pu être lue</h1>")
  })

  it('in X-Forwarded-Host (whose port the adapter reads even from an untrusted client) is refused too', async () => {
    for (const forwarded of ['a:99999', 'exa mple', 'ok.example, [::1']) {
      expect((await get({ host: 'circle55.example', 'x-forwarded-host': forwarded })).status, forwarded).toBe(400)
    }
    expect(failures).toEqual([])
  })

  it('with a request target that makes no URL with it (absolute form) is refused too', async () => {
    expect((await get({ host: 'localhost:3000' }, 'http://evil.example/ping')).status).toBe(400)
    expect(failures).toEqual([])
  })
})

describe('a well-formed Host header', () => {
  it('reaches the web app', async () => {
    for (const host of ['localhost:3000', 'circle55.example', '127.0.0.1:8080', '[::1]:3000', 'my_service.internal']) {
      const response = await get({ host })
      expect(response.status, host).toBe(200)
      expect(response.text).toMatch(/^pong from /)
    }
    expect(logged.filter((entry) => entry.level >= 40)).toEqual([])
  })

  it('is what isValidHost accepts', () => {
    expect(isValidHost('circle55.example:443')).toBe(true)
    expect(isValidHost('[2001:db8::1]')).toBe(true)
    expect(isValidHost('[2001:db8::1')).toBe(false)
    expect(isValidHost('[zz]')).toBe(false)
    expect(isValidHost('host:65536')).toBe(false)
  })
})

/**
 * Issue 11 §6: opened at another name for the same server (`http://127.0.0.1:3000`, a LAN
 * address), every form was refused 403 (its Origin is not PUBLIC_URL's) and sign-in came back on
 * PUBLIC_URL. A page asked for at another host is now sent to PUBLIC_URL first, as server.ts
 * arranges the guards: malformed Host, canonical host, cross-site check, then the app.
 */
describe('a page asked for at another host than PUBLIC_URL', () => {
  const TEST_PUBLIC_URL = 'http://localhost:3999'
  const canonicalRemix = stubRemixBuild({
    activities: { loader: ({ request }) => new Response(`activities at ${new URL(request.url).host}`) },
    login: { loader: () => new Response('sign in'), action: () => new Response('signed in') },
    'api/v1/experiences': { loader: () => Response.json({ data: [] }) },
    'api/health': { loader: () => Response.json({ status: 'ok' }) },
    healthz: { loader: () => Response.json({ status: 'ok' }) },
  })
  const canonicalHost = new URL(TEST_PUBLIC_URL).host
  const guarded: LoopbackServer[] = []
  let direct: number
  let proxied: number

  function serve(trustProxy: number) {
    const app = remixBehind(
      [refuseMalformedHost(capturingLogger([])), redirectToCanonicalHost(TEST_PUBLIC_URL), refuseCrossSite([new URL(TEST_PUBLIC_URL).origin])],
      canonicalRemix.build,
      failures,
    )
    app.set('trust proxy', trustProxy)
    return serveOnLoopback(app).then((server) => (guarded.push(server), server.port))
  }

  beforeAll(async () => {
    direct = await serve(0)
    proxied = await serve(1)
  })

  afterAll(async () => {
    for (const server of guarded) await server.close()
  })

  it('is redirected to the same path and query at PUBLIC_URL before the app runs (GET and HEAD)', async () => {
    for (const host of ['127.0.0.1:3999', '192.168.1.20:3999', 'circle55.local', `127.0.0.1:${direct}`]) {
      for (const method of ['GET', 'HEAD']) {
        const response = await get({ host }, '/activities?page=2&date=today', { port: direct, method })
        expect(response.status, `${method} Host: ${host}`).toBe(302)
        expect(response.location, `${method} Host: ${host}`).toBe(`${TEST_PUBLIC_URL}/activities?page=2&date=today`)
      }
    }
    const signIn = await get({ host: '127.0.0.1:3999' }, '/login?returnTo=%2Fattending', { port: direct })
    expect(signIn.location).toBe(`${TEST_PUBLIC_URL}/login?returnTo=%2Fattending`)
    expect(failures).toEqual([])
  })

  it('stays on PUBLIC_URL whatever the request target says', async () => {
    for (const [target, expected] of [
      ['//evil.example/activities', `${TEST_PUBLIC_URL}//evil.example/activities`],
      ['http://evil.example/activities?x=1', `${TEST_PUBLIC_URL}/activities?x=1`],
    ] as const) {
      const response = await get({ host: 'evil.example' }, target, { port: direct })
      expect(response.status, target).toBe(302)
      expect(response.location, target).toBe(expected)
      expect(new URL(response.location!).origin, target).toBe(TEST_PUBLIC_URL)
    }
  })

  it('is served at PUBLIC_URL’s host, however it is spelled', async () => {
    for (const host of [canonicalHost, canonicalHost.toUpperCase()]) {
      const response = await get({ host }, '/activities', { port: direct })
      expect(response.status, host).toBe(200)
      expect(response.text).toBe(`activities at ${canonicalHost}`)
    }
  })

  it('behind a trusted proxy, is judged by X-Forwarded-Host; an untrusted one is ignored', async () => {
    expect((await get({ host: '127.0.0.1:3000', 'x-forwarded-host': canonicalHost }, '/activities', { port: proxied })).status).toBe(200)
    const other = await get({ host: canonicalHost, 'x-forwarded-host': '192.168.1.20:3999' }, '/activities', { port: proxied })
    expect(other.status).toBe(302)
    expect(other.location).toBe(`${TEST_PUBLIC_URL}/activities`)
    const untrusted = await get({ host: '127.0.0.1:3000', 'x-forwarded-host': canonicalHost }, '/activities', { port: direct })
    expect(untrusted.status).toBe(302)
  })

  it('leaves health checks and the API alone (a load balancer asks by address; API clients send bearer tokens)', async () => {
    for (const path of ['/healthz', '/api/health', '/api/v1/experiences']) {
      const response = await get({ host: '10.0.0.7:3000' }, path, { port: direct })
      expect(response.status, path).toBe(200)
      expect(response.location, path).toBeUndefined()
    }
  })

  it('does not redirect a form: a same-site one is served at PUBLIC_URL, a cross-site one is still refused', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const ours = await get({ ...form, host: canonicalHost, origin: TEST_PUBLIC_URL, 'sec-fetch-site': 'same-origin' }, '/login', { port: direct, method: 'POST', body: 'a=1' })
    expect(ours.status).toBe(200)
    for (const host of [canonicalHost, '127.0.0.1:3999']) {
      const theirs = await get({ ...form, host, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, '/login', { port: direct, method: 'POST', body: 'a=1' })
      expect(theirs.status, host).toBe(403)
      expect(theirs.location).toBeUndefined()
    }
  })
})
