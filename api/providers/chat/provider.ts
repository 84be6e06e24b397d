/**
 * The chat service's outside half (ARCHITECTURE §4 "Chat", decision 036). The built-in tables
 * (`message_channels`, `channel_memberships`, `messages`, `blocks`) are always the source of truth:
 * who may read and write, blocks, the banned-member filter, the scam shield and moderation are
 * decided there. A provider only mirrors what was committed to a vendor whose client the web page
 * then uses: the built-in one does nothing, Stream (stream.ts) when its variables are set.
 * `api/providers.ts` chooses.
 */

/** A committed change to mirror; each is applied by reading the database as it is now, so applying it twice is harmless. */
export type ChatChange =
  /** Make the vendor's channel match ours: its members (who may read it now) and its name. */
  | { type: 'channel'; channel_id: string }
  /** A message that was stored (by a member or the product). */
  | { type: 'message'; message_id: string }
  /** A message that moderation removed. */
  | { type: 'message.removed'; message_id: string }
  /** `blocker_id` blocked (or, `blocked: false`, unblocked) `blocked_id`. */
  | { type: 'block'; blocker_id: string; blocked_id: string; blocked: boolean }
  /**
   * A member's standing changed (moderation suspended or banned them, or a suspension ended): the
   * vendor bans them (until the suspension's end) or lifts the ban, and their channels are synced.
   */
  | { type: 'member'; user_id: string }

export type ChatProviderName = 'builtin' | 'stream'

export interface ChatProvider {
  name: ChatProviderName
  /** The vendor's public key for the browser's client, or null (built-in). */
  publicKey: string | null
  /** The member's token for the vendor's browser client (`stream_token`), or null (built-in). */
  userToken(user: { stream_id: string }): Promise<string | null>
  /** Applies a committed change to the vendor; throws when the vendor failed (the caller queues a retry). */
  apply(change: ChatChange): Promise<void>
}

/** The built-in chat service: PostgreSQL and Server-Sent Events, nothing to mirror. */
export const builtinChat: ChatProvider = {
  name: 'builtin',
  publicKey: null,
  userToken: async () => null,
  apply: async () => undefined,
}
