import { sql } from 'kysely'
import webPush from 'web-push'
import { z } from 'zod'
import type { Device, RegisterDevice, UnregisterDevice } from '#contract/push.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { problems } from '../http/errors.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { VapidKeys } from '../secrets.ts'

/**
 * Web push (issue 15 §3, decision 048): the browsers a member registered (`devices`, kind
 * `web_push`: the subscription's endpoint in `token`, its keys in `keys`), and sending to them
 * through their push service (RFC 8030) with an aes128gcm-encrypted payload (RFC 8291) signed
 * with our VAPID key (RFC 8292). The lead's delivery decides when a notification goes by push
 * and calls `queuePush`; the jobs do the rest.
 */

/** What the service worker shows (app/utils/service-worker.server.ts): the payload's contract. */
export interface PushPayload {
  title: string
  body: string
  /** A page of this site, opened when the member clicks the notification. */
  url: string
  /** Notifications with the same tag replace each other (e.g. one per conversation). */
  tag?: string
}

const pushJobPayload = z.object({
  device_id: z.guid(),
  payload: z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string().optional() }) satisfies z.ZodType<PushPayload>,
})
type PushJob = z.output<typeof pushJobPayload>

/** How long a push service keeps a push for a browser that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60

// --- Registration (PUT/DELETE v1/notifications/register-device) -------------------------------

/** The browsers one member may have at once; registering one more forgets the least recently seen. */
export const MAX_DEVICES_PER_MEMBER = 10

/**
 * Keeps the caller's browser subscription: one row per endpoint. An endpoint registered again
 * is refreshed (its keys and last_seen_at). An endpoint belongs to the member who registered it
 * (decision pushjobs): another member may take it over only by proving they hold that browser's
 * subscription, its keys (the `auth` secret is known only to the browser and to us) — the same
 * browser after a change of member on a shared computer, so a push never reaches someone who
 * signed out of it. Anything else is refused (409 `endpoint_taken`): knowing an endpoint is not
 * owning it. A member keeps at most `MAX_DEVICES_PER_MEMBER` browsers.
 */
export async function registerDevice(db: DB, env: Pick<Env, 'isProduction'>, caller: User, input: RegisterDevice): Promise<Device> {
  requirePermission(caller, 'register:device')
  if (env.isProduction && !isPushService(input.endpoint)) throw problems.invalid({ endpoint: ['endpoint_invalid'] })
  const keys = { p256dh: input.keys.p256dh, auth: input.keys.auth }
  return db.transaction().execute(async (trx) => {
    // One registration of this member at a time, so that concurrent ones cannot pass the cap.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`devices:${caller.id}`}, 0))`.execute(trx)
    const row = await trx
      .insertInto('devices')
      .values({ user_id: caller.id, kind: 'web_push', token: input.endpoint, keys: JSON.stringify(keys) })
      .onConflict((conflict) =>
        conflict
          .column('token')
          .doUpdateSet({ user_id: caller.id, kind: 'web_push', keys: JSON.stringify(keys), last_seen_at: new Date(), failures: 0, retry_after: null })
          .where((eb) =>
            eb.or([
              eb('devices.user_id', '=', caller.id),
              eb.and([eb(sql`devices.keys->>'p256dh'`, '=', keys.p256dh), eb(sql`devices.keys->>'auth'`, '=', keys.auth)]),
            ]),
          ),
      )
      .returning(['id', 'token', 'last_seen_at'])
      .executeTakeFirst()
    if (!row) throw problems.conflict('endpoint_taken', 'This push endpoint is registered by another member.')
    // Past the cap, the browsers seen longest ago make room (this one was just seen).
    await trx
      .deleteFrom('devices')
      .where(
        'id',
        'in',
        trx
          .selectFrom('devices')
          .select('id')
          .where('user_id', '=', caller.id)
          .where('id', '<>', row.id)
          .orderBy('last_seen_at', 'desc')
          .orderBy('created_at', 'desc')
          .offset(MAX_DEVICES_PER_MEMBER - 1),
      )
      .execute()
    return { id: row.id, kind: 'web_push' as const, endpoint: row.token, last_seen_at: row.last_seen_at.toISOString() }
  })
}

/**
 * The browsers' push services (Chrome and Edge via Google's, Firefox's, Edge's own, Safari's). In
 * production only these are taken: the server POSTs to a registered endpoint, so any other
 * address would let a member make the server call something inside our network.
 */
const pushServiceHosts = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com']

export function isPushService(endpoint: string) {
  if (!URL.canParse(endpoint)) return false
  const url = new URL(endpoint)
  return url.protocol === 'https:' && url.port === '' && pushServiceHosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`))
}

/** Forgets the caller's browser (the member turned push off there). Another member's endpoint is left alone. */
export async function unregisterDevice(db: DB, caller: User, input: UnregisterDevice): Promise<void> {
  requirePermission(caller, 'register:device')
  await db.deleteFrom('devices').where('token', '=', input.endpoint).where('user_id', '=', caller.id).execute()
}

// --- Sending ------------------------------------------------------------------------------------

/**
 * Queues one push per browser the member registered, inside the caller's transaction (so the
 * pushes exist only if the notification does). Returns how many were queued (0: no browser).
 */
export async function queuePush(queue: Pick<JobQueue, 'send'>, trx: DB, userId: string, payload: PushPayload): Promise<number> {
  const devices = await trx
    .selectFrom('devices')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'web_push')
    .execute()
  const jobs: PushJob[] = devices.map((device) => ({ device_id: device.id, payload }))
  await queue.send(pushDeliveryJob.name, jobs, { transaction: trx })
  return jobs.length
}

export interface PushDeps {
  db: DB
  vapid: VapidKeys
  logger: Logger
  /** In production a stored endpoint is sent to only while it is one of the browsers' push services. */
  production?: boolean
}

/** How long one push may take (a push service answers in well under a second). */
export const PUSH_TIMEOUT_MS = 5_000
/** Pushes sent at once by one instance: more than one member's browsers, so no member fills them. */
export const PUSH_CONCURRENCY = 16
/** Consecutive failed pushes after which a browser is forgotten (with the backoff, over 4 hours). */
export const PUSH_FAILURE_LIMIT = 10
/** A browser's backoff after its nth consecutive failure: 30 s, doubling, at most 6 hours. */
const backoffSeconds = (failures: number) => Math.min(30 * 2 ** Math.max(0, failures - 1), 6 * 60 * 60)
/** The hold on a browser while its push is in flight (longer than a push may take). */
const claimSeconds = PUSH_TIMEOUT_MS / 1000 + 10

/** The browser is backing off (or has a push in flight): this push is tried again later. */
export class PushDeferred extends Error {}

/**
 * Sends one queued push. 201 (or any 2xx): done. 404 or 410: the push service says the
 * subscription is gone, so the device row is deleted and nothing is retried. Anything else
 * (a 5xx, 429, no answer within PUSH_TIMEOUT_MS) counts as one failure of the browser: it backs
 * off (no push is tried there until then; a push due meanwhile is retried after it), the job
 * throws and the queue retries it, and after PUSH_FAILURE_LIMIT failures in a row the browser is
 * forgotten. One push per browser is in flight at a time, so a browser that never answers holds
 * one worker at most, for PUSH_TIMEOUT_MS.
 */
export async function deliverPush(deps: PushDeps, job: PushJob): Promise<'sent' | 'expired' | 'unregistered' | 'refused' | 'dropped'> {
  const { db, logger } = deps
  const known = await db.selectFrom('devices').select('id').where('id', '=', job.device_id).executeTakeFirst()
  if (!known) return 'unregistered' // turned off or expired since the push was queued
  const device = await db
    .updateTable('devices')
    .set({ retry_after: sql<Date>`now() + make_interval(secs => ${claimSeconds})` })
    .where('id', '=', job.device_id)
    .where((eb) => eb.or([eb('retry_after', 'is', null), eb('retry_after', '<=', sql<Date>`now()`)]))
    .returning(['id', 'token', 'keys'])
    .executeTakeFirst()
  if (!device) throw new PushDeferred('The browser is backing off or has a push in flight')
  const keys = device.keys as { p256dh?: unknown; auth?: unknown } | null
  if (typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') {
    await db.deleteFrom('devices').where('id', '=', device.id).execute()
    return 'expired'
  }
  if (deps.production && !isPushService(device.token)) {
    // Registered before the allowlist (or under another one): never called, and forgotten.
    await db.deleteFrom('devices').where('id', '=', device.id).execute()
    logger.warn({ job: PUSH_DELIVERY_JOB }, 'A stored push endpoint is not a browser push service; device removed')
    return 'refused'
  }
  const request = webPush.generateRequestDetails(
    { endpoint: device.token, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    JSON.stringify(job.payload),
    { vapidDetails: deps.vapid, TTL: PUSH_TTL_SECONDS, urgency: 'normal', contentEncoding: 'aes128gcm' },
  )
  let response: Response
  try {
    // web-push builds the request (encryption, VAPID); fetch sends it, so a local http endpoint works in tests.
    response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      // A push service answers; it never sends us elsewhere.
      redirect: 'manual',
    })
    await response.body?.cancel()
  } catch (error) {
    if (await recordFailure(deps, device.id)) return 'dropped'
    throw new Error('The push service did not answer', { cause: error })
  }
  if (response.ok) {
    await db.updateTable('devices').set({ failures: 0, retry_after: null }).where('id', '=', device.id).execute()
    return 'sent'
  }
  if (response.status === 404 || response.status === 410) {
    await db.deleteFrom('devices').where('id', '=', device.id).execute()
    logger.info({ job: PUSH_DELIVERY_JOB, status: response.status }, 'Push subscription expired; device removed')
    return 'expired'
  }
  if (await recordFailure(deps, device.id, retryAfterSeconds(response.headers.get('retry-after')))) return 'dropped'
  throw new Error(`The push service answered ${response.status}`)
}

/** Counts one failure of the browser and sets its backoff; true when it was forgotten for failing too often. */
async function recordFailure(deps: PushDeps, deviceId: string, askedSeconds = 0): Promise<boolean> {
  const row = await deps.db
    .updateTable('devices')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', deviceId)
    .returning('failures')
    .executeTakeFirst()
  if (!row) return false
  if (row.failures >= PUSH_FAILURE_LIMIT) {
    await deps.db.deleteFrom('devices').where('id', '=', deviceId).execute()
    deps.logger.info({ job: PUSH_DELIVERY_JOB, failures: row.failures }, 'Push endpoint failed too often; device removed')
    return true
  }
  const seconds = Math.max(backoffSeconds(row.failures), Math.min(askedSeconds, 6 * 60 * 60))
  await deps.db.updateTable('devices').set({ retry_after: new Date(Date.now() + seconds * 1000) }).where('id', '=', deviceId).execute()
  return false
}

/** A 429 or 503's Retry-After in seconds (delta-seconds or an HTTP date), 0 when absent. */
function retryAfterSeconds(header: string | null): number {
  if (!header) return 0
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const date = Date.parse(header)
  return Number.isNaN(date) ? 0 : Math.max(0, Math.round((date - Date.now()) / 1000))
}

/**
 * One push to one browser (queued by `queuePush`): PUSH_CONCURRENCY at once per instance, each
 * within PUSH_TIMEOUT_MS, so browsers that never answer delay nobody else's pushes. A failed push
 * is retried from 2 s on, doubling, for a few minutes.
 */
export const pushDeliveryJob = defineJob({
  name: 'push.deliver',
  payload: pushJobPayload,
  retryLimit: 8,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 300,
  timeoutSeconds: 30,
  concurrency: PUSH_CONCURRENCY,
  async handler(job, deps: PushDeps) {
    const outcome = await deliverPush(deps, job)
    deps.logger.debug({ job: 'push.deliver', outcome }, 'Push delivered')
  },
})
export const PUSH_DELIVERY_JOB = pushDeliveryJob.name
