import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { capturingLogger, remixBehind, serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { stubRemixBuild } from '#tests/remix-stub.ts'
import { isValidHost, refuseMalformedHost } from './host-header.ts'

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
function get(headers: Record<string, string>, path = '/ping') {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, agent: false, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? '', text }))
    })
    outgoing.on('error', reject)
    outgoing.end()
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
