import { randomBytes } from 'node:crypto'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import webPush from 'web-push'
import type { DB } from './db/database.ts'
import type { Env } from './env.ts'

/**
 * Secrets: from the environment in production (required there, see env.ts); outside production
 * generated on first start and kept in the database so restarts and several instances agree.
 */
async function stored<T>(db: DB, name: string, create: () => Promise<T> | T): Promise<T> {
  const existing = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirst()
  if (existing) return existing.value as T
  const value = await create()
  await db
    .insertInto('app_secrets')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const winner = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return winner.value as T
}

const randomSecret = () => randomBytes(32).toString('base64url')

export interface Secrets {
  sessionSecret: string
  oidcCookieKeys: string[]
  oidcJwks: { keys: JWK[] }
  oidcClientSecret: string
  codeSecret: string
}

export async function loadSecrets(db: DB, env: Env): Promise<Secrets> {
  return {
    sessionSecret: env.SESSION_SECRET ?? (await stored(db, 'session_secret', randomSecret)),
    oidcCookieKeys: env.OIDC_COOKIE_KEYS
      ? env.OIDC_COOKIE_KEYS.split(',').map((key) => key.trim())
      : await stored(db, 'oidc_cookie_keys', () => [randomSecret()]),
    oidcJwks: env.OIDC_JWKS
      ? (JSON.parse(env.OIDC_JWKS) as { keys: JWK[] })
      : await stored(db, 'oidc_jwks', async () => {
          const { privateKey } = await generateKeyPair('RS256', { extractable: true })
          const jwk = await exportJWK(privateKey)
          return { keys: [{ ...jwk, kid: randomSecret().slice(0, 16), alg: 'RS256', use: 'sig' }] }
        }),
    oidcClientSecret: env.OIDC_CLIENT_SECRET ?? (await stored(db, 'oidc_client_secret', randomSecret)),
    codeSecret: env.SESSION_SECRET ? `${env.SESSION_SECRET}:codes` : await stored(db, 'code_secret', randomSecret),
  }
}

/** The public half of the signing keys, for verifying tokens in-process. */
export function publicJwks(jwks: { keys: JWK[] }) {
  return {
    keys: jwks.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) =>
      Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined)),
    ),
  } as { keys: JWK[] }
}

/**
 * The key of the ID verification photos (decision 025): VERIFICATION_ENCRYPTION_KEY, or one
 * generated once and kept in the secrets table (so restarts and instances agree). Kept apart
 * from the photos themselves, which sit in the media storage.
 */
export async function loadVerificationKey(db: DB, configured: string | undefined): Promise<Buffer> {
  const value = configured ?? (await stored(db, 'verification_encryption_key', () => randomBytes(32).toString('base64')))
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64')
  if (key.byteLength !== 32) throw new Error('VERIFICATION_ENCRYPTION_KEY must be 32 bytes (64 hex digits or base64)')
  return key
}

/** The VAPID identity our pushes are signed with (RFC 8292): base64url P-256 keys and a contact. */
export interface VapidKeys {
  publicKey: string
  privateKey: string
  subject: string
}

/**
 * The web push keys (decision 048): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or a pair generated
 * once and kept in the secrets table, so restarts and instances sign alike and the browsers'
 * subscriptions (tied to the public key) stay valid. The subject is VAPID_SUBJECT, else
 * PUBLIC_URL when it is https, else `mailto:` SUPPORT_EMAIL.
 */
export async function loadVapidKeys(
  db: DB,
  env: Pick<Env, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'PUBLIC_URL' | 'SUPPORT_EMAIL'>,
): Promise<VapidKeys> {
  const pair =
    env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
      ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
      : await stored(db, 'vapid_keys', () => webPush.generateVAPIDKeys())
  const subject =
    env.VAPID_SUBJECT ?? (env.PUBLIC_URL.startsWith('https://') ? env.PUBLIC_URL : `mailto:${env.SUPPORT_EMAIL}`)
  return { publicKey: pair.publicKey, privateKey: pair.privateKey, subject }
}
