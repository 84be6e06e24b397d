import { createHmac } from 'node:crypto'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { serveOnLoopback } from '#tests/express-host.ts'
import { ConfigError, parseEnv } from '../../env.ts'
import { securityHeaders } from '../../http/security.ts'
import { chatwootIdentifierHash, helpChatSources, helpChatVendor, helpChatWidget, intercomUserJwt } from './help-chat.ts'

/** The help chat's vendor widgets (decision 083): the signatures against known vectors, the configuration, the CSP. */

describe('Chatwoot’s identifier_hash', () => {
  it('is HMAC-SHA256 in hex (RFC 4231, test cases 1 and 2)', () => {
    expect(chatwootIdentifierHash('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
    expect(chatwootIdentifierHash(Buffer.alloc(20, 0x0b).toString('latin1'), 'Hi There')).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7')
  })
})

describe('Intercom’s Messenger security token', () => {
  it('is an HS256 JWT of the id and the email, an hour long, signed with the secret', async () => {
    const now = new Date('2025-06-01T12:00:00Z')
    const token = await intercomUserJwt('messenger-secret', { id: 'user-1', email: 'ruth@example.com' }, now)
    const [header, payload, signature] = token.split('.')
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toEqual({ user_id: 'user-1', email: 'ruth@example.com', iat: 1748779200, exp: 1748782800 })
    expect(signature).toBe(createHmac('sha256', 'messenger-secret').update(`${header}.${payload}`).digest('base64url'))
  })
})

const member = { id: 'b1e7c3f0-0000-4000-8000-000000000001', name: 'Margaret K.', email: 'margaret@example.com', avatarUrl: 'https://circle55.example/media/a.jpg', createdAt: new Date('2024-01-02T03:04:05Z') }

describe('the configuration', () => {
  const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent' } as const
  it('chooses Chatwoot (all three), Intercom (both) or the built-in help chat, one vendor at a time', () => {
    expect(helpChatVendor(parseEnv(base))).toBeNull()
    const chatwoot = parseEnv({ ...base, CHATWOOT_BASE_URL: 'https://chat.example/', CHATWOOT_WEBSITE_TOKEN: 'w', CHATWOOT_HMAC_TOKEN: 'h' })
    expect(helpChatVendor(chatwoot)).toEqual({ provider: 'chatwoot', baseUrl: 'https://chat.example', websiteToken: 'w', hmacToken: 'h' })
    expect(helpChatVendor(parseEnv({ ...base, INTERCOM_APP_ID: 'abc', INTERCOM_IDENTITY_SECRET: 's' }))).toEqual({ provider: 'intercom', appId: 'abc', identitySecret: 's' })
    expect(() => parseEnv({ ...base, CHATWOOT_BASE_URL: 'https://chat.example', CHATWOOT_WEBSITE_TOKEN: 'w' })).toThrow(/CHATWOOT_BASE_URL, CHATWOOT_WEBSITE_TOKEN and CHATWOOT_HMAC_TOKEN must be set together/)
    expect(() => parseEnv({ ...base, INTERCOM_APP_ID: 'abc' })).toThrow(/INTERCOM_APP_ID and INTERCOM_IDENTITY_SECRET must be set together/)
    expect(() => parseEnv({ ...base, CHATWOOT_BASE_URL: 'not a url', CHATWOOT_WEBSITE_TOKEN: 'w', CHATWOOT_HMAC_TOKEN: 'h' })).toThrow(ConfigError)
    expect(() =>
      parseEnv({ ...base, CHATWOOT_BASE_URL: 'https://chat.example', CHATWOOT_WEBSITE_TOKEN: 'w', CHATWOOT_HMAC_TOKEN: 'h', INTERCOM_APP_ID: 'abc', INTERCOM_IDENTITY_SECRET: 's' }),
    ).toThrow(/choose one help-chat vendor/)
  })
})

describe('the widget’s settings', () => {
  it('give Chatwoot the name, email, id, joining date and photo, with the signed identifier and never the token', async () => {
    const widget = await helpChatWidget({ provider: 'chatwoot', baseUrl: 'https://chat.example', websiteToken: 'w', hmacToken: 'secret-token' }, member)
    expect(widget).toEqual({
      provider: 'chatwoot',
      base_url: 'https://chat.example',
      website_token: 'w',
      identifier: member.id,
      identifier_hash: createHmac('sha256', 'secret-token').update(member.id).digest('hex'),
      name: 'Margaret K.',
      email: 'margaret@example.com',
      avatar_url: 'https://circle55.example/media/a.jpg',
      created_at: '2024-01-02T03:04:05.000Z',
    })
    expect(JSON.stringify(widget)).not.toContain('secret-token')
  })

  it('give Intercom the signed token, the name, the photo and the joining date in seconds, never the secret', async () => {
    const widget = await helpChatWidget({ provider: 'intercom', appId: 'abc', identitySecret: 'secret-key' }, member)
    expect(widget).toMatchObject({ provider: 'intercom', app_id: 'abc', name: 'Margaret K.', avatar_url: 'https://circle55.example/media/a.jpg', created_at: 1704164645 })
    expect(JSON.stringify(widget)).not.toContain('secret-key')
    expect(JSON.stringify(widget)).not.toContain('margaret@example.com')
  })
})

describe('the Content-Security-Policy', () => {
  it('allows nothing more without a vendor, and only the vendor’s own hosts with one', () => {
    expect(Object.values(helpChatSources(null)).flat()).toEqual([])
    const chatwoot = helpChatSources({ provider: 'chatwoot', baseUrl: 'https://chat.example/app', websiteToken: 'w', hmacToken: 'h' })
    expect(chatwoot).toMatchObject({ script: ['https://chat.example'], frame: ['https://chat.example'], connect: ['https://chat.example', 'wss://chat.example'], style: [] })
    const intercom = helpChatSources({ provider: 'intercom', appId: 'abc', identitySecret: 's' })
    expect(intercom.script).toContain('https://widget.intercom.io')
    expect(intercom.connect).toContain('wss://nexus-websocket-a.intercom.io')
  })
})

describe('the page’s Content-Security-Policy header', () => {
  it('names the configured vendor’s hosts for its script, frame and connections, and nothing without one', async () => {
    const policy = async (sources?: ReturnType<typeof helpChatSources>) => {
      const app = express()
      app.use((_req, res, next) => {
        res.locals.cspNonce = 'a-nonce'
        next()
      })
      app.use(securityHeaders({ production: true, dev: false, formActions: [], helpChat: sources }))
      app.get('/', (_req, res) => {
        res.send('page')
      })
      const page = await serveOnLoopback(app)
      try {
        return (await fetch(page.url)).headers.get('content-security-policy') ?? ''
      } finally {
        await page.close()
      }
    }
    const plain = await policy(helpChatSources(null))
    expect(plain).toContain("script-src 'self' 'nonce-a-nonce';")
    expect(plain).not.toContain('frame-src')
    const chatwoot = await policy(helpChatSources({ provider: 'chatwoot', baseUrl: 'https://chat.example', websiteToken: 'w', hmacToken: 'h' }))
    expect(chatwoot).toContain("script-src 'self' 'nonce-a-nonce' https://chat.example;")
    expect(chatwoot).toContain("frame-src 'self' https://chat.example;")
    expect(chatwoot).toContain("connect-src 'self' https://chat.example wss://chat.example;")
    expect(chatwoot).toContain("style-src 'self';")
  })
})
