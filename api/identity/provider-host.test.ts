import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import express from 'express'
import type Provider from 'oidc-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { capturingLogger, serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { createMailer } from '../providers/email/mailer.ts'
import { parseEnv } from '../env.ts'
import { refuseMalformedHost } from '../http/host-header.ts'
import { loadSecrets } from '../secrets.ts'
import { createIdentityProvider, identityRoutes } from './provider.ts'

/**
 * QUALITY.md: published URLs come from configuration, never the Host header. The identity
 * provider builds its endpoints' addresses from the request; mounted as server.ts mounts it, a
 * request with someone else's Host must still be told our addresses.
 */
let database: TestDatabase
const servers: LoopbackServer[] = []
let baseUrl: string
/** The same provider with an https PUBLIC_URL behind a proxy that ends TLS (TRUST_PROXY=1). */
let behindProxy: LoopbackServer
let proxiedProvider: Provider

async function serveProvider(vars: Record<string, string>) {
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...vars })
  const secrets = await loadSecrets(database.db, env)
  const { provider } = createIdentityProvider({ env, db: database.db, mailer: createMailer({ db: database.db }), secrets })
  const app = express()
  app.set('trust proxy', env.TRUST_PROXY)
  app.use(refuseMalformedHost(capturingLogger([])))
  app.use(identityRoutes(provider))
  const served = await serveOnLoopback(app)
  servers.push(served)
  return { served, provider }
}

beforeAll(async () => {
  database = await createTestDatabase()
  baseUrl = (await serveProvider({ PUBLIC_URL: TEST_PUBLIC_URL })).served.url
  ;({ served: behindProxy, provider: proxiedProvider } = await serveProvider({ PUBLIC_URL: 'https://circle55.example', TRUST_PROXY: '1' }))
})

afterAll(async () => {
  for (const served of servers) await served.close()
  await database?.drop()
})

/** Node's http client sends the Host header as given (fetch would not), as an attacker would. */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const outgoing = httpRequest(url, { headers, agent: false }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/**
 * A request written by hand, for a request target in absolute form (`GET http://host/path
 * HTTP/1.1`, RFC 9112 §3.2.2), which servers must accept and Node passes through as req.url.
 */
function rawGet(server: LoopbackServer, target: string, host: string) {
  return new Promise<{ status: number; location: string | undefined; body: string }>((resolve, reject) => {
    // write, not end: Node's server drops a request whose client half-closes before the answer.
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n')
      const location = /^location: (.*)$/im.exec(head)?.[1]
      resolve({ status: Number(head.split(' ')[1]), location, body: rest.join('\r\n\r\n') })
    })
  })
}

function publishedUrls(body: string) {
  const discovery = JSON.parse(body) as Record<string, unknown>
  return Object.values(discovery).filter((value): value is string => typeof value === 'string' && value.startsWith('http'))
}

function expectOnlyIssuerUrls(body: string, issuer: string) {
  const published = publishedUrls(body)
  expect(published.length).toBeGreaterThan(3)
  for (const url of published) expect(url === issuer || url.startsWith(`${issuer}/`), url).toBe(true)
}

describe('the identity provider behind a foreign Host', () => {
  it('publishes only PUBLIC_URL addresses, whatever Host or X-Forwarded-Host says', async () => {
    const { status, body } = await get(`${baseUrl}/oidc/.well-known/openid-configuration`, { host: 'evil.example', 'x-forwarded-host': 'evil.example' })
    expect(status).toBe(200)
    const published = publishedUrls(body)
    expect(published.length).toBeGreaterThan(3)
    for (const url of published) expect(url.startsWith(`${TEST_PUBLIC_URL}/oidc`), url).toBe(true)
  })

  it('publishes the issuer’s addresses when the request target names another host (absolute form)', async () => {
    const { status, body } = await rawGet(behindProxy, 'http://attacker.example/oidc/.well-known/openid-configuration', 'attacker.example')
    expect(status).toBe(200)
    expectOnlyIssuerUrls(body, 'https://circle55.example/oidc')
  })

  it('publishes https addresses for an https PUBLIC_URL, whatever scheme the request came in on', async () => {
    const variants: Record<string, string>[] = [{}, { 'x-forwarded-proto': 'http' }, { host: 'attacker.example', 'x-forwarded-proto': 'http' }]
    for (const headers of variants) {
      const { status, body } = await get(`${behindProxy.url}/oidc/.well-known/openid-configuration`, headers)
      expect(status, JSON.stringify(headers)).toBe(200)
      expectOnlyIssuerUrls(body, 'https://circle55.example/oidc')
    }
  })

  it('answers only at the issuer’s path as configured (not /OIDC/…, which would be published back)', async () => {
    const { status, body } = await get(`${behindProxy.url}/OIDC/.well-known/openid-configuration`)
    if (status === 200) expectOnlyIssuerUrls(body, 'https://circle55.example/oidc')
    else expect(status).toBe(404)
  })

  it('sends the browser back from sign-in to the issuer, whatever host the request target named', async () => {
    const query = new URLSearchParams({ client_id: 'circle55-web', response_type: 'code', scope: 'openid', redirect_uri: 'https://circle55.example/login-success', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 'a-state' })
    const { status, location } = await rawGet(behindProxy, `http://attacker.example/oidc/auth?${query}`, 'attacker.example')
    expect(status).toBe(303)
    const uid = /^\/identity\/([\w-]+)$/.exec(location ?? '')?.[1]
    expect(uid, location).toBeDefined()
    const interaction = await proxiedProvider.Interaction.find(uid!)
    expect(interaction?.returnTo).toBe(`https://circle55.example/oidc/auth/${uid}`)
  })

  it('marks its sign-in cookies Secure for an https PUBLIC_URL, even when the proxy does not say https', async () => {
    const query = new URLSearchParams({ client_id: 'circle55-web', response_type: 'code', scope: 'openid', redirect_uri: 'https://circle55.example/login-success', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 'a-state' })
    const { status, headers } = await get(`${behindProxy.url}/oidc/auth?${query}`)
    expect(status).toBe(303)
    const cookies = headers['set-cookie'] ?? []
    expect(cookies.length).toBeGreaterThan(0)
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*secure\b/i)
  })
})

describe('discovery', () => {
  it('answers at the RFC 8414 address for an issuer with a path, with the same document', async () => {
    const oauth = await get(`${behindProxy.url}/.well-known/oauth-authorization-server/oidc`, { host: 'attacker.example' })
    expect(oauth.status).toBe(200)
    expect(oauth.headers['content-type']).toMatch(/^application\/json/)
    const openid = await get(`${behindProxy.url}/oidc/.well-known/openid-configuration`)
    expect(JSON.parse(oauth.body)).toEqual(JSON.parse(openid.body))
    expect((JSON.parse(oauth.body) as { issuer: string }).issuer).toBe('https://circle55.example/oidc')
    expectOnlyIssuerUrls(oauth.body, 'https://circle55.example/oidc')
  })

  it('advertises only what the registered client uses: code with PKCE S256, client_secret_basic, refresh', async () => {
    const discovery = JSON.parse((await get(`${baseUrl}/oidc/.well-known/openid-configuration`)).body) as Record<string, unknown>
    expect(discovery.response_types_supported).toEqual(['code'])
    expect(discovery.grant_types_supported).toEqual(['authorization_code', 'refresh_token'])
    expect(discovery.code_challenge_methods_supported).toEqual(['S256'])
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic'])
    // Nothing for a client authenticating with a JWT, pushing requests, binding tokens with
    // DPoP, or calling userinfo (every access token is for the API's audience, which userinfo refuses).
    for (const absent of ['token_endpoint_auth_signing_alg_values_supported', 'pushed_authorization_request_endpoint', 'dpop_signing_alg_values_supported', 'userinfo_endpoint']) {
      expect(discovery, absent).not.toHaveProperty(absent)
    }
  })
})

describe('the authorization endpoint', () => {
  const base = { client_id: 'circle55-web', scope: 'openid', redirect_uri: `${TEST_PUBLIC_URL}/login-success`, state: 'a-state' }
  const challenge = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }

  function authorize(params: Record<string, string>) {
    return get(`${baseUrl}/oidc/auth?${new URLSearchParams({ ...base, ...params })}`)
  }

  it('starts sign-in for the code flow with PKCE S256', async () => {
    const { status, headers } = await authorize({ response_type: 'code', ...challenge })
    expect(status).toBe(303)
    expect(String(headers.location)).toMatch(/^\/identity\/[\w-]+$/)
  })

  it('refuses the implicit and hybrid flows, and the code flow without PKCE', async () => {
    const refused: Record<string, string>[] = [{ response_type: 'id_token', nonce: 'n' }, { response_type: 'code id_token', nonce: 'n', ...challenge }, { response_type: 'code' }, { response_type: 'code', code_challenge: challenge.code_challenge, code_challenge_method: 'plain' }]
    for (const params of refused) {
      const { status, headers } = await authorize(params)
      expect(status, JSON.stringify(params)).toBe(303)
      const location = new URL(String(headers.location))
      expect(`${location.origin}${location.pathname}`, JSON.stringify(params)).toBe(`${TEST_PUBLIC_URL}/login-success`)
      expect(location.searchParams.get('error') ?? new URLSearchParams(location.hash.slice(1)).get('error'), JSON.stringify(params)).toMatch(/^(unsupported_response_type|invalid_request|unauthorized_client)$/)
    }
  })
})
