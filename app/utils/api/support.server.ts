import { channelSchema, type Channel } from '#contract/chat.ts'
import { pageOf } from '#contract/common.ts'
import {
  supportConversationSchema,
  supportConversationWithMessagesSchema,
  supportMessageSchema,
  type SupportConversation,
  type SupportConversationWithMessages,
  type SupportMessage,
} from '#contract/support.ts'
import { helpChatSchema, type HelpChat } from '#contract/help-chat.ts'
import type { ApiTransport } from '../api.server.ts'

/** "Contact the product" and the admins' support inbox (decision 039): the only code that knows their paths. */
export function supportClient(api: ApiTransport) {
  const conversation = (id: string) => `v1/admin/support/${encodeURIComponent(id)}`
  return {
    /** The member's conversation with Circle 55 support (made on first use); read and written as a chat channel. */
    open: (): Promise<Channel> => api.one('POST', 'v1/support/message-channel', channelSchema),
    /** The member's help chat (decision 083): their support conversation as they read it (none opened) and the vendor widget, signed, or null. */
    helpChat: (): Promise<HelpChat> => api.one('GET', 'v1/support/help-chat', helpChatSchema),
    /** Admins: every support conversation, waiting ones first, then the newest (403 for anyone else). */
    inbox: (page = 1) => api.json('GET', 'v1/admin/support', pageOf(supportConversationSchema), { query: { page } }),
    /** Admins: one conversation with its latest messages, oldest first. */
    conversation: (id: string): Promise<SupportConversationWithMessages> => api.one('GET', conversation(id), supportConversationWithMessagesSchema),
    /** Admins: answer as "Circle 55 support". */
    answer: (id: string, text: string): Promise<SupportMessage> => api.one('POST', `${conversation(id)}/messages`, supportMessageSchema, { body: { text } }),
    /** Admins: nothing more to answer until the member writes again. */
    done: (id: string): Promise<SupportConversation> => api.one('POST', `${conversation(id)}/done`, supportConversationSchema),
  }
}
