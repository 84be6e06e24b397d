import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose'

export type TokenVerifier = (token: string) => Promise<JWTPayload & { sub: string }>

/**
 * Verifies bearer access tokens against the issuer's JWKS with exact `iss` and `aud`.
 * The same code serves the built-in provider and Auth0; only the issuer and key source differ.
 */
export function createTokenVerifier(options: {
  issuer: string
  audience: string
  jwksUrl?: string
  /** In-process: the built-in provider's public keys, saving a loopback request. */
  localJwks?: JSONWebKeySet
}): TokenVerifier {
  const keys = options.localJwks
    ? createLocalJWKSet(options.localJwks)
    : createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer}/jwks`), {
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
      })
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256', 'PS256', 'ES256'],
      clockTolerance: 5,
    })
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('Token has no subject')
    return payload as JWTPayload & { sub: string }
  }
}
