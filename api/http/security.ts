import { randomBytes } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import { withinDeadline } from '../deadline.ts'
import { problems } from './errors.ts'
import type { Logger } from '../logger.ts'
import { sendRefusal } from './refusal-page.ts'

/** Request id, CSP nonce and one structured log line per request. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id')
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID()
    res.locals.requestId = requestId
    res.locals.cspNonce = randomBytes(16).toString('base64')
    res.setHeader('x-request-id', requestId)
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const level = res.statusCode >= 500 ? 'error' : 'info'
      logger[level]({ requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, ip: req.ip }, 'request')
    })
    next()
  }
}

/** Security headers with an enforced, nonce-based CSP (QUALITY.md). */
export function securityHeaders(options: {
  production: boolean
  dev: boolean
  formActions: string[]
  connectSources?: string[]
  /** The help chat's vendor widget, when configured (api/providers/help-chat/help-chat.ts `helpChatSources`, decision 083). */
  helpChat?: { script: string[]; connect: string[]; frame: string[]; img: string[]; font: string[]; media: string[]; style: string[] }
}) {
  const vendor = options.helpChat ?? { script: [], connect: [], frame: [], img: [], font: [], media: [], style: [] }
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce as string}'`
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [...(options.dev ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce]), ...vendor.script],
        styleSrc: options.dev ? ["'self'", "'unsafe-inline'"] : ["'self'", ...vendor.style],
        imgSrc: ["'self'", 'data:', 'blob:', ...vendor.img],
        fontSrc: ["'self'", ...vendor.font],
        ...(vendor.frame.length > 0 ? { frameSrc: ["'self'", ...vendor.frame] } : {}),
        ...(vendor.media.length > 0 ? { mediaSrc: ["'self'", ...vendor.media] } : {}),
        // connectSources: where the browser may send to besides this site (Sentry's ingest host
        // when SENTRY_DSN is set: browser errors, decision 014).
        connectSrc: [...(options.dev ? ["'self'", 'ws:'] : ["'self'"]), ...(options.connectSources ?? []), ...vendor.connect],
        formAction: ["'self'", ...options.formActions],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        ...(options.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.production ? { maxAge: 63072000, includeSubDomains: true } : false,
    // The same answer as frame-ancestors 'none', for browsers that read only this header.
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xPoweredBy: false,
  })
}

/** /api/auth/* and /api/localize are web routes of spec §2; the rest of /api is the API. */
export function isApiPath(path: string) {
  return path.startsWith('/api/') && !path.startsWith('/api/auth/') && path !== '/api/localize'
}

/**
 * Paths that programs call with their own credentials and never with a browser's cookies: the
 * API (bearer tokens), the identity provider's token, revocation, introspection, userinfo and
 * pushed-authorization endpoints (the web app's client secret, an access token), and an email's
 * one-click unsubscribe, which mail programs POST to with the signed token in its path (decision
 * 058; what it does depends on that token alone, never on a cookie).
 */
export function isCalledWithoutCookies(path: string) {
  return isApiPath(path) || /^\/oidc\/(token|me|request)(\/|$)/.test(path) || /^\/unsubscribe\/[^/]+$/.test(path)
}

/**
 * Refuses state-changing requests from other sites (works without JavaScript, unlike tokens in
 * forms): a browser's `Sec-Fetch-Site` must be same-origin or none, and an `Origin` must be ours.
 * A request with neither (an old browser, or one told to leave them out) must come with a
 * `Referer` on this site, except on paths called without cookies, where there is nothing for
 * another site to borrow (docs/decisions/008).
 */
export function refuseCrossSite(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins)
  const sameOrigin = (url: string) => {
    try {
      return allowed.has(new URL(url).origin)
    } catch {
      return false
    }
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next()
    const site = req.get('sec-fetch-site')
    const origin = req.get('origin')
    const referer = req.get('referer')
    const crossSite =
      site === undefined && origin === undefined
        ? !isCalledWithoutCookies(req.path) && !(referer !== undefined && sameOrigin(referer))
        : (site !== undefined && site !== 'same-origin' && site !== 'none') || (origin !== undefined && !allowed.has(origin))
    if (crossSite) {
      sendRefusal(req, res, 403, 'crossSite').catch(next)
      return
    }
    next()
  }
}

export interface Limit {
  name: string
  max: number
  windowSeconds: number
}

/** The `rate_limits` row of `key` under `limit`. */
const counterKey = (limit: Limit, key: string) => `${limit.name}:${key}`

/**
 * Counts a hit (or `hits`) against a fixed-window limit in PostgreSQL (shared by every instance) and says
 * whether it went over. The count and the check are one statement, so parallel requests can
 * never all slip under the limit together.
 */
export async function countHit(db: DB, limit: Limit, key: string, hits = 1) {
  const row = await sql<{ count: number; window_start: Date }>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${counterKey(limit, key)}, now(), ${hits})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${limit.windowSeconds}) THEN ${hits} ELSE rate_limits.count + ${hits} END,
      window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${limit.windowSeconds}) THEN now() ELSE rate_limits.window_start END
    RETURNING count, window_start`.execute(db)
  const result = row.rows[0]!
  const retryAfter = Math.max(1, Math.ceil(limit.windowSeconds - (Date.now() - result.window_start.getTime()) / 1000))
  return { over: result.count > limit.max, retryAfter }
}

/** Counts `hits` against `limit` for `key`; one too many throws `refuse(seconds until the window ends)`. */
export async function requireWithinLimit(db: DB, limit: Limit, key: string, refuse: (retryAfterSeconds: number) => Error, hits = 1) {
  const { over, retryAfter } = await countHit(db, limit, key, hits)
  if (over) throw refuse(retryAfter)
}

/**
 * Counts one hit against each of several limits in one statement (one round trip on a busy path:
 * a chat message counts against three), each with its own window, each row updated atomically as
 * `countHit` does; rows are taken in key order, so two callers cannot deadlock. Returns, for each
 * limit in the order given, whether it went over.
 */
export async function countHits(db: DB, hits: { limit: Limit; key: string }[]) {
  const rows = hits.map(({ limit, key }) => ({ key: counterKey(limit, key), seconds: limit.windowSeconds }))
  const { rows: counted } = await sql<{ key: string; count: number; window_start: Date }>`
    WITH input AS (SELECT * FROM unnest(${rows.map((row) => row.key)}::text[], ${rows.map((row) => row.seconds)}::int[]) AS i(key, seconds))
    INSERT INTO rate_limits AS r (key, window_start, count)
    SELECT key, now(), 1 FROM input ORDER BY key
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN r.window_start < now() - make_interval(secs => (SELECT seconds FROM input WHERE input.key = excluded.key)) THEN 1 ELSE r.count + 1 END,
      window_start = CASE WHEN r.window_start < now() - make_interval(secs => (SELECT seconds FROM input WHERE input.key = excluded.key)) THEN now() ELSE r.window_start END
    RETURNING key, count, window_start`.execute(db)
  const byKey = new Map(counted.map((row) => [row.key, row]))
  return hits.map(({ limit }, index) => {
    const row = byKey.get(rows[index]!.key)!
    const retryAfter = Math.max(1, Math.ceil(limit.windowSeconds - (Date.now() - row.window_start.getTime()) / 1000))
    return { over: row.count > limit.max, retryAfter }
  })
}

/**
 * A cap on the rows a member makes in an hour, counted from the rows themselves: "Add a card",
 * a premium plan and a fee's payment each open a session at the payment provider (decision 073).
 */
export interface HourlyCap {
  table: 'card_setups' | 'subscriptions' | 'fee_checkouts'
  /** The column naming whose rows are counted: the member's, or the fee's. */
  by: 'user_id' | 'fee_id'
  max: number
}

/**
 * Refuses one more row once `max` were made in the last hour (`too_many_attempts`), with the
 * wait until the oldest of those `max` is an hour old (Retry-After), not a whole hour.
 */
export async function requireUnderHourlyCap(db: DB, cap: HourlyCap, id: string) {
  const { rows } = await sql<{ wait: number }>`
    SELECT ceil(extract(epoch FROM created_at + interval '1 hour' - now()))::int AS wait
    FROM ${sql.table(cap.table)}
    WHERE ${sql.ref(cap.by)} = ${id} AND created_at > now() - interval '1 hour'
    ORDER BY created_at DESC
    OFFSET ${cap.max - 1} LIMIT 1`.execute(db)
  if (rows[0]) throw problems.tooManyAttempts(Math.max(1, rows[0].wait))
}

/**
 * Takes back one hit `countHit` counted (never below zero): a try that succeeded does not count
 * against the member.
 */
export async function forgiveHit(db: DB, limit: Limit, key: string) {
  await sql`UPDATE rate_limits SET count = greatest(count - 1, 0) WHERE key = ${counterKey(limit, key)}`.execute(db)
}

/**
 * Fixed-window limits keyed on the connection's address (or the proxy-reported one only when
 * TRUST_PROXY says how many proxies to trust, so clients cannot forge it). Counters for writes
 * and sign-in live in PostgreSQL so every instance shares them; the general limit is kept per
 * instance in memory to keep reads off the database. Sign-in, code and reset attempts are also
 * limited per account, by the identity provider (api/identity/accounts.ts).
 */
export function rateLimits(options: { db: DB; general: Limit; writes: Limit; auth: Limit; isAuthPath: (req: Request) => boolean }) {
  const memory = new Map<string, { windowStart: number; count: number }>()
  setInterval(() => {
    const now = Date.now()
    for (const [key, entry] of memory) if (now - entry.windowStart > options.general.windowSeconds * 1000) memory.delete(key)
  }, 60_000).unref()
  const hit = (limit: Limit, key: string) => countHit(options.db, limit, key)

  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.ip ?? 'unknown'
    const now = Date.now()
    const entry = memory.get(key)
    if (!entry || now - entry.windowStart > options.general.windowSeconds * 1000) memory.set(key, { windowStart: now, count: 1 })
    else if (++entry.count > options.general.max) return tooMany(res, Math.ceil((entry.windowStart + options.general.windowSeconds * 1000 - now) / 1000))
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    const checks = [hit(options.writes, key)]
    if (options.isAuthPath(req)) checks.push(hit(options.auth, key))
    // Fail open: counters that fail or do not answer in time must not also break the error page.
    const results = await withinDeadline(Promise.all(checks), limiterDeadlineMs)
    for (const result of results ?? []) if (result.over) return tooMany(res, result.retryAfter)
    next()
  }
}

/**
 * The limiter waits this long for its counters, then lets the request through: with the database
 * frozen, a form must reach its action quickly to be drawn again with what the member typed,
 * instead of waiting out a statement timeout here and another one in the action.
 */
const limiterDeadlineMs = 2_000

function tooMany(res: Response, retryAfter: number) {
  res.setHeader('retry-after', String(retryAfter))
  res.status(429).type('text/plain').send('Too many requests. Please wait a moment and try again.')
}
