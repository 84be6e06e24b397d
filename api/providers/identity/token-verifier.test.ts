import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTokenVerifier } from './token-verifier.ts'

/** A checked signature is trusted again for a short while, never past the token's expiry. */
describe('createTokenVerifier', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  async function setup() {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }
    const verify = createTokenVerifier({ issuer: 'https://issuer.test', audience: 'circle55', localJwks: { keys: [jwk] } })
    const sign = (expiresIn: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer('https://issuer.test').setAudience('circle55').setSubject('member-1').setIssuedAt().setExpirationTime(expiresIn).sign(privateKey)
    return { verify, sign }
  }

  it('answers the same subject for a token checked before, and refuses it once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { verify, sign } = await setup()
    const token = await sign('10s')
    expect((await verify(token)).sub).toBe('member-1')
    expect((await verify(token)).sub).toBe('member-1')
    vi.setSystemTime(Date.now() + 20_000)
    await expect(verify(token)).rejects.toThrow()
  })

  it('still refuses a forged token, whatever was checked before', async () => {
    const { verify, sign } = await setup()
    const token = await sign('1h')
    await verify(token)
    const [header, payload] = token.split('.')
    await expect(verify(`${header}.${payload}.${'A'.repeat(86)}`)).rejects.toThrow()
  })
})
