import { Link, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { ChannelWithMessages } from '#contract/chat.ts'

/**
 * Blocking in `/messenger` (issue 14 §4, decision 034): the link to block or unblock the other
 * member of a conversation, and the line saying how many messages of a member one blocked are
 * hidden in an activity's group, with a way to show them.
 */

const channelHref = (id: string, extra = '') => `/messenger?channel=${encodeURIComponent(id)}${extra}`

/** `?show_blocked=1`: the page also shows (and marks) the messages of members one blocked. */
export function useShowBlocked() {
  const [params] = useSearchParams()
  return params.get('show_blocked') === '1'
}

/** The block confirmation page for the other member of a direct channel, coming back here. */
export function blockHref(slug: string, channelId: string) {
  return `/p/${encodeURIComponent(slug)}/block?returnTo=${encodeURIComponent(channelHref(channelId))}`
}

/**
 * Block, or Unblock when the member blocked them (`cannot_write_reason` `blocked` is only ever
 * the blocker's: the blocked member reads `recipient_unavailable`, as for a suspended member,
 * and is offered nothing that would tell them).
 */
export function ChannelBlockLink({ channel, name }: { channel: ChannelWithMessages; name: string }) {
  const { t } = useTranslation('blocking')
  const other = channel.other_member
  if (!other || channel.cannot_write_reason === 'recipient_unavailable' || channel.cannot_write_reason === 'product_messages') return null
  const blocked = channel.cannot_write_reason === 'blocked'
  return (
    <p>
      <Link to={blockHref(other.slug, channel.id)}>{t(blocked ? 'unblock.link' : 'block.link', { name })}</Link>
    </p>
  )
}

/** "1 message from someone you blocked is hidden", with Show; once shown, a note and Hide. */
export function HiddenMessages({ channel }: { channel: ChannelWithMessages }) {
  const { t } = useTranslation('blocking')
  const shown = useShowBlocked()
  if (channel.hidden_count === 0) return null
  if (shown) {
    return (
      <p className="notice" role="note">
        {t('channel.shownNote')} <Link to={channelHref(channel.id)}>{t('channel.hide')}</Link>
      </p>
    )
  }
  return (
    <p className="notice" role="note">
      {t('channel.hidden', { count: channel.hidden_count })}.{' '}
      <Link to={channelHref(channel.id, '&show_blocked=1')}>{t('channel.show', { count: channel.hidden_count })}</Link>
    </p>
  )
}

/** The label on a message from a member one blocked, when they are shown. */
export function FromBlockedLabel() {
  const { t } = useTranslation('blocking')
  return <span className="message__blocked">{t('channel.fromBlocked')}</span>
}
