import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { StreamChat, type Channel as StreamChannel, type Message as StreamMessage, type SendMessageAPIResponse } from 'stream-chat'
import { Channel, ChannelList, Chat, MessageComposer, Window } from 'stream-chat-react'
import 'stream-chat-react/dist/css/index.css'
import type { StreamChatConfig } from './__stream-chat.server.ts'
import { ShieldedMessageList } from './__stream-shield.client.tsx'

/**
 * `/messenger` with Stream's React client (decision 036), loaded only by this page, only in the
 * browser, only when Stream is the chat service. Reading comes from Stream (the API mirrors every
 * change there); sending goes through `/messenger/send`, so the chat's rules and the scam shield
 * apply, and the API mirrors the stored message back to Stream. Until connected, or when Stream
 * cannot be reached, the server-rendered page (`fallback`) stays, and says so on failure. The
 * message list keeps the built-in page's scam warning and hides the messages of members the reader
 * blocked (`ShieldedMessageList`, decision 042).
 */
export default function StreamMessenger({ config, channelId, fallback }: { config: StreamChatConfig; channelId: string | null; fallback: ReactNode }) {
  const { t } = useTranslation('messenger')
  const [client, setClient] = useState<StreamChat | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    const chat = new StreamChat(config.apiKey, { baseURL: config.baseUrl })
    let current = true
    chat.connectUser({ id: config.userId }, config.token).then(
      () => current && setClient(chat),
      () => current && setFailed(true),
    )
    return () => {
      current = false
      setClient(null)
      void chat.disconnectUser()
    }
  }, [config.apiKey, config.baseUrl, config.userId, config.token])

  if (!client) {
    return (
      <>
        {failed ? (
          <p role="status" className="notice">
            {t('stream.unavailable')}
          </p>
        ) : null}
        {fallback}
      </>
    )
  }
  return (
    <section className="messenger messenger--stream" aria-label={t('title')}>
      <Chat client={client}>
        <ChannelList
          filters={{ type: 'messaging', members: { $in: [config.userId] } }}
          sort={{ last_message_at: -1 }}
          {...(channelId ? { customActiveChannel: channelId } : {})}
        />
        <Channel doSendMessageRequest={sendThroughServer}>
          <Window>
            <ShieldedMessageList />
            <MessageComposer />
          </Window>
        </Channel>
      </Chat>
    </section>
  )
}

/**
 * Sends through the server. The message Stream shows comes back from the API's mirror under the
 * API's id, so the composer's local copy (under the client's id) is replaced by it.
 */
async function sendThroughServer(channel: StreamChannel, message: StreamMessage): Promise<SendMessageAPIResponse> {
  const body = new FormData()
  body.set('intent', 'send')
  body.set('channel', channel.id ?? '')
  body.set('text', message.text ?? '')
  const response = await fetch('/messenger/send', { method: 'POST', body, headers: { accept: 'application/json' } })
  const answer = (await response.json().catch(() => ({}))) as { message?: { id: string; created_at: string }; error?: string }
  if (!response.ok || !answer.message) throw new Error(answer.error ?? response.statusText)
  if (message.id) channel.state.removeMessage({ id: message.id })
  const user = channel.getClient().user
  return {
    duration: '0',
    message: {
      ...message,
      id: answer.message.id,
      cid: channel.cid,
      type: 'regular',
      created_at: answer.message.created_at,
      updated_at: answer.message.created_at,
      ...(user ? { user } : {}),
    },
  } as SendMessageAPIResponse
}
