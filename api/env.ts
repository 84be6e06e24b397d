import { z } from 'zod'
import { defaultOutsideLinks, isOutsideLinkTarget, outsideLinkNames, outsideLinkVariables, type OutsideLinks } from '#contract/outside-links.ts'

/**
 * Configuration, parsed once at boot. Every module reads this frozen object, never
 * `process.env`. A bad or missing variable stops the process with a message naming it.
 * `.env.example` documents each variable and which built-in serves when it is unset.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const optionalUrl = z.url().optional()
const optionalString = z.string().min(1).optional()
/** An outside link of spec §2 (decision 088): an http(s) URL or a path of this site. */
const outsideLink = z.string().refine(isOutsideLinkTarget, 'must be an http(s) URL or a path of this site starting with /').optional()

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: optionalString,
  PUBLIC_URL: optionalUrl,
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: optionalUrl,
  EMBEDDED_PG_DIR: optionalString,
  // A frozen or unreachable database fails requests within these, instead of holding them for
  // the whole outage (docs/decisions/006-database-timeouts.md). 0 turns a timeout off.
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  // Statements run often are prepared once per connection (docs/decisions/054-prepared-statements.md).
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  SEED_DEMO_DATA: bool.optional(),

  API_BASE_URL: optionalUrl,
  API_AUDIENCE: optionalString,

  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  OIDC_COOKIE_KEYS: optionalString,
  OIDC_JWKS: optionalString,
  OIDC_CLIENT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),

  AUTH0_DOMAIN: optionalString,
  AUTH0_CLIENT_ID: optionalString,
  AUTH0_CLIENT_SECRET: optionalString,
  AUTH0_AUDIENCE: optionalString,

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default('Circle 55 <hello@circle55.example>'),
  SUPPORT_EMAIL: z.email().default('help@circle55.example'),
  DEV_OUTBOX: z.enum(['open', 'loopback', 'off']).optional(),

  SENTRY_DSN: optionalUrl,
  // Analytics (decision 081): recorded first-party always; also sent to Segment when its source's write key is set.
  SEGMENT_WRITE_KEY: optionalString,
  /** Segment's tracking API; its default is Segment's US endpoint (an EU workspace: `https://events.eu1.segmentapis.com`). */
  SEGMENT_API_URL: z.url().default('https://api.segment.io'),

  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),

  GOOGLE_MAPS_API_KEY: optionalString,

  MEDIA_DIR: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalUrl,
  // Identity verification (decision 025): the photos' key, and Stripe Identity when both are set.
  VERIFICATION_ENCRYPTION_KEY: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'must be 32 bytes as 64 hex digits or base64')
    .optional(),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_IDENTITY_WEBHOOK_SECRET: optionalString,
  // Payments (decision 073): Stripe when STRIPE_SECRET_KEY and this are set, the built-in provider otherwise.
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** `off`: no page offers or threatens a charge (no cards, fees or paid plans). */
  PAYMENTS: z.enum(['on', 'off']).default('on'),
  // Chat (decision 036): Stream when both are set, the built-in chat service otherwise.
  STREAM_API_KEY: optionalString,
  STREAM_API_SECRET: optionalString,
  /** Stream's REST base URL; its default is Stream's global edge. Tests and self-hosted proxies set it. */
  STREAM_BASE_URL: z.url().default('https://chat.stream-io-api.com'),
  // Feature flags (decisions 079, 080): the built-in provider (PostgreSQL, edited at /admin/flags), or
  // GrowthBook: its SDK connection's definitions fetched from GROWTHBOOK_API_HOST, evaluated here.
  FLAGS_PROVIDER: z.enum(['builtin', 'growthbook']).default('builtin'),
  /** GrowthBook's SDK endpoint host: https://cdn.growthbook.io (Cloud), a self-hosted API or its proxy. */
  GROWTHBOOK_API_HOST: optionalUrl,
  /** The SDK connection's client key (`sdk-…`). */
  GROWTHBOOK_CLIENT_KEY: optionalString,
  /** The SDK connection's decryption key, when it encrypts its payload. */
  GROWTHBOOK_DECRYPTION_KEY: optionalString,
  /** How old GrowthBook's definitions may get before they are fetched again (kept while it cannot be reached). */
  FLAGS_REFRESH_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Web push (decision 048): the VAPID key pair (base64url, P-256) set together, else generated once and kept.
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (65 bytes)').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (32 bytes)').optional(),
  /** Who push services may contact about our pushes: a `mailto:` or https URL; default PUBLIC_URL when it is https, else `mailto:` SUPPORT_EMAIL. */
  VAPID_SUBJECT: z.string().regex(/^(?:mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https: URL').optional(),
  // Text messages (decision 049): Twilio when the sid and token are set, the outbox otherwise.
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM_NUMBER: optionalString,
  TWILIO_MESSAGING_SERVICE_SID: optionalString,
  // The help chat's vendor widget (decision 083): Chatwoot when its three are set, Intercom when its two are; the built-in help chat otherwise.
  CHATWOOT_BASE_URL: optionalUrl,
  CHATWOOT_WEBSITE_TOKEN: optionalString,
  /** The website inbox's HMAC token (identity validation): signs each member's `identifier_hash`. */
  CHATWOOT_HMAC_TOKEN: optionalString,
  INTERCOM_APP_ID: optionalString,
  /** The Messenger security secret: signs each member's JWT. */
  INTERCOM_IDENTITY_SECRET: optionalString,
  // Spec §2's outside links (decision 088): unset, the default (contract/outside-links.ts); set but empty, the link is not shown.
  BLOG_URL: outsideLink,
  HELP_CENTER_URL: outsideLink,
  HOSTS_PROGRAM_URL: outsideLink,
  MARKETING_SITE_URL: outsideLink,
  BADGE_INFO_URL: outsideLink,
  APP_STORE_URL: outsideLink,
})

export type Env = Readonly<
  Omit<z.infer<typeof envSchema>, 'PUBLIC_URL' | 'SEED_DEMO_DATA' | 'API_AUDIENCE' | 'DEV_OUTBOX'> & {
    PUBLIC_URL: string
    SEED_DEMO_DATA: boolean
    /** Who may read /dev/outbox: always `off` in production. */
    DEV_OUTBOX: 'open' | 'loopback' | 'off'
    API_AUDIENCE: string
    isProduction: boolean
    auth: 'builtin' | 'auth0'
    /** The outside links the web shows (decision 088): each address, or null when it is not shown. */
    outsideLinks: OutsideLinks
  }
>

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  // Empty strings in .env files mean "unset" (but an empty outside link means "not shown": outsideLinksFrom).
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  )
  const result = envSchema.safeParse(cleaned)
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    )
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const raw = result.data
  const isProduction = raw.NODE_ENV === 'production'
  const auth0Vars = [raw.AUTH0_DOMAIN, raw.AUTH0_CLIENT_ID, raw.AUTH0_CLIENT_SECRET]
  const auth0Count = auth0Vars.filter(Boolean).length
  if (auth0Count > 0 && auth0Count < 3) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH0_DOMAIN, AUTH0_CLIENT_ID and AUTH0_CLIENT_SECRET must be set together',
    )
  }
  const auth = auth0Count === 3 ? 'auth0' : 'builtin'
  const s3Vars = [raw.S3_ENDPOINT, raw.S3_BUCKET, raw.S3_ACCESS_KEY_ID, raw.S3_SECRET_ACCESS_KEY]
  const s3Count = s3Vars.filter(Boolean).length
  if (s3Count > 0 && s3Count < 4) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    )
  }
  // Stripe's key goes with the signing secret of at least one of its webhooks (Identity, payments), and each secret with the key.
  if (Boolean(raw.STRIPE_SECRET_KEY) !== Boolean(raw.STRIPE_IDENTITY_WEBHOOK_SECRET || raw.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY must be set together with STRIPE_WEBHOOK_SECRET (payments), STRIPE_IDENTITY_WEBHOOK_SECRET (ID verification) or both',
    )
  }
  if (Boolean(raw.VAPID_PUBLIC_KEY) !== Boolean(raw.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together')
  }
  if (raw.FLAGS_PROVIDER === 'growthbook' && !(raw.GROWTHBOOK_API_HOST && raw.GROWTHBOOK_CLIENT_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  FLAGS_PROVIDER=growthbook needs GROWTHBOOK_API_HOST (https://cdn.growthbook.io, or your GrowthBook API or proxy) and GROWTHBOOK_CLIENT_KEY (the SDK connection’s key, sdk-…)',
    )
  }
  if (Boolean(raw.STREAM_API_KEY) !== Boolean(raw.STREAM_API_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  STREAM_API_KEY and STREAM_API_SECRET must be set together')
  }
  if (Boolean(raw.TWILIO_ACCOUNT_SID) !== Boolean(raw.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration:\n  TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set together')
  }
  if (raw.TWILIO_ACCOUNT_SID && !raw.TWILIO_FROM_NUMBER && !raw.TWILIO_MESSAGING_SERVICE_SID) {
    throw new ConfigError('Invalid configuration:\n  TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID is required with TWILIO_ACCOUNT_SID')
  }
  const chatwootCount = [raw.CHATWOOT_BASE_URL, raw.CHATWOOT_WEBSITE_TOKEN, raw.CHATWOOT_HMAC_TOKEN].filter(Boolean).length
  if (chatwootCount > 0 && chatwootCount < 3) {
    throw new ConfigError('Invalid configuration:\n  CHATWOOT_BASE_URL, CHATWOOT_WEBSITE_TOKEN and CHATWOOT_HMAC_TOKEN must be set together')
  }
  if (Boolean(raw.INTERCOM_APP_ID) !== Boolean(raw.INTERCOM_IDENTITY_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  INTERCOM_APP_ID and INTERCOM_IDENTITY_SECRET must be set together')
  }
  if (chatwootCount === 3 && raw.INTERCOM_APP_ID) {
    throw new ConfigError('Invalid configuration:\n  CHATWOOT_* and INTERCOM_*: choose one help-chat vendor')
  }
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '')
  const seed = raw.SEED_DEMO_DATA ?? !isProduction

  if (isProduction) {
    const missing: string[] = []
    if (!raw.SESSION_SECRET) missing.push('SESSION_SECRET: required in production')
    if (!raw.PUBLIC_URL) missing.push('PUBLIC_URL: required in production')
    if (!raw.SMTP_URL) missing.push('SMTP_URL: required in production (the dev outbox is off)')
    if (seed) missing.push('SEED_DEMO_DATA: demo data is never loaded in production')
    if (raw.DEV_OUTBOX && raw.DEV_OUTBOX !== 'off') missing.push('DEV_OUTBOX: the development outbox is never served in production')
    if (raw.PAYMENTS === 'on' && !(raw.STRIPE_SECRET_KEY && raw.STRIPE_WEBHOOK_SECRET)) {
      missing.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: required in production while PAYMENTS is on (the built-in bank takes only test cards)')
    }
    if (auth === 'builtin') {
      if (!raw.OIDC_COOKIE_KEYS) missing.push('OIDC_COOKIE_KEYS: required in production')
      if (!raw.OIDC_JWKS) missing.push('OIDC_JWKS: required in production')
      if (!raw.OIDC_CLIENT_SECRET) missing.push('OIDC_CLIENT_SECRET: required in production')
    }
    if (missing.length > 0) {
      throw new ConfigError(`Refusing to start in production:\n  ${missing.join('\n  ')}`)
    }
  }

  return Object.freeze({
    ...raw,
    PUBLIC_URL: publicUrl,
    SEED_DEMO_DATA: seed,
    DEV_OUTBOX: isProduction ? 'off' : (raw.DEV_OUTBOX ?? 'loopback'),
    API_AUDIENCE:
      raw.API_AUDIENCE ?? (auth === 'auth0' ? (raw.AUTH0_AUDIENCE ?? `${publicUrl}/api/`) : `${publicUrl}/api/`),
    isProduction,
    auth,
    outsideLinks: outsideLinksFrom(source, raw),
  })
}

/**
 * Each outside link: its variable's address; its default when the variable is unset; none when
 * it is set but empty. The one place an empty value is not "unset": it is how a link is hidden.
 */
function outsideLinksFrom(source: NodeJS.ProcessEnv, raw: z.infer<typeof envSchema>): OutsideLinks {
  return Object.fromEntries(
    outsideLinkNames.map((name) => {
      const variable = outsideLinkVariables[name]
      const value = source[variable] === '' ? null : (raw[variable] ?? defaultOutsideLinks[name])
      return [name, value]
    }),
  ) as OutsideLinks
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

let current: Env | undefined

/** The process-wide configuration. Parsed on first use; `setEnv` replaces it in tests. */
export function getEnv(): Env {
  current ??= parseEnv(process.env)
  return current
}

export function setEnv(env: Env) {
  current = env
}
