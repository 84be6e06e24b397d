import { serve } from '@hono/node-server'
import { createApiApp } from './app.ts'
import { ConfigError, getEnv } from './env.ts'
import { createApiRuntime } from './runtime.ts'

/**
 * The product API on its own (`node api/server.ts`), for when the web tier runs elsewhere and
 * points at it with API_BASE_URL. Same runtime as the combined server (api/runtime.ts): the
 * database, providers and the background jobs run here too. Tokens of the built-in provider are
 * checked against its published JWKS (it is served by the web tier).
 */
try {
  const env = getEnv()
  const runtime = await createApiRuntime(env, { servesApi: true, servesIdentity: false })
  const app = createApiApp(runtime.services)
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST })
  runtime.logger.info({ port: env.PORT }, 'API listening')
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    runtime.logger.info({ signal }, 'Signal received')
    // Live chat streams never finish by themselves: end them, or the server never closes.
    void runtime.realtime.close()
    server.close(() => {
      runtime.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error)
          process.exit(1)
        },
      )
    })
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
