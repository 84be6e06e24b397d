import { channelListSchema, channelSchema, chatUserSchema, channelWithMessagesSchema, messageSchema, type Channel, type ChannelWithMessages, type Message } from '#contract/chat.ts'
import { pageOf } from '#contract/common.ts'
import type { ApiTransport } from '../api.server.ts'

const channelPath = (id: string, ...rest: string[]) => ['v1/chat/message-channels', encodeURIComponent(id), ...rest].join('/')

/** Activity chats and direct messages (issue 14 §1, decision 029): the only code that knows their paths. */
export function chatClient(api: ApiTransport) {
  return {
    /** The member's channels, newest first, each with its last 5 messages; `metadata.total_unread` for the badge. */
    list: (paging: { page?: number; perPage?: number } = {}) =>
      api.json('GET', 'v1/chat/message-channels', channelListSchema, { query: { page: paging.page, per_page: paging.perPage } }),
    /**
     * A channel and a page of its messages, oldest first: the newest page, or the one before
     * `before`; `showBlocked` also answers the messages of members one blocked (decision 034).
     */
    channel: (id: string, before?: string, showBlocked = false): Promise<ChannelWithMessages> =>
      api.one('GET', `message-channels/${encodeURIComponent(id)}`, channelWithMessagesSchema, {
        query: { before, show_blocked: showBlocked ? 'true' : undefined },
      }),
    /** `acknowledgeContactReminder`: the member saw the one-time reminder (409 `contact_reminder`) and sends their contact details anyway. */
    send: (id: string, text: string, options: { acknowledgeContactReminder?: boolean } = {}): Promise<Message> =>
      api.one('POST', channelPath(id, 'messages'), messageSchema, {
        body: options.acknowledgeContactReminder ? { text, acknowledge_contact_reminder: true } : { text },
      }),
    markRead: (id: string) => api.empty('POST', channelPath(id, 'read')),
    accept: (id: string): Promise<Channel> => api.one('POST', channelPath(id, 'accept'), channelSchema),
    leave: (id: string) => api.empty('DELETE', `users/message-channels/${encodeURIComponent(id)}/leave`),
    /** The direct channel with another member: the existing one, or a new message request. */
    openDirect: (userId: string): Promise<Channel> => api.one('POST', 'users/message-channels', channelSchema, { body: { user_id: userId } }),
    /** The activity's chat, joined (its attendees and its host). */
    joinActivity: (experienceId: string): Promise<Channel> =>
      api.one('PUT', `experiences/${encodeURIComponent(experienceId)}/message-channels/join`, channelSchema),
    /** New-message search (decision 034): members one may write to, those one met first; `name` narrows by first name. */
    users: (query: { name?: string; page?: number } = {}) =>
      api.json('GET', 'v1/chat/users', pageOf(chatUserSchema), { query: { name: query.name || undefined, page: query.page } }),
  }
}
