import { z } from 'zod'
import { displayName } from '#contract/display-name.ts'
import { defineNotification } from '../kind.ts'

/**
 * Who wrote a new message (issue 29 §4: a member wants to know who wrote): the writer's display
 * name (spec §3; null for the generic member label: suspended, banned, deleted), or Circle 55
 * support for the team's answers, and the activity of a group chat. Never the message's text: the
 * title and body also go by email, push and text.
 */
type Writer = { kind: 'support' } | { kind: 'member'; name: string | null; activity: string | null }

/** Spec §3 `message.new`: a message in a chat of the member's, held back a little (a member reading the chat hears nothing more of it). */
export const messageNew = defineNotification({
  type: 'message.new',
  data: z.object({ channel_id: z.uuid(), message_id: z.uuid() }),
  topic: 'direct_messages',
  copy: 'messageNew',
  lookup: {
    key: (data) => data.message_id,
    async load(db, ids) {
      const found = await db
        .selectFrom('messages as m')
        .innerJoin('message_channels as c', 'c.id', 'm.channel_id')
        .leftJoin('users as u', 'u.id', 'm.user_id')
        .leftJoin('experiences as e', 'e.id', 'c.experience_id')
        .select(['m.id', 'm.user_id', 'c.kind', 'e.title', 'u.first_name', 'u.last_name', 'u.formatted_name', 'u.name', 'u.banned', 'u.is_suspended', 'u.state'])
        .where('m.id', 'in', ids)
        .execute()
      return new Map(
        found.map((message): [string, Writer] => {
          if (message.user_id === null) return [message.id, message.kind === 'support' ? { kind: 'support' } : { kind: 'member', name: null, activity: null }]
          const gone = message.state === null || message.state === 'deleted'
          const name = gone ? null : displayName({ ...message, banned: message.banned ?? false, is_suspended: message.is_suspended ?? false, state: message.state ?? undefined })
          return [message.id, { kind: 'member', name, activity: message.kind === 'experience' ? message.title : null }]
        }),
      )
    },
  },
  // Who wrote, and where for an activity's group chat; a message that is gone keeps the plain words.
  text(_data, { t, found: writer }) {
    if (!writer) return { title: t('title'), body: t('body') }
    if (writer.kind === 'support') return { title: t('fromSupport'), body: t('openSupport') }
    // The body names the writer too: an email's text is its greeting, this body and the link.
    const { name, activity } = writer
    if (name === null) return { title: activity ? t('inGroupSomeone', { title: activity }) : t('fromSomeone'), body: t('openSomeone') }
    return { title: activity ? t('inGroup', { name, title: activity }) : t('from', { name }), body: t('open', { name }) }
  },
  link: (data) => (data.channel_id ? `/messenger?channel=${encodeURIComponent(data.channel_id)}` : '/messenger'),
  email: 'text',
  push: true,
  sms: { cancelReply: false },
  // While the message is unread: a member who read it, or has the chat open, hears nothing more of it.
  stillFor: async (db, userId, data) => {
    const unread = await db
      .selectFrom('messages')
      .innerJoin('channel_memberships as m', 'm.channel_id', 'messages.channel_id')
      .select('messages.id')
      .where('messages.id', '=', data.message_id)
      .where('messages.deleted_at', 'is', null)
      .where('m.user_id', '=', userId)
      .where('m.left_at', 'is', null)
      .where((eb) => eb.or([eb('m.last_read_at', 'is', null), eb('m.last_read_at', '<', eb.ref('messages.created_at'))]))
      .executeTakeFirst()
    return unread !== undefined
  },
  seenWhenStale: true,
})
