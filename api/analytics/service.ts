import { randomBytes, randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import { isbot } from 'isbot'
import {
  allowedProps,
  analyticsEvents,
  analyticsMode,
  privacySignals,
  type AnalyticsEventName,
  type AnalyticsProps,
  type PrivacySignals,
  type TrackedEventName,
} from '#contract/analytics.ts'
import type { DB } from '../db/database.ts'
import type { ApiEnv } from '../http/context.ts'
import type { Logger } from '../logger.ts'
import type { AnalyticsVendor } from '../providers/analytics/provider.ts'
import type { Analytics } from './types.ts'
import { deviceClass, referrerDomain, strippedPath, visitorHash } from './privacy.ts'

export type { Analytics, TrackOptions, Visit } from './types.ts'

export interface AnalyticsOptions {
  db: DB
  vendor?: AnalyticsVendor | null
  logger?: Pick<Logger, 'warn'>
  /** The site's own host, left out of referrers. */
  ownHost?: string
  now?: () => Date
}

const noSignals: PrivacySignals = { gpc: false, dnt: false }

/** The UTC day of `at` (`2026-11-29`). */
export function utcDay(at: Date) {
  return at.toISOString().slice(0, 10)
}

/**
 * First-party analytics (issue 32 §5, decision 081): `page`, `identify` and `track` recorded in
 * `analytics_events`, and forwarded to the vendor (Segment, when configured) only where the
 * visitor agreed. Recording never fails what the member did: an error is logged and forgotten.
 *
 * - A page view keeps its stripped path, the referring domain, language and device kind; with
 *   consent (`analyticsMode` = `full`) also the day's visitor hash and the member's id.
 * - A tracked event keeps only its allow-listed properties (contract/analytics.ts) and the
 *   member's id (their own product metrics, first-party); it is forwarded only with consent.
 * - Staff viewing as a member: flagged `impersonated`, never forwarded, no visitor hash. Bots
 *   (isbot): flagged `is_bot`, no visitor hash, never forwarded.
 */
export function createAnalytics(options: AnalyticsOptions): Analytics {
  const { db } = options
  const vendor = options.vendor ?? null
  const now = options.now ?? (() => new Date())
  let cachedSalt: { day: string; salt: string } | null = null

  /** The day's salt, the same on every instance (made by whichever asks first). */
  async function saltFor(day: string) {
    if (cachedSalt?.day === day) return cachedSalt.salt
    await db.insertInto('analytics_salts').values({ day, salt: randomBytes(32).toString('base64url') }).onConflict((oc) => oc.column('day').doNothing()).execute()
    const { salt } = await db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()
    cachedSalt = { day, salt }
    return salt
  }

  async function safely(what: string, work: () => Promise<void>) {
    try {
      await work()
    } catch (error) {
      options.logger?.warn({ err: error, what }, 'Analytics event not recorded')
    }
  }

  function forwards(name: AnalyticsEventName) {
    return vendor !== null && analyticsEvents[name].forward
  }

  return {
    page: (visit) =>
      safely('page', async () => {
        const at = now()
        const bot = isbot(visit.userAgent)
        const full = analyticsMode(visit) === 'full' && !bot && !visit.impersonated
        const path = strippedPath(visit.url)
        const hash = full ? visitorHash(await saltFor(utcDay(at)), visit.address, visit.userAgent) : null
        const userId = full ? visit.userId : null
        await db
          .insertInto('analytics_events')
          .values({
            occurred_at: at,
            name: 'page',
            user_id: userId,
            visitor_hash: hash,
            path,
            locale: visit.language,
            impersonated: visit.impersonated,
            is_bot: bot,
            referrer_domain: referrerDomain(visit.referrer, options.ownHost ?? ''),
            device_class: deviceClass(visit.userAgent),
          })
          .execute()
        if (full && forwards('page')) {
          vendor!.enqueue({ type: 'page', ...(userId ? { userId } : { anonymousId: hash! }), path, locale: visit.language, timestamp: at, messageId: randomUUID() })
        }
      }),

    identify: (visit, method) =>
      safely('identify', async () => {
        // Linking a visitor to a member is never essential: only with consent, never for staff or bots.
        if (analyticsMode(visit) !== 'full' || visit.impersonated || isbot(visit.userAgent)) return
        const at = now()
        const hash = visitorHash(await saltFor(utcDay(at)), visit.address, visit.userAgent)
        await db
          .insertInto('analytics_events')
          .values({ occurred_at: at, name: 'identify', user_id: visit.userId, visitor_hash: hash, props: JSON.stringify({ method }), locale: visit.language })
          .execute()
        if (forwards('identify')) vendor!.enqueue({ type: 'identify', userId: visit.userId, anonymousId: hash, locale: visit.language, timestamp: at, messageId: randomUUID() })
      }),

    track: (name, props, track) =>
      safely(name, async () => {
        const at = now()
        const member = await db.selectFrom('users').select(['analytics_consent', 'locale']).where('id', '=', track.userId).executeTakeFirst()
        if (!member) return
        const impersonated = track.impersonated ?? false
        const kept = allowedProps(name, props) ?? {}
        await db
          .insertInto('analytics_events')
          .values({ occurred_at: at, name, user_id: track.userId, props: JSON.stringify(kept), locale: member.locale, impersonated })
          .execute()
        const mode = analyticsMode({ signals: track.signals ?? noSignals, choice: member.analytics_consent, language: member.locale })
        if (mode === 'full' && !impersonated && forwards(name)) {
          vendor!.enqueue({ type: 'track', userId: track.userId, event: name, properties: kept, locale: member.locale, timestamp: at, messageId: randomUUID() })
        }
      }),

    close: async () => {
      await vendor?.close()
    },
  }
}

/** The built-in service of a database, for services built without one (the test harnesses). */
const builtins = new WeakMap<DB, Analytics>()

export function analyticsOf(services: { db: DB; analytics?: Analytics }): Analytics {
  if (services.analytics) return services.analytics
  let builtin = builtins.get(services.db)
  if (!builtin) {
    builtin = createAnalytics({ db: services.db })
    builtins.set(services.db, builtin)
  }
  return builtin
}

/**
 * Records an event from an API route, after what it is about succeeded: about the caller (their
 * browser's GPC/DNT apply) or, with `userId`, about another member (a host marking who came).
 * Under impersonation the event is flagged and kept from the vendor.
 */
export function trackFrom<N extends TrackedEventName>(c: Context<ApiEnv>, name: N, props: AnalyticsProps<N>, userId?: string): Promise<void> {
  const caller = c.var.caller
  const subject = userId ?? caller?.id
  if (!subject) return Promise.resolve()
  const own = subject === caller?.id
  return analyticsOf(c.var.services).track(name, props, {
    userId: subject,
    impersonated: c.var.impersonation !== undefined,
    signals: own ? privacySignals(c.req.raw.headers) : undefined,
  })
}

/** For others' modules (banners, the help chat): `recordEvent(c, 'banner_dismissed', { banner_id })`. */
export const recordEvent = trackFrom
