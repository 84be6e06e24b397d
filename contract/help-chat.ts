import { z } from 'zod'

/**
 * The help chat (issue 32 §6, spec §7, decision 083): a member's conversation with Circle 55
 * support (the support inbox of decision 039) as the Help page and panel show it, and, when a
 * vendor is configured (Chatwoot or Intercom), that vendor's widget with the member's identity
 * signed on the server. The member reads answers as from "Circle 55 support": the admin who
 * wrote one is never named here.
 */

/**
 * The feature flag (decision 079) that lets a member's Help button load the configured vendor
 * widget; off (or no vendor): the built-in help chat. Flag keys take hyphens, not underscores.
 */
export const helpChatFlag = 'help-chat'

/** A message of the member's own support conversation, as the member reads it. */
export const helpChatMessageSchema = z
  .object({
    id: z.string(),
    body: z.string().meta({ description: 'Plain text; shown as text with safe links, never HTML.' }),
    from_support: z.boolean().meta({ description: 'An answer from Circle 55 support; false for the member’s own message.' }),
    created_at: z.string(),
  })
  .meta({ id: 'HelpChatMessage' })
export type HelpChatMessage = z.infer<typeof helpChatMessageSchema>

/**
 * Chatwoot's website widget (https://www.chatwoot.com/docs/product/channels/live-chat/sdk/identity-validation):
 * `window.chatwootSDK.run({ websiteToken, baseUrl })`, then `$chatwoot.setUser(identifier, { name,
 * email, avatar_url, identifier_hash })`; `identifier_hash` is HMAC-SHA256 of the identifier with
 * the inbox's HMAC token, so nobody can claim another member's conversations.
 */
export const chatwootWidgetSchema = z
  .object({
    provider: z.literal('chatwoot'),
    base_url: z.string(),
    website_token: z.string(),
    identifier: z.string().meta({ description: 'The member’s id.' }),
    identifier_hash: z.string().meta({ description: 'Hex HMAC-SHA256 of `identifier` with CHATWOOT_HMAC_TOKEN.' }),
    name: z.string(),
    email: z.string(),
    avatar_url: z.string().nullable(),
    created_at: z.string().meta({ description: 'When the member joined (ISO 8601), sent as a custom attribute.' }),
  })
  .meta({ id: 'ChatwootWidget' })

/**
 * Intercom's Messenger secured with a JWT (https://developers.intercom.com/installing-intercom/web/identity-verification):
 * `Intercom('boot', { app_id, intercom_user_jwt, name, created_at, avatar })`; the JWT (HS256,
 * INTERCOM_IDENTITY_SECRET) carries `user_id` and `email`, so neither can be set by the browser.
 */
export const intercomWidgetSchema = z
  .object({
    provider: z.literal('intercom'),
    app_id: z.string(),
    user_jwt: z.string().meta({ description: 'HS256 JWT with `user_id`, `email` and `exp` (one hour).' }),
    name: z.string(),
    avatar_url: z.string().nullable(),
    created_at: z.number().int().meta({ description: 'When the member joined, in seconds since 1970 (Intercom’s `created_at`).' }),
  })
  .meta({ id: 'IntercomWidget' })

export const helpChatWidgetSchema = z.discriminatedUnion('provider', [chatwootWidgetSchema, intercomWidgetSchema])
export type HelpChatWidget = z.infer<typeof helpChatWidgetSchema>

/** `GET v1/support/help-chat`: the member's support conversation and, when one applies, the vendor widget. */
export const helpChatSchema = z
  .object({
    channel_id: z.string().nullable().meta({ description: 'The member’s support conversation; null until they first write.' }),
    messages: z.array(helpChatMessageSchema).meta({ description: 'The latest 100 messages, oldest first.' }),
    widget: helpChatWidgetSchema.nullable().meta({
      description:
        'The vendor widget to load when the member presses Help; null: the built-in help chat (no vendor configured, the `help-chat` flag off for the member, or a staff member viewing Circle 55 as them).',
    }),
  })
  .meta({ id: 'HelpChat' })
export type HelpChat = z.infer<typeof helpChatSchema>
