import { request as httpRequest } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { refuseCrossSite, securityHeaders } from './security.ts'

/**
 * The cross-site check on a small Express app: the API and the identity provider's client
 * endpoints are called by programs without cookies; everything else is a web route that a
 * browser posts to with its cookies.
 */
const site = 'https://circle55.example'
let served: LoopbackServer
let base: string

beforeAll(async () => {
  const app = express()
  app.use(refuseCrossSite([site]))
  app.all('*', (_req, res) => {
    res.send('done')
  })
  served = await serveOnLoopback(app)
  base = served.url
})

afterAll(async () => {
  await served.close()
})

/** Node's http client sends only the headers given (fetch would add its own Sec-Fetch-Mode). */
function send(method: string, path: string, headers: Record<string, string> = {}) {
  const body = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? '' : 'lng=fr'
  return new Promise<number>((resolve, reject) => {
    const outgoing = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), ...headers },
      },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

const webRoutes = ['/logout', '/identity/abc', '/identity/abc/code', '/api/localize', '/api/auth/logout', '/activities/1', '/oidc/auth']
const programRoutes = ['/api/v1/experiences', '/api/users/me', '/api/v1/users/me/payment-methods', '/oidc/token', '/oidc/token/revocation', '/oidc/me']

describe('refuseCrossSite', () => {
  it('refuses a web POST with neither Origin nor Sec-Fetch-Site (issue 10 §8)', async () => {
    for (const path of webRoutes) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(await send(method, path), `${method} ${path}`).toBe(403)
    }
  })

  it('refuses it also when the Referer is another site, or not a URL', async () => {
    for (const path of webRoutes) {
      for (const referer of ['https://evil.example/page', 'https://circle55.example.evil.example/', `${site}@evil.example/`, 'http://circle55.example/', 'not a url', '/logout']) {
        expect(await send('POST', path, { referer }), `POST ${path} from ${referer}`).toBe(403)
      }
    }
  })

  it('lets a web POST through without Origin when its Referer is this site', async () => {
    for (const path of webRoutes) expect(await send('POST', path, { referer: `${site}/activities?page=2` }), path).toBe(200)
  })

  it('lets the API and the identity provider client endpoints be called without browser headers', async () => {
    for (const path of programRoutes) {
      for (const method of ['POST', 'PUT', 'DELETE']) expect(await send(method, path), `${method} ${path}`).toBe(200)
    }
  })

  it("lets a mail program's one-click unsubscribe POST through without browser headers, and only that page", async () => {
    expect(await send('POST', '/unsubscribe/abc.def')).toBe(200)
    for (const path of ['/unsubscribe', '/unsubscribe/abc/more', '/account/unsubscribe/abc']) expect(await send('POST', path), path).toBe(403)
    expect(await send('POST', '/unsubscribe/abc.def', { origin: 'https://evil.example' })).toBe(403)
  })

  it('refuses anything a browser marks as cross-site, on every path', async () => {
    for (const path of [...webRoutes, ...programRoutes]) {
      for (const headers of [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } as Record<string, string>,
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        // A same-origin Referer does not outweigh a cross-site Origin.
        { origin: 'https://evil.example', referer: `${site}/` },
      ]) {
        expect(await send('POST', path, headers), `POST ${path} with ${JSON.stringify(headers)}`).toBe(403)
      }
    }
  })

  it('lets same-origin browser requests through', async () => {
    for (const path of [...webRoutes, ...programRoutes]) {
      for (const headers of [{ origin: site, 'sec-fetch-site': 'same-origin' } as Record<string, string>, { origin: site }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }]) {
        expect(await send('POST', path, headers), `POST ${path} with ${JSON.stringify(headers)}`).toBe(200)
      }
    }
  })

  it('says so on a page in the member\'s language, not in English plain text', async () => {
    const response = await fetch(`${base}/api/localize`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'accept-language': 'nl-BE,nl;q=0.9' },
      body: new URLSearchParams({ lng: 'fr' }),
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const page = await response.text()
    expect(page).toContain('<html lang="nl">')
    expect(page).toContain('<h1>We konden dit formulier niet aannemen</h1>')
    expect(page).toContain('<link rel="stylesheet" href="/refusal.css">')
  })

  it('never stops reads', async () => {
    for (const path of webRoutes) {
      for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(await send(method, path, { origin: 'https://evil.example' }), `${method} ${path}`).toBe(200)
    }
  })
})

describe('securityHeaders', () => {
  it('forbids framing in both headers alike: CSP frame-ancestors \'none\' and X-Frame-Options DENY (issue 11 §6)', async () => {
    const app = express()
    app.use((_req, res, next) => {
      res.locals.cspNonce = 'a-nonce'
      next()
    })
    app.use(securityHeaders({ production: true, dev: false, formActions: [] }))
    app.get('/', (_req, res) => {
      res.send('page')
    })
    const page = await serveOnLoopback(app)
    try {
      const response = await fetch(page.url)
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      // Browsers that know CSP 2 ignore X-Frame-Options; older ones read only it, and must be told the same.
      expect(response.headers.get('x-frame-options')).toBe('DENY')
    } finally {
      await page.close()
    }
  })

  it("lets the browser send errors to Sentry's ingest host when told to, and nowhere else (decision 014)", async () => {
    const answer = async (connectSources?: string[]) => {
      const app = express()
      app.use((_req, res, next) => {
        res.locals.cspNonce = 'a-nonce'
        next()
      })
      app.use(securityHeaders({ production: true, dev: false, formActions: [], connectSources }))
      app.get('/', (_req, res) => {
        res.send('page')
      })
      const page = await serveOnLoopback(app)
      try {
        return (await fetch(page.url)).headers.get('content-security-policy')
      } finally {
        await page.close()
      }
    }
    expect(await answer()).toContain("connect-src 'self';")
    expect(await answer(['https://o1.ingest.sentry.io'])).toContain("connect-src 'self' https://o1.ingest.sentry.io;")
  })
})
