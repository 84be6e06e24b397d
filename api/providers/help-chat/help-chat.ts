import { createHmac } from 'node:crypto'
import { SignJWT } from 'jose'
import type { Env } from '../../env.ts'
import type { HelpChatWidget } from '#contract/help-chat.ts'

/**
 * The help chat's vendor widget (issue 32 §6, spec §7, decision 083). Built in, the help chat is
 * the support inbox (decision 039) and needs nothing here. With CHATWOOT_* or INTERCOM_* set, the
 * Help button loads that vendor's widget instead, for signed-in members only (Chatwoot #9493:
 * the signature protects `setUser`, so a page without sign-in must not load the widget), with
 * the member's identity signed here: the secrets never leave the server, and a browser cannot
 * claim another member's conversations by setting an id or an email itself.
 */

/** What the widget receives of the member (spec §7: name, email, id, created date, avatar). */
export interface HelpChatMember {
  id: string
  name: string
  email: string
  /** Absolute, or null without a photo. */
  avatarUrl: string | null
  createdAt: Date
}

export type HelpChatVendor =
  | { provider: 'chatwoot'; baseUrl: string; websiteToken: string; hmacToken: string }
  | { provider: 'intercom'; appId: string; identitySecret: string }

/** The configured vendor, or null for the built-in help chat (api/env.ts checks the variables go together). */
export function helpChatVendor(env: Pick<Env, 'CHATWOOT_BASE_URL' | 'CHATWOOT_WEBSITE_TOKEN' | 'CHATWOOT_HMAC_TOKEN' | 'INTERCOM_APP_ID' | 'INTERCOM_IDENTITY_SECRET'>): HelpChatVendor | null {
  if (env.CHATWOOT_BASE_URL && env.CHATWOOT_WEBSITE_TOKEN && env.CHATWOOT_HMAC_TOKEN) {
    return { provider: 'chatwoot', baseUrl: env.CHATWOOT_BASE_URL.replace(/\/$/, ''), websiteToken: env.CHATWOOT_WEBSITE_TOKEN, hmacToken: env.CHATWOOT_HMAC_TOKEN }
  }
  if (env.INTERCOM_APP_ID && env.INTERCOM_IDENTITY_SECRET) {
    return { provider: 'intercom', appId: env.INTERCOM_APP_ID, identitySecret: env.INTERCOM_IDENTITY_SECRET }
  }
  return null
}

/** Chatwoot's `identifier_hash`: hex HMAC-SHA256 of the identifier, keyed with the inbox's HMAC token. */
export function chatwootIdentifierHash(hmacToken: string, identifier: string) {
  return createHmac('sha256', hmacToken).update(identifier).digest('hex')
}

/** How long Intercom accepts the member's token: the widget is booted when Help is pressed, so an hour is plenty. */
export const intercomTokenSeconds = 60 * 60

/**
 * Intercom's Messenger security token: an HS256 JWT signed with the Messenger API secret, with the
 * member's `user_id` (required) and `email` as signed fields (Intercom's `signed_user_fields`, so
 * the browser's settings carry neither), expiring after `intercomTokenSeconds`.
 */
export async function intercomUserJwt(secret: string, member: Pick<HelpChatMember, 'id' | 'email'>, now = new Date()) {
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT({ user_id: member.id, email: member.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + intercomTokenSeconds)
    .sign(new TextEncoder().encode(secret))
}

/** The widget's settings for one member, signed. */
export async function helpChatWidget(vendor: HelpChatVendor, member: HelpChatMember, now = new Date()): Promise<HelpChatWidget> {
  if (vendor.provider === 'chatwoot') {
    return {
      provider: 'chatwoot',
      base_url: vendor.baseUrl,
      website_token: vendor.websiteToken,
      identifier: member.id,
      identifier_hash: chatwootIdentifierHash(vendor.hmacToken, member.id),
      name: member.name,
      email: member.email,
      avatar_url: member.avatarUrl,
      created_at: member.createdAt.toISOString(),
    }
  }
  return {
    provider: 'intercom',
    app_id: vendor.appId,
    user_jwt: await intercomUserJwt(vendor.identitySecret, member, now),
    name: member.name,
    avatar_url: member.avatarUrl,
    created_at: Math.floor(member.createdAt.getTime() / 1000),
  }
}

/**
 * What the page's Content-Security-Policy must allow for the configured widget (server.ts), from
 * the vendors' own lists: Chatwoot's SDK, its iframe and its API on its base URL (and its
 * WebSocket); Intercom's documented CSP (https://www.intercom.com/help/en/articles/3894-using-intercom-with-content-security-policy),
 * the Messenger part only (no tours, surveys or videos).
 */
export function helpChatSources(vendor: HelpChatVendor | null): { script: string[]; connect: string[]; frame: string[]; img: string[]; font: string[]; media: string[]; style: string[] } {
  const none = { script: [], connect: [], frame: [], img: [], font: [], media: [], style: [] }
  if (!vendor) return none
  if (vendor.provider === 'chatwoot') {
    const origin = new URL(vendor.baseUrl).origin
    const socket = origin.replace(/^http/, 'ws')
    return { ...none, script: [origin], connect: [origin, socket], frame: [origin], img: [origin] }
  }
  const websockets = ['nexus-websocket-a.intercom.io', 'nexus-websocket-b.intercom.io', 'nexus-europe-websocket.intercom.io', 'nexus-australia-websocket.intercom.io']
  return {
    script: ['https://app.intercom.io', 'https://widget.intercom.io', 'https://js.intercomcdn.com'],
    connect: [
      'https://via.intercom.io',
      'https://api.intercom.io',
      'https://api.au.intercom.io',
      'https://api.eu.intercom.io',
      'https://api-iam.intercom.io',
      'https://api-iam.eu.intercom.io',
      'https://api-iam.au.intercom.io',
      'https://api-ping.intercom.io',
      ...websockets.flatMap((host) => [`https://${host}`, `wss://${host}`]),
      'https://uploads.intercomcdn.com',
      'https://uploads.intercomcdn.eu',
      'https://uploads.au.intercomcdn.com',
      'https://uploads.eu.intercomcdn.com',
      'https://uploads.intercomusercontent.com',
    ],
    frame: ['https://intercom-sheets.com', 'https://www.intercom-reporting.com'],
    img: ['https://js.intercomcdn.com', 'https://static.intercomassets.com', 'https://downloads.intercomcdn.com', 'https://downloads.intercomcdn.eu', 'https://downloads.au.intercomcdn.com', 'https://uploads.intercomusercontent.com', 'https://gifs.intercomcdn.com', 'https://video-messages.intercomcdn.com', 'https://messenger-apps.intercom.io', 'https://messenger-apps.eu.intercom.io', 'https://messenger-apps.au.intercom.io'],
    font: ['https://js.intercomcdn.com', 'https://fonts.intercomcdn.com'],
    media: ['https://js.intercomcdn.com', 'https://downloads.intercomcdn.com', 'https://downloads.intercomcdn.eu', 'https://downloads.au.intercomcdn.com'],
    // Intercom's Messenger styles itself inline: its documented CSP needs this, only when it is configured.
    style: ["'unsafe-inline'"],
  }
}
