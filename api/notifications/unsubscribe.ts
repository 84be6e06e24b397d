import { createHmac, timingSafeEqual } from 'node:crypto'
import { notificationTopics, type NotificationTopic } from '#contract/notification-settings.ts'
import type { DB } from '../db/database.ts'
import { problems } from '../http/errors.ts'

/**
 * One-click unsubscribe (issue 15 §3 "Email", RFC 8058, decision 047): every email about a topic
 * carries a link that turns that topic's emails off for its member without signing in. The link
 * holds a token naming the member and the topic, signed with a key derived from the code secret;
 * it never expires (an old email's link must still work) and does nothing but switch one channel
 * off, so a leaked one can do no harm beyond that.
 */

const keyFor = (secret: string) => createHmac('sha256', secret).update('notifications.unsubscribe').digest()

const sign = (secret: string, payload: string) => createHmac('sha256', keyFor(secret)).update(payload).digest().subarray(0, 16)

/** The token for `userId`'s emails about `topic`. */
export function unsubscribeToken(secret: string, userId: string, topic: NotificationTopic) {
  const payload = Buffer.from(`${userId}:${topic}`).toString('base64url')
  return `${payload}.${sign(secret, payload).toString('base64url')}`
}

/** The member and topic a token names, or null when it was not made by us. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; topic: NotificationTopic } | null {
  const [payload, signature, ...rest] = token.split('.')
  if (!payload || !signature || rest.length > 0) return null
  const given = Buffer.from(signature, 'base64url')
  const expected = sign(secret, payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const [userId, topic] = Buffer.from(payload, 'base64url').toString().split(':')
  if (!userId || !(notificationTopics as readonly string[]).includes(topic ?? '')) return null
  return { userId, topic: topic as NotificationTopic }
}

/**
 * The headers of RFC 8058 for an email about `topic`: mail programs show their own "Unsubscribe"
 * button and POST `List-Unsubscribe=One-Click` (no cookies, no sign-in) to the same page the
 * email's link opens, `PUBLIC_URL/unsubscribe/{token}`: that address is public whichever way the
 * web and the API are deployed, and opening it (a GET, as link scanners do) only asks to confirm.
 */
export function unsubscribeHeaders(publicUrl: string, token: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${publicUrl}/unsubscribe/${token}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  }
}

/** Which topic a token unsubscribes from (for the page that asks to confirm); 404 when it is not ours. */
export function unsubscribeTopic(secret: string, token: string): NotificationTopic {
  const read = readUnsubscribeToken(secret, token)
  if (!read) throw problems.notFound('Unsubscribe link not found')
  return read.topic
}

/** Turns the topic's emails off for the token's member; doing it twice changes nothing. */
export async function unsubscribe(db: DB, secret: string, token: string): Promise<NotificationTopic> {
  const read = readUnsubscribeToken(secret, token)
  if (!read) throw problems.notFound('Unsubscribe link not found')
  await db
    .insertInto('notification_workflow_settings')
    .values({ user_id: read.userId, template_id: read.topic, channel: 'email', enabled: false })
    .onConflict((oc) => oc.columns(['user_id', 'template_id', 'channel']).doUpdateSet({ enabled: false }))
    .execute()
    // A member deleted since: the foreign key refuses the row, and there is nothing to stop.
    .catch((error: unknown) => {
      if ((error as { code?: string }).code !== '23503') throw error
    })
  return read.topic
}
