import { request as httpRequest } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { createMailer } from '../email/mailer.ts'
import { parseEnv } from '../env.ts'
import { pinHostToPublicUrl } from '../http/host-header.ts'
import { loadSecrets } from '../secrets.ts'
import { createIdentityProvider } from './provider.ts'

/**
 * QUALITY.md: published URLs come from configuration, never the Host header. The identity
 * provider builds its endpoints' addresses from the request; mounted as server.ts mounts it, a
 * request with someone else's Host must still be told our addresses.
 */
let database: TestDatabase
let served: LoopbackServer
let baseUrl: string

beforeAll(async () => {
  database = await createTestDatabase()
  const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent' })
  const secrets = await loadSecrets(database.db, env)
  const { provider } = createIdentityProvider({ env, db: database.db, mailer: createMailer({ db: database.db }), secrets })
  const oidc = provider.callback()
  const app = express()
  app.use('/oidc', pinHostToPublicUrl(env.PUBLIC_URL), (req, res) => void oidc(req, res))
  served = await serveOnLoopback(app)
  baseUrl = served.url
})

afterAll(async () => {
  await served?.close()
  await database?.drop()
})

describe('the identity provider behind a foreign Host', () => {
  it('publishes only PUBLIC_URL addresses, whatever Host or X-Forwarded-Host says', async () => {
    // fetch() will not send another Host; node:http sends what it is given, as an attacker would.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(`${baseUrl}/oidc/.well-known/openid-configuration`, { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
      })
      outgoing.on('error', reject)
      outgoing.end()
    })
    expect(status).toBe(200)
    const discovery = JSON.parse(body) as Record<string, unknown>
    const published = Object.values(discovery).filter((value): value is string => typeof value === 'string' && value.startsWith('http'))
    expect(published.length).toBeGreaterThan(3)
    for (const url of published) expect(url.startsWith(`${TEST_PUBLIC_URL}/oidc`), url).toBe(true)
  })
})
