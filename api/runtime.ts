import type { ApiServices } from './http/context.ts'
import type { DB } from './db/database.ts'
import { openDatabase, type OpenDatabase } from './db/open.ts'
import type { Env } from './env.ts'
import { initErrorReporting, type ReportError } from './error-reporting.ts'
import { startJobQueue, type JobQueue } from './jobs/queue.ts'
import { createLogger, type Logger } from './logger.ts'
import { deliveryJobServices, type DeliveryDeps } from './notifications/delivery.ts'
import { createNotifier, type Notify } from './notifications/service.ts'
import { createAnalyticsVendor, createFlagProvider, createProviders, createTokenVerifierFor, smtpOptions, type Providers } from './providers.ts'
import { setFlagProvider } from './flags/service.ts'
import { photoChecker } from './media/photo-check.ts'
import { createMailer, type Mailer } from './providers/email/mailer.ts'
import { readOutbox, type OutboxFilter } from './providers/email/outbox.ts'
import { createSmsSender, readSmsOutbox, type SmsSender } from './providers/sms/sender.ts'
import { twilioOptionsFrom } from './providers/sms/twilio.ts'
import type { TokenVerifier } from './providers/identity/token-verifier.ts'
import { ensureGazetteer } from './providers/maps/gazetteer.ts'
import { createIpLocator, type IpLocator } from './providers/maps/ip-location.ts'
import { createRealtimeHub, type RealtimeHub } from './realtime/hub.ts'
import { createChatMirror } from './chat/mirror.ts'
import { chatEventsFor } from './chat/queries.ts'
import { loadSecrets, loadVapidKeys, publicJwks, type Secrets } from './secrets.ts'
import { queuePush } from './notifications/push.ts'
import { jobs as registeredJobs, type RuntimeJobServices } from './jobs/registry.ts'
import { createAnalytics, type Analytics } from './analytics/service.ts'

/**
 * Everything the product API needs to run, built once from the environment (ARCHITECTURE §1,
 * decision 013): the database (opened, migrated, demo data outside production, the gazetteer),
 * secrets, providers, the realtime hub (decision 032), the job queue with every job of the registry
 * (api/jobs/registry.ts, decision 068: delivery, reminders, surveys, suggestions, the chat mirror,
 * ended suspensions, the cleanup), the mailer, `notify`, the token verifier and error reporting. The Express host (server.ts) and the API alone (api/server.ts) both start it, so
 * either runs the jobs; each adds only its HTTP server.
 */
export interface ApiRuntime {
  env: Env
  logger: Logger
  database: OpenDatabase
  db: DB
  secrets: Secrets
  providers: Providers
  ipLocator: IpLocator
  jobs: JobQueue
  mailer: Mailer
  /** Text messages to confirmed phones (decision 049): `sms.send(...)` from notification delivery. */
  sms: SmsSender
  notify: Notify
  verifyToken: TokenVerifier
  reportError: ReportError
  /** The realtime hub: one `LISTEN chat` connection, fanning chat events out to this instance's streams (decision 032). */
  realtime: RealtimeHub
  /** The newest emails, for the development outbox page (the host decides whether it is shown). */
  outbox: { read(limit: number, filter?: OutboxFilter): ReturnType<typeof readOutbox> }
  /** The newest texts, for the same page. */
  smsOutbox: { read(limit: number): ReturnType<typeof readSmsOutbox> }
  /** First-party analytics and the vendor (decision 081): the web host records page views and sign-ins with it. */
  analytics: Analytics
  /** What `createApiApp` takes. */
  services: ApiServices
  /** Ends the live streams and the LISTEN connection, stops the jobs (letting a running one finish) and closes the database; HTTP is the host's. */
  close(): Promise<void>
}

export interface ApiRuntimeOptions {
  logger?: Logger
  /**
   * Whether this process serves the API's routes (false for a web host that calls a remote
   * API_BASE_URL): only then is the places gazetteer made ready before the first request.
   */
  servesApi?: boolean
  /**
   * Whether this process serves the built-in identity provider: its tokens are then checked
   * with the keys in hand; otherwise (the API alone) with its published JWKS.
   */
  servesIdentity?: boolean
}

export async function createApiRuntime(env: Env, options: ApiRuntimeOptions = {}): Promise<ApiRuntime> {
  const logger = options.logger ?? createLogger(env)
  const database = await openDatabase(env, logger)
  const { db } = database
  let jobs: JobQueue | undefined
  let realtime: RealtimeHub | undefined
  try {
    if (env.SEED_DEMO_DATA) {
      const { seedDemoData } = await import('./db/seed.ts')
      const result = await seedDemoData(db, { log: (message: string) => logger.info(message) })
      if (result.seeded) logger.info('Demo data loaded')
    }

    const secrets = await loadSecrets(db, env)
    const reportError = await initErrorReporting(env, logger)
    jobs = await startJobQueue({ url: database.url, logger })
    const queue = jobs
    const smtp = smtpOptions(env)
    const mailer = createMailer({ db, smtp, queue, logger })
    const twilio = twilioOptionsFrom(env)
    const sms = createSmsSender({ db, twilio, queue, logger, production: env.isProduction })
    const delivery: DeliveryDeps = {
      db,
      queue,
      mailer,
      publicUrl: env.PUBLIC_URL,
      unsubscribeSecret: secrets.codeSecret,
      push: { queue: async (trx, userId, payload) => void (await queuePush(queue, trx, userId, payload)) },
      sms: { send: (message, options) => sms.send(message, options) },
    }
    const notify = createNotifier({ db, queue })

    const verifyToken = createTokenVerifierFor(env, {
      localJwks: options.servesIdentity && env.auth === 'builtin' ? publicJwks(secrets.oidcJwks) : undefined,
    })
    const providers = createProviders(env, db)
    // Feature flags from FLAGS_PROVIDER (decision 080), before anything asks one.
    setFlagProvider(db, createFlagProvider(env, db, { logger }))
    const analytics = createAnalytics({ db, vendor: createAnalyticsVendor(env, logger), logger, ownHost: new URL(env.PUBLIC_URL).hostname })
    const chatMirror = createChatMirror({ chat: providers.chat, jobs: queue })
    // Every job of the registry (api/jobs/registry.ts): queues defined, workers and schedules started.
    const jobServices: RuntimeJobServices = {
      ...deliveryJobServices(delivery),
      chatMirror,
      logger,
      jobs: queue,
      notify,
      storage: providers.media,
      chat: providers.chat,
      payments: providers.payments,
      smtp,
      twilio,
      vapid: await loadVapidKeys(db, env),
      production: env.isProduction,
    }
    await queue.start(registeredJobs, jobServices)
    if (options.servesApi !== false) {
      await ensureGazetteer(db)
      // The profile-photo check's models load in their worker thread meanwhile (decision 024).
      photoChecker.warmUp()
    }

    realtime = await createRealtimeHub({
      connectionString: database.url,
      logger,
      prepare: (events, memberIds) => chatEventsFor(db, providers.media, events, memberIds),
    })

    const hub = realtime
    return {
      env,
      logger,
      database,
      db,
      secrets,
      providers,
      ipLocator: createIpLocator(),
      jobs: queue,
      mailer,
      sms,
      notify,
      verifyToken,
      reportError,
      realtime: hub,
      outbox: { read: (limit, filter) => readOutbox(db, limit, filter) },
      smsOutbox: { read: (limit) => readSmsOutbox(db, limit) },
      analytics,
      services: { env, db, logger, verifyToken, notify, chatMirror, photoChecker, mailer, sms, codeSecret: secrets.codeSecret, realtime: hub, jobs: queue, reportError, analytics, ...providers },
      async close() {
        // Open streams end first (their clients reconnect elsewhere), then the LISTEN connection.
        await hub.close()
        await photoChecker.stop() // the profile-photo check's worker thread, if it started
        await analytics.close() // the vendor's queued events, sent before the process goes
        await queue.stop()
        await database.close()
      },
    }
  } catch (error) {
    // A start that fails half-way leaves nothing running (the embedded server above all).
    await realtime?.close().catch(() => undefined)
    await jobs?.stop().catch(() => undefined)
    await photoChecker.stop().catch(() => undefined)
    await database.close().catch(() => undefined)
    throw error
  }
}
