import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { LocalMessage } from 'stream-chat'
import { MessageList, MessageUI, useChannelStateContext, useChatContext, useMessageContext, useStateStore, type MessageUIComponentProps } from 'stream-chat-react'
import { MessageText } from '#app/components/message-text.tsx'
import { FromBlockedLabel } from './__blocking.tsx'
import { ScamWarning, useScamWarned } from './__scam-shield.tsx'

/**
 * What the built-in `/messenger` does per reader, in Stream's React client too (decision 042):
 * the scam warning under another member's message (decision 038, `ScamWarning` as the built-in
 * page draws it) and, in a chat, the messages of members the reader blocked hidden behind one
 * line with a way to show them (decision 034). Stream's `MessageList` takes our `Message`
 * component and the list we filtered; the rest of Stream's UI is unchanged.
 *
 * Whom the reader blocked comes from Stream's client (`client.blockedUsers`, filled when it
 * connects and as they block): the API mirrors every block to Stream (decision 036), and it is
 * Stream's own view of the same channel that is being filtered.
 */

/** The product's Stream user (decision 036, `STREAM_PRODUCT_USER`): its messages are never warned about. */
const productUserId = 'circle55'

interface Shield {
  /** Stream ids of the members the reader blocked. */
  blocked: ReadonlySet<string>
}

const ShieldContext = createContext<Shield>({ blocked: new Set() })

type ShieldedMessage = Pick<LocalMessage, 'id' | 'text' | 'type'> & { user?: { id: string } | null }

export function isFromBlocked(message: Pick<ShieldedMessage, 'user'>, blocked: ReadonlySet<string>) {
  return message.user?.id !== undefined && blocked.has(message.user.id)
}

/**
 * Around one message: "From someone you blocked" above it when shown, and below it the scam
 * warning when another member's text calls for it (never one's own, never the product's).
 */
export function MessageShield({
  message,
  channelId,
  own,
  blocked,
  children,
}: {
  message: ShieldedMessage
  /** Our channel id: the Stream channel's id is ours (decision 036). */
  channelId: string
  own: boolean
  blocked: ReadonlySet<string>
  children: ReactNode
}) {
  const fromOther = !own && message.user?.id !== productUserId && message.type !== 'deleted'
  const warned = useScamWarned(fromOther ? (message.text ?? '') : '')
  return (
    <>
      {isFromBlocked(message, blocked) ? <FromBlockedLabel /> : null}
      {children}
      {warned ? <ScamWarning message={{ id: message.id, channel_id: channelId }} /> : null}
    </>
  )
}

/** Stream's message UI inside the shield: the `Message` component our list gives Stream. */
export function ShieldedMessageUI(props: MessageUIComponentProps) {
  const { message, isMyMessage } = useMessageContext('ShieldedMessageUI')
  const { channel } = useChannelStateContext('ShieldedMessageUI')
  const { blocked } = useContext(ShieldContext)
  return (
    <MessageShield message={message} channelId={channel.id ?? ''} own={isMyMessage()} blocked={blocked}>
      <MessageUI {...props} />
    </MessageShield>
  )
}

/** "1 message from someone you blocked is hidden. Show it"; once shown, a note and "Hide them again". */
export function HiddenBlockedNotice({ count, shown, onToggle }: { count: number; shown: boolean; onToggle: () => void }) {
  const { t } = useTranslation('blocking')
  if (count === 0) return null
  return (
    <p className="notice" role="note">
      {shown ? t('channel.shownNote') : `${t('channel.hidden', { count })}.`}{' '}
      <button type="button" className="button button--link" onClick={onToggle}>
        {shown ? t('channel.hide') : t('channel.show', { count })}
      </button>
    </p>
  )
}

/** The messages to draw: without those of members the reader blocked, unless they asked to see them. */
export function visibleMessages<M extends Pick<ShieldedMessage, 'user'>>(messages: readonly M[], blocked: ReadonlySet<string>, shown: boolean) {
  const hidden = messages.filter((message) => isFromBlocked(message, blocked)).length
  return { hidden, messages: shown || hidden === 0 ? [...messages] : messages.filter((message) => !isFromBlocked(message, blocked)) }
}

const blockedIdsOf = (state: { userIds: string[] }) => ({ userIds: state.userIds })

/** A message's text as the built-in page draws it, instead of Stream's markdown and its own link finder. */
function renderMessageText(text?: string) {
  return <MessageText text={text ?? ''} />
}

/** Stream's message list for the open channel, with both shields. */
export function ShieldedMessageList() {
  const { client } = useChatContext('ShieldedMessageList')
  const { channel, messages = [] } = useChannelStateContext('ShieldedMessageList')
  const { userIds } = useStateStore(client.blockedUsers, blockedIdsOf)
  const blocked = useMemo(() => new Set(userIds), [userIds])
  // Shown for one channel at a time: opening another hides again, as the built-in page does.
  const [shownIn, setShownIn] = useState<string | null>(null)
  const shown = shownIn === channel.cid
  const visible = visibleMessages(messages, blocked, shown)
  const shield = useMemo(() => ({ blocked }), [blocked])
  return (
    <ShieldContext.Provider value={shield}>
      <HiddenBlockedNotice count={visible.hidden} shown={shown} onToggle={() => setShownIn(shown ? null : channel.cid)} />
      {/* The built-in page's text: links only where the contract's one detector finds them (decision 066). */}
      <MessageList messages={visible.messages} Message={ShieldedMessageUI} renderText={renderMessageText} />
    </ShieldContext.Provider>
  )
}
