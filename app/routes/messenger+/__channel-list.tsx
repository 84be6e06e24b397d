import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Channel } from '#contract/chat.ts'
import { AvatarStack, faces, TimeAgo, UnreadBadge, useChannelName, useMemberName } from './__channel-parts.tsx'

/** The member's channels, newest first (the API's order), each with its last messages (spec §9: 5). */
export function ChannelList({ channels, openId, now, userId }: { channels: Channel[]; openId: string | null; now: number; userId: string }) {
  const { t } = useTranslation('messenger')
  if (channels.length === 0) {
    return (
      <div className="card">
        <p>{t('list.empty')}</p>
        <p>{t('list.emptyHint')}</p>
      </div>
    )
  }
  return (
    <ul className="channel-list">
      {channels.map((channel) => (
        <li key={channel.id}>
          <ChannelSummary channel={channel} current={channel.id === openId} now={now} userId={userId} />
        </li>
      ))}
    </ul>
  )
}

function ChannelSummary({ channel, current, now, userId }: { channel: Channel; current: boolean; now: number; userId: string }) {
  const { t } = useTranslation('messenger')
  const name = useChannelName(channel)
  const memberName = useMemberName()
  // Waiting for an answer only once something was written (issue 29 §4).
  const waiting = channel.is_awaiting_acceptance && channel.last_messages.some((message) => message.sender?.id === userId)
  const state = waiting ? t('list.waiting') : !channel.is_accepted ? t('list.request') : null
  return (
    <article className={current ? 'card channel-summary channel-summary--current' : 'card channel-summary'}>
      <AvatarStack members={faces(channel, userId)} />
      <div className="channel-summary__body">
        <h3 className="channel-summary__title">
          <Link to={`/messenger?channel=${encodeURIComponent(channel.id)}`} aria-current={current ? 'page' : undefined}>
            {name}
          </Link>{' '}
          <UnreadBadge count={channel.unread_count} />
        </h3>
        <p className="channel-summary__meta">
          {channel.kind === 'support' ? t('support:kind') : channel.experience ? t('list.activity') : t('list.direct')}
          {state ? ` · ${state}` : null}
          {channel.last_message_at ? (
            <>
              {' · '}
              <TimeAgo date={channel.last_message_at} now={now} />
            </>
          ) : null}
        </p>
        {channel.last_messages.length > 0 ? (
          <ul className="channel-summary__messages">
            {channel.last_messages.map((message) => (
              <li key={message.id}>
                <span className="channel-summary__sender">
                  {message.is_system ? t(channel.kind === 'support' ? 'support:name' : 'common:brand') : message.sender?.id === userId ? t('you') : memberName(message.sender)}:
                </span>{' '}
                <span className="channel-summary__text">{message.body}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('list.noMessages')}</p>
        )}
      </div>
    </article>
  )
}
