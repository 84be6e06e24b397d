import { Link, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BlockControl, useBlockState } from '#app/components/block-control.tsx'
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

/** Where the block confirmation page comes back to: this conversation. */
export const blockReturnTo = (channelId: string) => channelHref(channelId)

/**
 * Whether the block controls are offered: a direct conversation whose other member can be shown
 * (not to the blocked member, decision 034: they read `recipient_unavailable`, as for a suspended
 * member, and are offered nothing that would tell them).
 */
export function offersBlock(channel: ChannelWithMessages) {
  return Boolean(channel.other_member) && channel.cannot_write_reason !== 'recipient_unavailable' && channel.cannot_write_reason !== 'product_messages'
}

/**
 * The conversation as the page should show it while a block or unblock from this page is on its
 * way (decision 041): blocking closes it at once; unblocking opens it again. The page's data (read
 * again after the request, or after its failure) has the last word.
 */
export function useOptimisticBlock(channel: ChannelWithMessages): ChannelWithMessages {
  const known = channel.cannot_write_reason === 'blocked'
  const { isBlocked } = useBlockState(channel.other_member?.slug ?? '', known)
  if (!channel.other_member || isBlocked === known) return channel
  if (isBlocked) return { ...channel, can_write: false, cannot_write_reason: 'blocked' }
  return { ...channel, can_write: true, cannot_write_reason: null }
}

/** Block, or Unblock when the member blocked them (`cannot_write_reason` `blocked` is only ever the blocker's). */
export function ChannelBlockLink({ channel, name }: { channel: ChannelWithMessages; name: string }) {
  const other = channel.other_member
  if (!other || !offersBlock(channel)) return null
  // A block, not a paragraph: with JavaScript the control brings its dialog along.
  return (
    <div className="channel__block">
      <BlockControl slug={other.slug} name={name} isBlocked={channel.cannot_write_reason === 'blocked'} returnTo={blockReturnTo(channel.id)} />
    </div>
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
