import { z } from 'zod'
import { chatMemberSchema, sendMessageSchema } from './chat.ts'

/**
 * "Contact the product" (issue 14 §1, spec §2, decision 039): each member has one conversation
 * with Circle 55 support, a chat channel of kind `support`. The member reads and writes it in
 * the Messenger like any channel and reads answers as from "Circle 55 support" (`is_system`, no
 * sender). Admins holding `answer:support` read every support conversation here, and only
 * these: they still read no one's other chats (decision 029).
 */

const nullableString = z.string().nullable()

/** An answer's author, for admins only (the member never sees who answered). */
export const supportAgentSchema = z
  .object({ id: z.string(), display_name: nullableString })
  .meta({ id: 'SupportAgent' })

/** A message of a support conversation as admins read it. */
export const supportMessageSchema = z
  .object({
    id: z.string(),
    body: z.string().meta({ description: 'Plain text; shown as text with safe links, never HTML.' }),
    from_support: z.boolean().meta({ description: 'An answer from Circle 55 support; false for the member’s own message.' }),
    answered_by: supportAgentSchema.nullable().meta({ description: 'The admin who wrote an answer; null for the member’s messages.' }),
    created_at: z.string(),
  })
  .meta({ id: 'SupportMessage' })
export type SupportMessage = z.infer<typeof supportMessageSchema>

/** One member's support conversation in the admins' inbox. */
export const supportConversationSchema = z
  .object({
    id: z.string().meta({ description: 'The channel id.' }),
    member: chatMemberSchema.meta({ description: 'The member who wrote (their public card; null display name: suspended, banned or deleted).' }),
    is_waiting: z.boolean().meta({ description: 'The member wrote after the last answer or "done": it waits for an answer.' }),
    last_message: supportMessageSchema.nullable(),
    last_message_at: nullableString,
    handled_at: nullableString.meta({ description: 'When an admin last answered or marked it done.' }),
  })
  .meta({ id: 'SupportConversation' })
export type SupportConversation = z.infer<typeof supportConversationSchema>

/** `GET v1/admin/support/{id}`: the conversation and its latest messages, oldest first. */
export const supportConversationWithMessagesSchema = supportConversationSchema
  .extend({
    messages: z.array(supportMessageSchema).meta({ description: 'The latest 100 messages, oldest first.' }),
  })
  .meta({ id: 'SupportConversationWithMessages' })
export type SupportConversationWithMessages = z.infer<typeof supportConversationWithMessagesSchema>

/** How many messages an admin sees in one conversation (the newest). */
export const supportMessagesShown = 100

/** `POST v1/admin/support/{id}/messages`: the answer, as a member's message (1 to 2,000 characters once trimmed). */
export const supportAnswerSchema = sendMessageSchema
export type SupportAnswerInput = z.infer<typeof supportAnswerSchema>
