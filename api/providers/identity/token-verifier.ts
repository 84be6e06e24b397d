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
  const verified = new Map<string, { payload: JWTPayload & { sub: string }; until: number }>()
  return async (token) => {
    // A token whose signature was checked moments ago is not checked again (one page asks the
    // API several times with the same token); only the signature: who the caller is, and
    // whether they are suspended, is read from the database on every request.
    const now = Date.now()
    const known = verified.get(token)
    if (known && known.until > now) return known.payload
    const { payload } = await jwtVerify(token, keys, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256', 'PS256', 'ES256'],
      clockTolerance: 5,
    })
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('Token has no subject')
    const subject = payload as JWTPayload & { sub: string }
    if (verified.size >= verifiedTokensKept) verified.clear()
    // Kept until the token expires, and at most a minute.
    verified.set(token, { payload: subject, until: Math.min(now + verifiedForMs, (payload.exp ?? 0) * 1000) })
    return subject
  }
}

/** How long a checked signature is trusted again, and how many are kept (then all are forgotten). */
const verifiedForMs = 59_000
const verifiedTokensKept = 10_000

/** The built-in provider (api/identity/) is the issuer under `/oidc` on PUBLIC_URL. */
export function builtinIssuer(publicUrl: string) {
  return `${publicUrl}/oidc`
}

/**
 * Tokens of the built-in provider: with its keys in hand (the same process or the same
 * database) no request is needed; otherwise the keys come from its published JWKS.
 */
export function createBuiltinTokenVerifier(options: { publicUrl: string; audience: string; localJwks?: JSONWebKeySet | undefined }): TokenVerifier {
  const issuer = builtinIssuer(options.publicUrl)
  return options.localJwks
    ? createTokenVerifier({ issuer, audience: options.audience, localJwks: options.localJwks })
    : createTokenVerifier({ issuer, audience: options.audience })
}

/** Tokens of an Auth0 tenant: issuer `https://<domain>/`, keys at its `/.well-known/jwks.json`. */
export function createAuth0TokenVerifier(options: { domain: string; audience: string }): TokenVerifier {
  return createTokenVerifier({
    issuer: `https://${options.domain}/`,
    audience: options.audience,
    jwksUrl: `https://${options.domain}/.well-known/jwks.json`,
  })
}
