import { useTranslation } from 'react-i18next'
import { badgeLabel } from '#app/components/bottom-nav.tsx'
import { timeAgo } from '#app/utils/time-ago.ts'
import type { Channel, ChatMember } from '#contract/chat.ts'

/** The report page (decision 037): the conversation, or one of its messages. */
export const reportHref = (channelId: string, messageId?: string) =>
  `/messenger/report?channel=${encodeURIComponent(channelId)}${messageId ? `&message=${encodeURIComponent(messageId)}` : ''}`

/** Spec §9: at most 5 faces in a stack. */
export const maxAvatars = 5

/** A channel's name: the activity's title, the other member's name, Circle 55 support's, or the product's. */
export function useChannelName(channel: Pick<Channel, 'kind' | 'experience' | 'other_member'>) {
  const { t } = useTranslation(['messenger', 'common', 'support'])
  if (channel.kind === 'support') return t('support:name')
  if (channel.experience) return channel.experience.title
  if (channel.other_member) return channel.other_member.display_name ?? t('common:member.generic')
  return t('common:brand')
}

export function useMemberName() {
  const { t } = useTranslation('common')
  return (member: ChatMember | null) => (member ? (member.display_name ?? t('member.generic')) : null)
}

/** The people of a channel as faces: the other member, or the latest senders of an activity chat. */
export function faces(channel: Channel, userId: string): ChatMember[] {
  if (channel.other_member) return [channel.other_member]
  const seen = new Map<string, ChatMember>()
  for (const message of [...channel.last_messages].reverse()) {
    if (message.sender && message.sender.id !== userId && !seen.has(message.sender.id)) seen.set(message.sender.id, message.sender)
  }
  return [...seen.values()].slice(0, maxAvatars)
}

/** Decorative: the names are in the text beside it. Initials stand in for a missing photo. */
export function AvatarStack({ members }: { members: ChatMember[] }) {
  const memberName = useMemberName()
  if (members.length === 0) return <span className="avatar-stack" aria-hidden="true" />
  return (
    <span className="avatar-stack" aria-hidden="true">
      {members.slice(0, maxAvatars).map((member) =>
        member.avatar ? (
          <img key={member.id} src={member.avatar.url} alt="" className="avatar avatar--stacked" width={40} height={40} />
        ) : (
          <span key={member.id} className="avatar avatar--stacked avatar--initial">
            {(memberName(member) ?? '?').slice(0, 1)}
          </span>
        ),
      )}
    </span>
  )
}

export function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation('messenger')
  if (count <= 0) return null
  return (
    <span className="badge">
      {badgeLabel(count)}
      <span className="visually-hidden"> {t('list.unread', { count })}</span>
    </span>
  )
}

export function TimeAgo({ date, now }: { date: string; now: number }) {
  const { t, i18n } = useTranslation('messenger')
  return <time dateTime={date}>{timeAgo(date, now, i18n.language, t('justNow'))}</time>
}
