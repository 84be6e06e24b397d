import { serve } from '@hono/node-server'
import { createApiApp } from './app.ts'
import { openDatabase } from './db/open.ts'
import { ConfigError, getEnv } from './env.ts'
import { createTokenVerifier } from './identity/token-verifier.ts'
import { createLogger } from './logger.ts'
import { ensureGazetteer } from './places/gazetteer.ts'
import { createProviders } from './providers.ts'

/**
 * The product API on its own (`node api/server.ts`), for when the web tier runs elsewhere and
 * points at it with API_BASE_URL. Tokens are checked against the issuer's published JWKS.
 */
try {
  const env = getEnv()
  const logger = createLogger(env)
  const database = await openDatabase(env, logger)
  const verifyToken =
    env.auth === 'auth0'
      ? createTokenVerifier({ issuer: `https://${env.AUTH0_DOMAIN}/`, audience: env.API_AUDIENCE, jwksUrl: `https://${env.AUTH0_DOMAIN}/.well-known/jwks.json` })
      : createTokenVerifier({ issuer: `${env.PUBLIC_URL}/oidc`, audience: env.API_AUDIENCE })
  await ensureGazetteer(database.db)
  const app = createApiApp({ env, db: database.db, logger, verifyToken, ...createProviders(env, database.db) })
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST })
  logger.info({ port: env.PORT }, 'API listening')
  process.on('SIGTERM', () => {
    server.close(() => void database.close().then(() => process.exit(0)))
  })
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
