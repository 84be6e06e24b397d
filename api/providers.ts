import type { JSONWebKeySet } from 'jose'
import { builtinChat, type ChatProvider } from './providers/chat/provider.ts'
import { createStreamChat } from './providers/chat/stream.ts'
import type { DB } from './db/database.ts'
import type { Env } from './env.ts'
import type { SmtpOptions } from './providers/email/smtp.ts'
import {
  createAuth0TokenVerifier,
  createBuiltinTokenVerifier,
  type TokenVerifier,
} from './providers/identity/token-verifier.ts'
import { createBuiltinPlacesProvider } from './providers/maps/builtin.ts'
import { createGoogleMapsProvider, type GoogleMapsProvider } from './providers/maps/google.ts'
import type { PlacesProvider } from './providers/maps/provider.ts'
import { createLocalStorage } from './providers/storage/local.ts'
import { createS3Storage } from './providers/storage/s3.ts'
import type { MediaStorage } from './providers/storage/storage.ts'
import { createBuiltinPayments } from './providers/payments/builtin.ts'
import type { PaymentsProvider } from './providers/payments/provider.ts'
import { createStripePayments } from './providers/payments/stripe.ts'
import { createPhotoVault } from './providers/verification/builtin.ts'
import type { VerificationProvider } from './providers/verification/provider.ts'
import { createStripeIdentity } from './providers/verification/stripe.ts'
import { loadVerificationKey } from './secrets.ts'
import { PostgresFlagProvider, type FlagProvider } from './flags/provider.ts'
import { GrowthBookFlagProvider, type FlagLogger } from './providers/flags/growthbook.ts'
import type { AnalyticsVendor } from './providers/analytics/provider.ts'
import { createSegmentAnalytics } from './providers/analytics/segment.ts'
import type { Logger } from './logger.ts'

/**
 * The one place that picks each outside service's implementation from the environment
 * (ARCHITECTURE §4, decision 013). Each service lives in `api/providers/<service>/`: its
 * interface, its built-in default and its vendor adapter. Nothing else reads these variables.
 */
export interface Providers {
  places: PlacesProvider
  media: MediaStorage
  /** Identity verification (decision 025); a test harness may leave it out (built-in, key in the secrets table). */
  verification?: VerificationProvider
  /** Chat (decision 036): built-in, or Stream mirrored from it; a test harness may leave it out (built-in). */
  chat?: ChatProvider
  /** Payments (decision 073): built-in, or Stripe; a test harness may leave it out (built-in). */
  payments?: PaymentsProvider
}

/** The providers the API's routes use: maps/places, media storage, identity verification and chat. */
export function createProviders(env: Env, db: DB): Providers & Required<Pick<Providers, 'payments'>> {
  const media = createMediaStorage(env)
  return {
    places: createPlacesProvider({ db, googleMapsApiKey: env.GOOGLE_MAPS_API_KEY }),
    media,
    verification: createVerificationProvider({ env, db, storage: media }),
    chat: createChatProvider(env, db),
    payments: createPaymentsProvider({ env, db }),
  }
}

/**
 * Analytics (decision 081): every event is recorded first-party in PostgreSQL; Segment also
 * receives those consented to when SEGMENT_WRITE_KEY is set. Null: nothing leaves the server.
 */
export function createAnalyticsVendor(env: Pick<Env, 'SEGMENT_WRITE_KEY' | 'SEGMENT_API_URL'>, logger?: Logger): AnalyticsVendor | null {
  if (!env.SEGMENT_WRITE_KEY) return null
  return createSegmentAnalytics({ writeKey: env.SEGMENT_WRITE_KEY, baseUrl: env.SEGMENT_API_URL, logger })
}

/**
 * Payments: Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set, else the built-in
 * vault, hosted card page and test-card bank (decision 073).
 */
export function createPaymentsProvider(options: {
  env: Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'PUBLIC_URL'>
  db: DB
  fetch?: typeof fetch
}): PaymentsProvider {
  const { env } = options
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) {
    return createStripePayments({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, fetch: options.fetch })
  }
  return createBuiltinPayments({ db: options.db, publicUrl: env.PUBLIC_URL })
}

/**
 * Chat: Stream when STREAM_API_KEY and STREAM_API_SECRET are set (mirrored from the built-in
 * tables, which stay the source of truth), else the built-in service alone (decision 036).
 */
export function createChatProvider(env: Pick<Env, 'STREAM_API_KEY' | 'STREAM_API_SECRET' | 'STREAM_BASE_URL'>, db: DB): ChatProvider {
  if (!env.STREAM_API_KEY || !env.STREAM_API_SECRET) return builtinChat
  return createStreamChat({ apiKey: env.STREAM_API_KEY, apiSecret: env.STREAM_API_SECRET, baseUrl: env.STREAM_BASE_URL, db })
}

/**
 * ID verification: Stripe Identity when STRIPE_SECRET_KEY and STRIPE_IDENTITY_WEBHOOK_SECRET are
 * set, else the built-in check (two photos reviewed by an admin). Either way the built-in
 * photos are encrypted with VERIFICATION_ENCRYPTION_KEY, or a key kept in the secrets table.
 */
export function createVerificationProvider(options: {
  env: Pick<Env, 'VERIFICATION_ENCRYPTION_KEY' | 'STRIPE_SECRET_KEY' | 'STRIPE_IDENTITY_WEBHOOK_SECRET'>
  db: DB
  storage: MediaStorage
  fetch?: typeof fetch
}): VerificationProvider {
  const { env } = options
  const vault = createPhotoVault(options.storage, () => loadVerificationKey(options.db, env.VERIFICATION_ENCRYPTION_KEY))
  const stripe =
    env.STRIPE_SECRET_KEY && env.STRIPE_IDENTITY_WEBHOOK_SECRET
      ? createStripeIdentity({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_IDENTITY_WEBHOOK_SECRET, fetch: options.fetch })
      : null
  return { name: stripe ? 'stripe' : 'builtin', vault, stripe }
}

export interface PlacesProviderOptions {
  db: DB
  /** GOOGLE_MAPS_API_KEY: Google Places and Static Maps when set, the built-in gazetteer otherwise. */
  googleMapsApiKey?: string | undefined
  fetch?: typeof fetch
}

/** Maps: Google Maps Platform when a key is set (the gazetteer answers what Google cannot), else built-in. */
export function createPlacesProvider(options: PlacesProviderOptions): PlacesProvider | GoogleMapsProvider {
  const builtin = createBuiltinPlacesProvider(options.db)
  if (!options.googleMapsApiKey) return builtin
  return createGoogleMapsProvider({
    apiKey: options.googleMapsApiKey,
    fetch: options.fetch,
    fallback: builtin,
  })
}

export interface MediaStorageOptions {
  /** Directory for local storage; `.data/media` when unset. */
  MEDIA_DIR?: string
  S3_ENDPOINT?: string
  S3_BUCKET?: string
  S3_REGION?: string
  S3_ACCESS_KEY_ID?: string
  S3_SECRET_ACCESS_KEY?: string
  S3_PUBLIC_URL?: string
}

/** Storage: S3 when a bucket is configured (endpoint, bucket and both keys set together), local disk otherwise. */
export function createMediaStorage(options: MediaStorageOptions = {}): MediaStorage {
  const s3 = [
    options.S3_ENDPOINT,
    options.S3_BUCKET,
    options.S3_ACCESS_KEY_ID,
    options.S3_SECRET_ACCESS_KEY,
  ]
  const configured = s3.filter(Boolean).length
  if (configured === 0) return createLocalStorage(options.MEDIA_DIR)
  if (configured < s3.length) {
    throw new Error(
      'S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    )
  }
  return createS3Storage({
    endpoint: options.S3_ENDPOINT!,
    bucket: options.S3_BUCKET!,
    region: options.S3_REGION ?? 'us-east-1',
    accessKeyId: options.S3_ACCESS_KEY_ID!,
    secretAccessKey: options.S3_SECRET_ACCESS_KEY!,
    publicBaseUrl: options.S3_PUBLIC_URL,
  })
}

/**
 * Feature flags (decisions 079, 080): the built-in provider over `feature_flags`, or with
 * FLAGS_PROVIDER=growthbook GrowthBook's definitions, evaluated here; their first fetch starts now,
 * so the first question finds them (or waits for them briefly) instead of answering defaults.
 */
export function createFlagProvider(
  env: Pick<Env, 'FLAGS_PROVIDER' | 'GROWTHBOOK_API_HOST' | 'GROWTHBOOK_CLIENT_KEY' | 'GROWTHBOOK_DECRYPTION_KEY' | 'FLAGS_REFRESH_SECONDS'>,
  db: DB,
  options: { logger?: FlagLogger; fetch?: typeof fetch } = {},
): FlagProvider {
  if (env.FLAGS_PROVIDER !== 'growthbook') return new PostgresFlagProvider(db)
  const provider = new GrowthBookFlagProvider({
    apiHost: env.GROWTHBOOK_API_HOST!,
    clientKey: env.GROWTHBOOK_CLIENT_KEY!,
    decryptionKey: env.GROWTHBOOK_DECRYPTION_KEY,
    refreshMs: env.FLAGS_REFRESH_SECONDS * 1000,
    ...options,
  })
  void provider.refresh()
  return provider
}

/** Email: SMTP when SMTP_URL is set; otherwise mail stays in the outbox (shown at /dev/outbox). */
export function smtpOptions(env: Env): SmtpOptions | undefined {
  return env.SMTP_URL ? { url: env.SMTP_URL, from: env.MAIL_FROM } : undefined
}

/**
 * Identity, for the API's token checks: Auth0 when its variables are set, else the built-in
 * provider. `localJwks` is the built-in provider's public keys when this process holds them
 * (it serves the provider); without them its published JWKS is fetched.
 */
export function createTokenVerifierFor(env: Env, options: { localJwks?: JSONWebKeySet | undefined } = {}): TokenVerifier {
  if (env.auth === 'auth0') return createAuth0TokenVerifier({ domain: env.AUTH0_DOMAIN!, audience: env.API_AUDIENCE })
  return createBuiltinTokenVerifier({ publicUrl: env.PUBLIC_URL, audience: env.API_AUDIENCE, localJwks: options.localJwks })
}
