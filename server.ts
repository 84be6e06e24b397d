import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { getRequestListener } from '@hono/node-server'
import { createRequestHandler } from '@remix-run/express'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import { createApiApp } from '#api/app.ts'
import { pingDatabase } from '#api/db/database.ts'
import { ConfigError, getEnv, type Env } from '#api/env.ts'
import { limitWebBodies } from '#api/http/body-limit.ts'
import { refuseControlCharactersInAddress } from '#api/http/control-characters.ts'
import { redirectToCanonicalHost, refuseMalformedHost } from '#api/http/host-header.ts'
import { isApiPath, refuseCrossSite, rateLimits, requestContext, securityHeaders } from '#api/http/security.ts'
import { createIdentityProvider, identityRoutes } from '#api/identity/provider.ts'
import { streamBrowserOrigins } from '#api/providers/chat/stream.ts'
import { helpChatSources, helpChatVendor } from '#api/providers/help-chat/help-chat.ts'
import { createLogger } from '#api/logger.ts'
import { createApiRuntime } from '#api/runtime.ts'
import { createSessionStore } from '#api/web-sessions.ts'
import type { RequestContext, WebServices } from '#app/utils/load-context.ts'

/**
 * One Node process: the Remix web app, the product API under /api (unless API_BASE_URL points
 * elsewhere) and the built-in identity provider under /oidc, on PostgreSQL (embedded by default).
 */
const root = path.dirname(fileURLToPath(import.meta.url))
const dev = process.argv.includes('--dev')

export async function startServer(options: { env?: Env; port?: number; quiet?: boolean } = {}) {
  const env = options.env ?? getEnv()
  const logger = createLogger(env)
  // The database, jobs, providers, mailer and token checks (api/runtime.ts); this host adds HTTP.
  const runtime = await createApiRuntime(env, {
    logger,
    servesApi: !env.API_BASE_URL,
    servesIdentity: env.auth === 'builtin',
  })
  const { db, secrets, mailer, reportError } = runtime
  const identity =
    env.auth === 'builtin' ? createIdentityProvider({ env, db, mailer, secrets }) : null
  const api = env.API_BASE_URL ? null : createApiApp(runtime.services)

  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', env.TRUST_PROXY)
  app.use(requestContext(logger))
  app.use(compression())
  app.use(
    securityHeaders({
      production: env.isProduction,
      dev,
      // The sign-in form posts on to Auth0; starting ID verification redirects to Stripe Identity (decision 025).
      formActions: [...(env.auth === 'auth0' ? [`https://${env.AUTH0_DOMAIN}`] : []), ...(env.STRIPE_SECRET_KEY ? ['https://verify.stripe.com'] : [])],
      // Browser errors go to Sentry's ingest host (app/utils/error-reporting.client.ts); /messenger's
      // Stream client talks to Stream over HTTPS and a WebSocket (decision 036).
      connectSources: [
        ...(env.SENTRY_DSN ? [new URL(env.SENTRY_DSN).origin] : []),
        ...(env.STREAM_API_KEY && env.STREAM_API_SECRET ? streamBrowserOrigins(env.STREAM_BASE_URL) : []),
        // Segment's browser library (decision 081): its settings from the CDN, its events to the API.
        ...(env.SEGMENT_WRITE_KEY ? ['https://cdn.segment.com', new URL(env.SEGMENT_API_URL).origin] : []),
      ],
      // The help chat's vendor widget, loaded when a member presses Help (decision 083).
      helpChat: helpChatSources(helpChatVendor(env)),
    }),
  )
  app.use(refuseMalformedHost(logger))
  // A page address with NUL or another control character: a 400 page (the API answers its own, decision 066).
  app.use(refuseControlCharactersInAddress(logger))
  app.use(redirectToCanonicalHost(env.PUBLIC_URL))
  app.use(refuseCrossSite([new URL(env.PUBLIC_URL).origin]))
  app.use(
    asyncHandler(
      rateLimits({
        db,
        general: { name: 'general', max: env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
        writes: { name: 'writes', max: 120, windowSeconds: 60 },
        auth: { name: 'auth', max: 20, windowSeconds: 300 },
        isAuthPath: (req) => req.path.startsWith('/identity') || req.path === '/oidc/auth',
      }),
    ),
  )

  app.get(
    '/healthz',
    asyncHandler(async (_req, res) => {
      // Its own short deadline: 'ok' only when the database really answered (a frozen one
      // accepts connections and never replies).
      if (await pingDatabase(db)) res.json({ status: 'ok', database: 'ok' })
      else res.status(503).json({ status: 'unavailable', database: 'unreachable' })
    }),
  )

  if (api) {
    const listener = getRequestListener(api.fetch)
    app.use((req, res, next) => {
      if (!isApiPath(req.path)) return next()
      void listener(req, res)
    })
  }
  // Every body the API does not take is limited here, before Remix or the identity provider reads it.
  app.use(limitWebBodies(logger))
  if (identity) app.use(identityRoutes(identity.provider))

  const services: WebServices = {
    config: {
      publicUrl: env.PUBLIC_URL,
      apiBaseUrl: env.API_BASE_URL ?? `${env.PUBLIC_URL}/api/`,
      isProduction: env.isProduction,
      secureCookies:
        env.PUBLIC_URL.startsWith('https://') || new URL(env.PUBLIC_URL).hostname === 'localhost',
      sessionSecret: secrets.sessionSecret,
      supportEmail: env.SUPPORT_EMAIL,
      links: env.outsideLinks,
      devOutbox: env.DEV_OUTBOX,
      sentryDsn: env.SENTRY_DSN ?? null,
      payments: env.PAYMENTS === 'on',
      segmentWriteKey: env.SEGMENT_WRITE_KEY ?? null,
      stream: env.STREAM_API_KEY && env.STREAM_API_SECRET ? { apiKey: env.STREAM_API_KEY, baseUrl: env.STREAM_BASE_URL } : null,
      auth:
        env.auth === 'builtin'
          ? {
              kind: 'builtin',
              issuer: identity!.issuer,
              clientId: 'circle55-web',
              clientSecret: secrets.oidcClientSecret,
              audience: env.API_AUDIENCE,
            }
          : {
              kind: 'auth0',
              domain: env.AUTH0_DOMAIN!,
              clientId: env.AUTH0_CLIENT_ID!,
              clientSecret: env.AUTH0_CLIENT_SECRET!,
              audience: env.API_AUDIENCE,
            },
    },
    apiFetch: api ? async (request) => api.fetch(request) : (request) => fetch(request),
    locate: (address) => runtime.ipLocator.locate(address),
    sessions: createSessionStore(db),
    identity: identity?.bridge ?? null,
    outbox: env.DEV_OUTBOX === 'off' ? null : (limit, filter) => runtime.outbox.read(limit, filter),
    smsOutbox: env.DEV_OUTBOX === 'off' ? null : (limit) => runtime.smsOutbox.read(limit),
    reportError,
    analytics: runtime.analytics,
    log: (level, message, data) => logger[level](data ?? {}, message),
  }

  let build: ServerBuild | (() => Promise<ServerBuild>)
  if (dev) {
    const vite = await import('vite').then((m) =>
      m.createServer({ server: { middlewareMode: true } }),
    )
    app.use(vite.middlewares)
    build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  } else {
    const buildPath = path.join(root, 'build/server/index.js')
    if (!existsSync(buildPath))
      throw new ConfigError(
        'No production build found: run `npm run build` first (npm start does it for you).',
      )
    build = (await import(pathToFileURL(buildPath).href)) as ServerBuild
    app.use(
      '/assets',
      express.static(path.join(root, 'build/client/assets'), {
        immutable: true,
        maxAge: '1y',
        index: false,
      }),
    )
    app.use(express.static(path.join(root, 'build/client'), { maxAge: '1h', index: false }))
  }

  const remixHandler = createRequestHandler({
    build,
    mode: dev ? 'development' : 'production',
    getLoadContext: (req, res) => {
      const context: RequestContext = {
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        clientAddress: req.ip ?? '',
        peerAddress: req.socket.remoteAddress ?? '',
        services,
      }
      return context as unknown as AppLoadContext
    },
  })
  app.all('*', asyncHandler(remixHandler))

  app.use(
    (error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
      logger.error(
        { err: error, requestId: res.locals.requestId, path: req.path },
        'Unhandled error',
      )
      reportError(error, { requestId: res.locals.requestId })
      if (res.headersSent) return res.end()
      res
        .status(500)
        .type('text/plain')
        .send('Something went wrong. An unknown error has occurred and our team has been notified.')
    },
  )

  const port = options.port ?? env.PORT
  const server: Server = await new Promise((resolve) => {
    const listening = env.HOST
      ? app.listen(port, env.HOST, () => resolve(listening))
      : app.listen(port, () => resolve(listening))
  })
  server.keepAliveTimeout = 65_000

  async function close() {
    logger.info('Shutting down: draining requests')
    // Live chat streams never finish by themselves: end them now, their browsers reconnect
    // (to another instance) with Last-Event-ID and miss nothing.
    await runtime.realtime.close()
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.closeAllConnections()
        resolve()
      }, 10_000)
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      server.closeIdleConnections()
    })
    await runtime.close()
    logger.info('Stopped')
  }
  return { server, close, env, logger, db }
}

/** Express 4 does not await handlers: route a rejected promise to the error handler. */
function asyncHandler(
  handler: (
    req: express.Request,
    res: express.Response,
    next: express.NextFunction,
  ) => Promise<unknown>,
): express.RequestHandler {
  return (req, res, next) => {
    handler(req, res, next).catch(next)
  }
}

/** Starts the server and prints where to go; stops cleanly on SIGTERM/SIGINT. */
export async function main() {
  let started: Awaited<ReturnType<typeof startServer>>
  try {
    started = await startServer()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const { env, close } = started
  const address = started.server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  const url = env.PUBLIC_URL.includes(`:${env.PORT}`)
    ? env.PUBLIC_URL.replace(`:${env.PORT}`, `:${port}`)
    : env.PUBLIC_URL
  console.log(
    [
      '',
      `  Circle 55 is running at ${url}`,
      env.SEED_DEMO_DATA
        ? '  Sign in with member@demo.test, host@demo.test or admin@demo.test (password: demo-password-55);\n  the team: moderator@demo.test, support@demo.test, finance@demo.test.'
        : '',
      {
        loopback: `  Development outbox (every email, sign-in codes included): ${url}/dev/outbox, for browsers on this machine only`,
        open: `  Development outbox (every email, sign-in codes included): ${url}/dev/outbox, open to ANYONE who can reach this server (DEV_OUTBOX=open)`,
        off: '',
      }[env.DEV_OUTBOX],
      '',
    ]
      .filter((line, index) => line !== '' || index === 0)
      .join('\n'),
  )
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    started.logger.info({ signal }, 'Signal received')
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGHUP', () => stop('SIGHUP'))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
