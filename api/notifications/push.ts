import webPush from 'web-push'
import type { Device, RegisterDevice, UnregisterDevice } from '#contract/push.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { problems } from '../http/errors.ts'
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

export const PUSH_DELIVERY_JOB = 'push.deliver'

/** What the service worker shows (app/utils/service-worker.server.ts): the payload's contract. */
export interface PushPayload {
  title: string
  body: string
  /** A page of this site, opened when the member clicks the notification. */
  url: string
  /** Notifications with the same tag replace each other (e.g. one per conversation). */
  tag?: string
}

interface PushJob {
  device_id: string
  payload: PushPayload
}

/** How long a push service keeps a push for a browser that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60

// --- Registration (PUT/DELETE v1/notifications/register-device) -------------------------------

/**
 * Keeps the caller's browser subscription: one row per endpoint. An endpoint registered again
 * is refreshed (its keys and last_seen_at); one registered by another member (a shared computer)
 * moves to the caller, so a push never reaches someone who signed out of that browser.
 */
export async function registerDevice(db: DB, env: Pick<Env, 'isProduction'>, caller: User, input: RegisterDevice): Promise<Device> {
  requirePermission(caller, 'register:device')
  if (env.isProduction && !isPushService(input.endpoint)) throw problems.invalid({ endpoint: ['endpoint_invalid'] })
  const keys = { p256dh: input.keys.p256dh, auth: input.keys.auth }
  const row = await db
    .insertInto('devices')
    .values({ user_id: caller.id, kind: 'web_push', token: input.endpoint, keys: JSON.stringify(keys) })
    .onConflict((conflict) =>
      conflict.column('token').doUpdateSet({
        user_id: caller.id,
        kind: 'web_push',
        keys: JSON.stringify(keys),
        last_seen_at: new Date(),
      }),
    )
    .returning(['id', 'token', 'last_seen_at'])
    .executeTakeFirstOrThrow()
  return { id: row.id, kind: 'web_push', endpoint: row.token, last_seen_at: row.last_seen_at.toISOString() }
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
export async function queuePush(queue: JobQueue, trx: DB, userId: string, payload: PushPayload): Promise<number> {
  const devices = await trx
    .selectFrom('devices')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'web_push')
    .execute()
  const jobs: PushJob[] = devices.map((device) => ({ device_id: device.id, payload }))
  await queue.send(PUSH_DELIVERY_JOB, jobs, { transaction: trx })
  return jobs.length
}

export interface PushDeps {
  db: DB
  vapid: VapidKeys
  logger: Logger
}

/**
 * Sends one queued push. 201 (or any 2xx): done. 404 or 410: the push service says the
 * subscription is gone, so the device row is deleted and nothing is retried. Anything else
 * (a 5xx, 429, a network failure) throws, and the queue retries later.
 */
export async function deliverPush(deps: PushDeps, job: PushJob): Promise<'sent' | 'expired' | 'unregistered'> {
  const device = await deps.db.selectFrom('devices').select(['id', 'token', 'keys']).where('id', '=', job.device_id).executeTakeFirst()
  if (!device) return 'unregistered' // turned off or expired since the push was queued
  const keys = device.keys as { p256dh?: unknown; auth?: unknown } | null
  if (typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') {
    await deps.db.deleteFrom('devices').where('id', '=', device.id).execute()
    return 'expired'
  }
  const request = webPush.generateRequestDetails(
    { endpoint: device.token, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    JSON.stringify(job.payload),
    { vapidDetails: deps.vapid, TTL: PUSH_TTL_SECONDS, urgency: 'normal', contentEncoding: 'aes128gcm' },
  )
  // web-push builds the request (encryption, VAPID); fetch sends it, so a local http endpoint works in tests.
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : undefined,
    signal: AbortSignal.timeout(30_000),
    // A push service answers; it never sends us elsewhere.
    redirect: 'manual',
  })
  await response.body?.cancel()
  if (response.ok) return 'sent'
  if (response.status === 404 || response.status === 410) {
    await deps.db.deleteFrom('devices').where('id', '=', device.id).execute()
    deps.logger.info({ job: PUSH_DELIVERY_JOB, status: response.status }, 'Push subscription expired; device removed')
    return 'expired'
  }
  throw new Error(`The push service answered ${response.status}`)
}

/** Works the `push.deliver` jobs (started by the runtime beside the other workers). */
export async function startPushDelivery(options: PushDeps & { queue: JobQueue }) {
  await options.queue.define(PUSH_DELIVERY_JOB, { retryLimit: 5, retryDelaySeconds: 30 })
  await options.queue.work<PushJob>(PUSH_DELIVERY_JOB, async (job) => {
    const outcome = await deliverPush(options, job)
    options.logger.debug({ job: PUSH_DELIVERY_JOB, outcome }, 'Push delivered')
  })
}
